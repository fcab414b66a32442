import '@xyflow/react/dist/style.css';
import './app.css';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { WhoAmIAnswer } from '../src/ui/model/answer-types.js';
import { storedToken, storeToken } from './auth.js';
import { HomeView } from './home-view.js';
import { NamespaceView } from './namespace-view.js';
import { ObjectView } from './object-view.js';
import { useRoute } from './route.js';
import { FailureMessage, LoginForm, useSession } from './session.js';
import { type ClusterView, useCluster } from './use-cluster.js';

function Views({ cluster, token, user, onSignOut }: { cluster: ClusterView; token: string; user: WhoAmIAnswer; onSignOut: () => void }) {
  const route = useRoute();
  const forbidden = cluster.store.forbiddenResources();
  return (
    <>
      <nav aria-label="Cascade">
        <a href="#/">Cascade</a> <a href="#/stuck-namespaces">Namespaces being deleted</a>
        <span role="status" className="connection">
          {cluster.connected ? 'live' : 'connecting…'}
        </span>
        <span className="user">signed in as {user.username}</span>
        {token !== '' && (
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </nav>
      {cluster.failure !== undefined && <FailureMessage failure={cluster.failure} label="cluster stream refused" />}
      {cluster.synced && forbidden.length > 0 && (
        <details className="forbidden" aria-label="resources not readable">
          <summary>
            {forbidden.length} resources are not shown: {user.username} may not list them
          </summary>
          <ul>
            {forbidden.map((f) => (
              <li key={f.resource.key}>{f.message}</li>
            ))}
          </ul>
        </details>
      )}
      {route.view === 'object' && (
        <ObjectView
          key={`${route.namespace ?? ''}/${route.resource}/${route.name}`}
          cluster={cluster}
          resource={route.resource}
          namespace={route.namespace}
          name={route.name}
        />
      )}
      {route.view === 'namespaces' && <NamespaceView cluster={cluster} />}
      {route.view === 'home' && <HomeView cluster={cluster} />}
    </>
  );
}

function App() {
  const [token, setToken] = useState(storedToken);
  // Both at once: the stream does not wait for the sign-in check, which costs a round trip of its own.
  const session = useSession(token);
  const cluster = useCluster(token);
  if (session.state === 'checking') return <p role="status">Connecting…</p>;
  if (session.state === 'refused') return <LoginForm session={session} onToken={setToken} />;
  const signOut = (): void => {
    storeToken('');
    setToken('');
  };
  return <Views cluster={cluster} token={token} user={session.user} onSignOut={signOut} />;
}

const root = document.getElementById('root');
if (root !== null) createRoot(root).render(<App />);
