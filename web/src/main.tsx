import './styles/tokens.css';
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

/**
 * Forms kept offline on an earlier visit (lib/formQueue) are sent once the
 * page has loaded and whenever the connection comes back; the code doing it
 * is loaded only while something is queued.
 */
function sendQueuedFormsIfAny() {
  try {
    if (!localStorage.getItem('salaula-forms-queued')) return;
  } catch {
    return;
  }
  void import('./lib/offline').then((m) => m.sendQueuedForms()).catch(() => {});
}
if (document.readyState === 'complete') sendQueuedFormsIfAny();
else window.addEventListener('load', sendQueuedFormsIfAny, { once: true });
window.addEventListener('online', sendQueuedFormsIfAny);
