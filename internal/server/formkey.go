package server

import "net/http"

// maxClientKey is the longest Idempotency-Key a public form may send.
const maxClientKey = 100

// badClientKeyMessage answers a public form whose Idempotency-Key is not one
// the app makes.
const badClientKeyMessage = "The Idempotency-Key header must be at most 100 letters, digits, '-' or '_'."

// clientKey is the Idempotency-Key a public form sent (empty when none),
// with ok false when it is longer than maxClientKey or holds other
// characters than letters, digits, '-' and '_'. A form sent again with the
// same key is stored once.
func clientKey(r *http.Request) (key string, ok bool) {
	key = r.Header.Get("Idempotency-Key")
	if len(key) > maxClientKey {
		return "", false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", false
		}
	}
	return key, true
}
