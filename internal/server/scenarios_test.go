package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// scenario is one request to a route and what its answer must hold: the
// HTTP tests of one route's cases read as a table of these.
type scenario struct {
	name     string
	method   string
	url      string
	body     any               // nil, a string, []byte or a value sent as JSON
	headers  map[string]string // e.g. user.auth(env)
	status   int
	contains []string          // each must be in the body
	header   map[string]string // each must be the answer's header value
}

// runScenarios sends each scenario to env and checks its answer.
func runScenarios(t *testing.T, env *testEnv, cases []scenario) {
	t.Helper()
	for _, c := range cases {
		res := env.do(t, c.method, c.url, c.body, c.headers)
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != c.status {
			t.Errorf("%s: %s %s: status %d, want %d; body: %s", c.name, c.method, c.url, res.StatusCode, c.status, b)
			continue
		}
		for _, want := range c.contains {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: body %s lacks %s", c.name, b, want)
			}
		}
		for k, want := range c.header {
			if got := res.Header.Get(k); got != want {
				t.Errorf("%s: header %s = %q, want %q", c.name, k, got, want)
			}
		}
	}
}

// A function that exists answers a method it does not take with 405 and
// Allow (supabase-js invoke(name, {method})); an unknown function is 404.
func TestFunctionsAnswerOtherMethodsWith405(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "methods@example.com")
		runScenarios(t, env, []scenario{
			{name: "GET get-profile-me", method: http.MethodGet, url: "/functions/v1/get-profile-me", headers: u.auth(env),
				status: 405, contains: []string{`"error":"get-profile-me takes POST, not GET"`}, header: map[string]string{"Allow": "POST"}},
			{name: "PUT contact-form-submit", method: http.MethodPut, url: "/functions/v1/contact-form-submit", body: validContact(),
				status: 405, contains: []string{`"error":"contact-form-submit takes POST, not PUT"`}, header: map[string]string{"Allow": "POST"}},
			{name: "DELETE waitlist-unsubscribe", method: http.MethodDelete, url: "/functions/v1/waitlist-unsubscribe?token=x",
				status: 405, contains: []string{`takes GET or POST, not DELETE`}, header: map[string]string{"Allow": "GET, POST"}},
			{name: "PATCH account-delete", method: http.MethodPatch, url: "/functions/v1/account-delete", headers: u.auth(env),
				status: 405, header: map[string]string{"Allow": "POST"}},
			{name: "an unknown function", method: http.MethodGet, url: "/functions/v1/no-such-function",
				status: 404, contains: []string{`"msg":"No API route for GET /functions/v1/no-such-function"`}},
			{name: "an unknown function, POST", method: http.MethodPost, url: "/functions/v1/get-profile-me/extra", body: "{}",
				status: 404, contains: []string{`"error_code":"not_found"`}},
			{name: "POST get-profile-me still answers", method: http.MethodPost, url: "/functions/v1/get-profile-me", headers: u.auth(env),
				status: 200, contains: []string{`"email":"methods@example.com"`}},
		})
		if n := count(t, env.DB, "contact_messages"); n != 0 {
			t.Fatalf("a PUT stored %d contact messages", n)
		}
	})
}

// Unknown storage routes answer in storage's own shape, so storage-js's
// exists() reads a 404 as "no such file" instead of throwing.
func TestUnknownStorageRoutesAnswerInStoragesShape(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "storage-routes@example.com")
		notFound := []string{`"statusCode":"404"`, `"error":"not_found"`, `"message":"No storage route for `}
		runScenarios(t, env, []scenario{
			{name: "bucket list", method: http.MethodGet, url: "/storage/v1/bucket", headers: u.auth(env), status: 404, contains: notFound},
			{name: "resumable uploads", method: http.MethodPost, url: "/storage/v1/upload/resumable", body: "{}", headers: u.auth(env), status: 404, contains: notFound},
			{name: "a public object of another bucket", method: http.MethodGet, url: "/storage/v1/object/public/other/" + u.ID + "/a.png",
				status: 404, contains: []string{`"statusCode":"404"`, `"error":"Bucket not found"`, `"message":"Bucket not found"`}},
			{name: "a missing public object", method: http.MethodGet, url: "/storage/v1/object/public/user-media/" + u.ID + "/none.png",
				status: 404, contains: []string{`"error":"not_found"`, `"message":"Object not found"`}},
		})
	})
}

// Every function's errors keep their wire shape: {"error", "fields"} with
// the status of their kind.
func TestFunctionErrorsKeepTheirWireShape(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "function-errors@example.com")
		other := newUser(t, env, "someone-else@example.com")
		fn := func(name string) string { return "/functions/v1/" + name }
		runScenarios(t, env, []scenario{
			{name: "get-profile-me without a token", method: http.MethodPost, url: fn("get-profile-me"),
				status: 401, contains: []string{`{"error":"Missing authorization header: sign in first"}`}},
			{name: "onboard-new-user without a session", method: http.MethodPost, url: fn("onboard-new-user"), body: "{}",
				status: 401, contains: []string{`{"error":"Could not get user session. Please log in again."}`}},
			{name: "onboard-seller without a session", method: http.MethodPost, url: fn("onboard-seller"), body: "{}",
				status: 401, contains: []string{`{"error":"You must be logged in."}`}},
			{name: "onboard-new-user for another account", method: http.MethodPost, url: fn("onboard-new-user"), headers: u.auth(env),
				body: map[string]any{"userId": other.ID}, status: 403, contains: []string{`"error":"You can only set up your own profile`}},
			{name: "onboard-seller with an empty payload", method: http.MethodPost, url: fn("onboard-seller"), headers: u.auth(env),
				body: "{}", status: 400, contains: []string{`"fields":{`, `"business_name":`}},
			{name: "onboard-new-user with an image never uploaded", method: http.MethodPost, url: fn("onboard-new-user"), headers: u.auth(env),
				body: validProfile(u, env.URL+"/storage/v1/object/public/user-media/"+u.ID+"/photos/none.png"), status: 400,
				contains: []string{`"error":"Image ` + u.ID + `/photos/none.png was not found: please upload it again"`, `"body_photo_urls":"Image `}},
			{name: "account-delete without a password", method: http.MethodPost, url: fn("account-delete"), headers: u.auth(env),
				body: "{}", status: 400, contains: []string{`{"error":"Please enter your password to delete your account","fields":{"password":"Please enter your password to delete your account"}}`}},
			{name: "account-delete with a wrong password", method: http.MethodPost, url: fn("account-delete"), headers: u.auth(env),
				body: `{"password": "not-the-password"}`, status: 401, contains: []string{`{"error":"The password is not correct","fields":{"password":"The password is not correct"}}`}},
			{name: "account-prove-email-verify without a token", method: http.MethodPost, url: fn("account-prove-email-verify"), headers: u.auth(env),
				body: `{"token_hash": null}`, status: 400, contains: []string{`{"error":"This link is incomplete.`}},
			{name: "account-address without a session", method: http.MethodPost, url: fn("account-address"),
				status: 401, contains: []string{`{"error":"You must be logged in."}`}},
			{name: "a body that is not JSON", method: http.MethodPost, url: fn("account-delete"), headers: u.auth(env),
				body: "{", status: 400, contains: []string{`{"error":"Request body is not valid JSON"}`}},
			{name: "a form-encoded body", method: http.MethodPost, url: fn("waitlist-signup"), body: "email=a",
				headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 415,
				contains: []string{`{"error":"Content-Type must be application/json"}`}},
			{name: "a waitlist sign-up with a bad address", method: http.MethodPost, url: fn("waitlist-signup"),
				body: map[string]any{"email": "nope", "programName": "Upcycling Initiative"}, status: 400,
				contains: []string{`"error":"Please correct the highlighted fields and try again."`, `"fields":{"email":`}},
		})
	})
}
