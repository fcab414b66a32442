import { stuckNamespaces, unavailableApiServices } from '../src/ui/model/namespace-view.js';
import { hrefOf } from '../src/ui/model/ownership-graph.js';
import type { ClusterView } from './use-cluster.js';

export function NamespaceView({ cluster }: { cluster: ClusterView }) {
  const { store, synced } = cluster;
  if (!synced) return <p role="status">Reading the cluster…</p>;
  const namespaces = stuckNamespaces(store);
  const apis = unavailableApiServices(store);
  return (
    <main>
      <h1>Namespaces being deleted</h1>
      {namespaces.length === 0 && <p role="status">No namespace is being deleted.</p>}
      {namespaces.map((ns) => (
        <section key={ns.name} aria-labelledby={`ns-${ns.name}`} className="namespace">
          <h2 id={`ns-${ns.name}`}>
            <a href={ns.href}>{ns.name}</a> terminating since {ns.since}
          </h2>
          {ns.specFinalizers.length > 0 && <p>spec.finalizers: {ns.specFinalizers.join(', ')}</p>}
          <table aria-label={`conditions of ${ns.name}`}>
            <thead>
              <tr>
                <th>Condition</th>
                <th>Status</th>
                <th>Reason</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody>
              {ns.conditions.map((c) => (
                <tr key={c.type} className={c.status === 'True' ? 'condition-true' : ''}>
                  <td>{c.type}</td>
                  <td>{c.status === '' ? 'not reported' : c.status}</td>
                  <td>{c.reason}</td>
                  <td>{c.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Objects held by finalizers</h3>
          {ns.held.length === 0 ? (
            <p>None.</p>
          ) : (
            <ul aria-label={`objects held in ${ns.name}`}>
              {ns.held.map((o) => (
                <li key={o.object.metadata.uid}>
                  <a href={hrefOf(o)}>
                    {o.resource.kind}/{o.object.metadata.name}
                  </a>
                  : {(o.object.metadata.finalizers ?? []).join(', ')}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <h2>Unavailable APIServices</h2>
      {apis.length === 0 ? (
        <p>All APIServices are available.</p>
      ) : (
        <ul aria-label="unavailable APIServices">
          {apis.map((a) => (
            <li key={a.name}>
              <a href={`#/cluster/apiservices.apiregistration.k8s.io/${encodeURIComponent(a.name)}`}>{a.name}</a> ({a.reason})
              {a.endpoint === '' ? '' : ` via service ${a.endpoint}`}: {a.message}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
