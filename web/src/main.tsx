import './styles/tokens.css';
import './styles/site.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { registerServiceWorker } from './lib/serviceWorker';
import { reloadOnStaleChunk } from './lib/staleChunks';

reloadOnStaleChunk();
// The opened page's code was fetched beside this entry (vite.config.ts): with it loaded, the first render
// shows the page (or the first second's skeleton) at once, never a fallback in between.
void preloadRoute(location.pathname)
  .catch(() => {}) // the page's own render tries again and shows the error
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    // As a transition, the first render yields to the browser every few milliseconds instead of
    // holding a slow phone's main thread for the whole page at once (decision 0249).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
  });
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
// At the load itself, not later at an idle moment: a form page that mounts first holds its own kept
// body and leaves the sending to this call.
if (document.readyState === 'complete') sendQueuedFormsIfAny();
else window.addEventListener('load', sendQueuedFormsIfAny, { once: true });
window.addEventListener('online', sendQueuedFormsIfAny);
