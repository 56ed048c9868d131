import './styles/site.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { registerServiceWorker } from './lib/serviceWorker';
import { reloadOnStaleChunk } from './lib/staleChunks';

reloadOnStaleChunk();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
registerServiceWorker();
