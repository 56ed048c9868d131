/*
 * Background Sync for the public forms kept offline (src/lib/formQueue.ts):
 * imported by the service worker, it sends the queue kept in IndexedDB when
 * the browser says the connection is back, even with no tab open. Each form
 * carries its Idempotency-Key, so the server keeps it once however often it
 * is sent (by the page, a later visit or here). A form the server answered
 * (kept or refused) leaves the queue, and the open pages are told at once on
 * the BroadcastChannel 'salaula-forms' (src/lib/formQueue.ts), so a form
 * still saying it waits for the connection stops saying so; one that never
 * reached the server stays, and the sync is tried again by the browser.
 */
(function () {
  var DB = 'salaula-forms';
  var STORE = 'queue';
  var TAG = 'salaula-forms';
  var CHANNEL = 'salaula-forms';

  /** tell says to the open pages that form f was answered: refusal is null when kept. */
  function tell(f, refusal) {
    if (typeof BroadcastChannel === 'undefined') return;
    var ch = new BroadcastChannel(CHANNEL);
    ch.postMessage({ form: f, refusal: refusal });
    ch.close();
  }

  /** refusalOf reads a refused answer's words ({ error, fields }, as the functions answer). */
  function refusalOf(res) {
    if (res.ok) return Promise.resolve(null);
    return res
      .json()
      .catch(function () {
        return {};
      })
      .then(function (body) {
        return { status: res.status, message: typeof body.error === 'string' ? body.error : '', fields: body.fields || {} };
      });
  }

  function openDB() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB, 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore(STORE, { keyPath: 'key' });
      };
      req.onsuccess = function () {
        resolve(req.result);
      };
      req.onerror = function () {
        reject(req.error);
      };
    });
  }

  function request(db, mode, op) {
    return new Promise(function (resolve, reject) {
      var tx = db.transaction(STORE, mode);
      var req = op(tx.objectStore(STORE));
      tx.oncomplete = function () {
        resolve(req.result);
      };
      tx.onerror = tx.onabort = function () {
        reject(tx.error);
      };
    });
  }

  function sendAll() {
    return openDB().then(function (db) {
      return request(db, 'readonly', function (s) {
        return s.getAll();
      }).then(function (forms) {
        forms.sort(function (a, b) {
          return a.at - b.at;
        });
        return forms.reduce(function (done, f) {
          return done.then(function () {
            var ctl = new AbortController();
            var timer = setTimeout(function () {
              ctl.abort();
            }, 30000);
            return fetch('/functions/v1/' + encodeURIComponent(f.fn), {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', 'Idempotency-Key': f.key },
              body: JSON.stringify(f.body),
              signal: ctl.signal,
            })
              .finally(function () {
                clearTimeout(timer);
              })
              .then(function (res) {
                // A server in trouble: the browser tries the sync again later.
                if (res.status >= 500) throw new Error('status ' + res.status);
                // Answered, kept or refused: out of the queue, and the pages are told.
                return refusalOf(res).then(function (refusal) {
                  return request(db, 'readwrite', function (s) {
                    return s.delete(f.key);
                  }).then(function () {
                    tell(f, refusal);
                  });
                });
              });
          });
        }, Promise.resolve());
      });
    });
  }

  self.addEventListener('sync', function (event) {
    if (event.tag === TAG) event.waitUntil(sendAll());
  });
})();
