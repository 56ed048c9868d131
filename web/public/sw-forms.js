/*
 * Background Sync for the public forms kept offline (src/lib/formQueue.ts):
 * imported by the service worker, it sends the queue kept in IndexedDB when
 * the browser says the connection is back, even with no tab open. Each form
 * carries its Idempotency-Key, so the server keeps it once however often it
 * is sent (by the page, a later visit or here). A form the server answered
 * (kept or refused) leaves the queue; one that never reached it stays, and
 * the sync is tried again by the browser.
 */
(function () {
  var DB = 'salaula-forms';
  var STORE = 'queue';
  var TAG = 'salaula-forms';

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
                // Answered, kept or refused: the page has nobody to show a refusal to.
                return request(db, 'readwrite', function (s) {
                  return s.delete(f.key);
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
