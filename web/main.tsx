import '@xyflow/react/dist/style.css';
import './app.css';
import { createRoot } from 'react-dom/client';
import { HomeView } from './home-view.js';
import { NamespaceView } from './namespace-view.js';
import { ObjectView } from './object-view.js';
import { useRoute } from './route.js';
import { useCluster } from './use-cluster.js';

function App() {
  const cluster = useCluster();
  const route = useRoute();
  return (
    <>
      <nav aria-label="Cascade">
        <a href="#/">Cascade</a> <a href="#/stuck-namespaces">Namespaces being deleted</a>
        <span role="status" className="connection">
          {cluster.connected ? 'live' : 'connecting…'}
        </span>
      </nav>
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

const root = document.getElementById('root');
if (root !== null) createRoot(root).render(<App />);
