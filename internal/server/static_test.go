package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// pwaApp is a built app with the files the service worker build adds.
var pwaApp = fstest.MapFS{
	"index.html":             {Data: []byte(`<!doctype html><html><body><div id="root"></div></body></html>`)},
	"assets/index-abc123.js": {Data: []byte(strings.Repeat("console.log('salaula');\n", 200))},
	"sw.js":                  {Data: []byte(strings.Repeat("self.addEventListener('fetch', () => {});\n", 40))},
	"manifest.webmanifest":   {Data: []byte(`{"name":"Salaula","short_name":"Salaula","start_url":"/","display":"standalone","icons":[]}`)},
	"icons/icon-192.png":     {Data: []byte("\x89PNG\r\n\x1a\nnot really")},
}

func serveApp(t *testing.T, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	return serveFrom(t, pwaApp, path, header)
}

// serveFrom answers a GET of path from the built app files.
func serveFrom(t *testing.T, files fstest.MapFS, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	app, err := loadApp(files)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	(&Server{app: app}).handleApp().ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

// decoded undoes the answer's Content-Encoding.
func decoded(t *testing.T, res *http.Response, body []byte) string {
	t.Helper()
	var r io.Reader
	switch enc := res.Header.Get("Content-Encoding"); enc {
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "":
		return string(body)
	default:
		t.Fatalf("unexpected Content-Encoding %q", enc)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s body does not decode: %v", res.Header.Get("Content-Encoding"), err)
	}
	return string(plain)
}

func TestAppFilesInBrotliOrGzipAsTheClientAccepts(t *testing.T) {
	want := string(pwaApp["assets/index-abc123.js"].Data)
	cases := []struct {
		acceptEncoding string
		wantEncoding   string
	}{
		{"gzip, deflate, br, zstd", "br"}, // Chrome
		{"br", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"br; q=0.0, gzip;q=0.5", "gzip"},
		{"*", "br"},
		{"gzip;q=0, *", "br"},
		{"br;q=0, gzip;q=0", ""},
		{"identity", ""},
		{"", ""},
		{",,;;q=,garbage;q=zz", ""}, // malformed: plain body, never an error
	}
	for _, c := range cases {
		res, body := serveApp(t, "/assets/index-abc123.js", map[string]string{"Accept-Encoding": c.acceptEncoding})
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%q: status %d", c.acceptEncoding, res.StatusCode)
		}
		if got := res.Header.Get("Content-Encoding"); got != c.wantEncoding {
			t.Errorf("Accept-Encoding %q: Content-Encoding = %q, want %q", c.acceptEncoding, got, c.wantEncoding)
			continue
		}
		if got := decoded(t, res, body); got != want {
			t.Errorf("Accept-Encoding %q: body is not the asset (%d bytes)", c.acceptEncoding, len(got))
		}
		if res.Header.Get("Content-Length") != itoa64(len(body)) {
			t.Errorf("Accept-Encoding %q: Content-Length %s for %d bytes", c.acceptEncoding, res.Header.Get("Content-Length"), len(body))
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: no Vary: Accept-Encoding", c.acceptEncoding)
		}
	}
	// Brotli pays: smaller than gzip for the same file.
	br, brBody := serveApp(t, "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "br"})
	gz, gzBody := serveApp(t, "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "gzip"})
	if br.Header.Get("Content-Encoding") != "br" || gz.Header.Get("Content-Encoding") != "gzip" || len(brBody) >= len(gzBody) {
		t.Errorf("brotli %d bytes, gzip %d bytes", len(brBody), len(gzBody))
	}
	// index.html for an app route, in brotli too.
	res, body := serveApp(t, "/about", map[string]string{"Accept-Encoding": "br"})
	if !strings.Contains(decoded(t, res, body), `<div id="root">`) {
		t.Errorf("/about is not index.html")
	}
}

// The build writes each text file's brotli and gzip forms beside it
// (web/scripts/precompress.mjs); the server sends those bytes as they are,
// never as files of their own, and only when they decode to the file: a
// form left from another build is ignored and the file compressed at start.
func TestAppFilesPrecompressedByTheBuildAreSentAsBuilt(t *testing.T) {
	js := []byte(strings.Repeat("console.log('salaula, built');\n", 100))
	stale := []byte(strings.Repeat("console.log('an older build');\n", 100))
	var br, oldBr, gz bytes.Buffer
	bw := brotli.NewWriterLevel(&br, 11)
	bw.Write(js)
	bw.Close()
	ow := brotli.NewWriterLevel(&oldBr, 11)
	ow.Write(stale)
	ow.Close()
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Name = "built" // marks these bytes apart from the server's own gzip
	zw.Write(js)
	zw.Close()
	files := fstest.MapFS{
		"index.html":                {Data: []byte(`<!doctype html><html><body><div id="root"></div></body></html>`)},
		"assets/index-abc123.js":    {Data: js},
		"assets/index-abc123.js.br": {Data: br.Bytes()},
		"assets/index-abc123.js.gz": {Data: gz.Bytes()},
		"assets/other-def456.js":    {Data: js},
		"assets/other-def456.js.br": {Data: oldBr.Bytes()},
		"assets/other-def456.js.gz": {Data: []byte("not gzip at all")},
	}
	res, body := serveFrom(t, files, "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "br"})
	if res.Header.Get("Content-Encoding") != "br" || !bytes.Equal(body, br.Bytes()) {
		t.Errorf("brotli: %q, %d bytes, want the build's %d", res.Header.Get("Content-Encoding"), len(body), br.Len())
	}
	res, body = serveFrom(t, files, "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "gzip"})
	if res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, gz.Bytes()) {
		t.Errorf("gzip: %q, %d bytes, want the build's %d", res.Header.Get("Content-Encoding"), len(body), gz.Len())
	}
	// Forms that do not decode to the file are not sent: the file is compressed at start.
	for _, enc := range []string{"br", "gzip"} {
		res, body = serveFrom(t, files, "/assets/other-def456.js", map[string]string{"Accept-Encoding": enc})
		if res.Header.Get("Content-Encoding") != enc || decoded(t, res, body) != string(js) {
			t.Errorf("%s of a file with a stale form: %q, decodes to %.40q", enc, res.Header.Get("Content-Encoding"), decoded(t, res, body))
		}
	}
	// The forms are not files of the app.
	for _, p := range []string{"/assets/index-abc123.js.br", "/assets/index-abc123.js.gz"} {
		if res, _ := serveFrom(t, files, p, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, res.StatusCode)
		}
	}
}

func TestServiceWorkerAndManifestAreCheckedOnEveryUse(t *testing.T) {
	for _, p := range []string{"/sw.js", "/manifest.webmanifest"} {
		res, body := serveApp(t, p, map[string]string{"Accept-Encoding": "br"})
		if res.StatusCode != http.StatusOK || len(body) == 0 {
			t.Fatalf("%s: status %d", p, res.StatusCode)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control = %q, want no-cache (a new version must be seen on the next visit)", p, cc)
		}
	}
	res, body := serveApp(t, "/manifest.webmanifest", nil)
	if ct := res.Header.Get("Content-Type"); ct != "application/manifest+json" {
		t.Errorf("manifest Content-Type = %q", ct)
	}
	if !strings.Contains(string(body), `"short_name":"Salaula"`) {
		t.Errorf("manifest body = %s", body)
	}
	res, _ = serveApp(t, "/sw.js", nil)
	if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("sw.js Content-Type = %q", ct)
	}
	res, _ = serveApp(t, "/icons/icon-192.png", map[string]string{"Accept-Encoding": "br, gzip"})
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=3600" {
		t.Errorf("icon Cache-Control = %q", cc)
	}
	if enc := res.Header.Get("Content-Encoding"); enc != "" {
		t.Errorf("a PNG is sent compressed again (%q)", enc)
	}
}

// The start-up script inline in index.html runs under the CSP by its hash
// (the browser's own: sha256 of the script's text, base64), and only it:
// no 'unsafe-inline', and a script with a src is not hashed.
func TestInlineScriptOfIndexAllowedByItsHash(t *testing.T) {
	app, err := loadApp(fstest.MapFS{"index.html": {Data: []byte(
		`<html><head><script type="module" src="/assets/x.js"></script></head><body><script>boot("a")</script></body></html>`)}})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{app: app}
	rec := httptest.NewRecorder()
	s.securityHeaders(s.handleApp()).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/about", nil))
	csp := rec.Result().Header.Get("Content-Security-Policy")
	// printf 'boot("a")' | openssl dgst -sha256 -binary | base64
	const want = "script-src 'self' 'sha256-050anxjJzLb4ln/Wx98JJ2VtA9u3s39YBOC4Q9y7l+o=';"
	if !strings.Contains(csp, want) || strings.Contains(csp, "unsafe-inline'; style") || strings.Count(csp, "sha256-") != 1 {
		t.Fatalf("CSP = %q, want it to contain %q and no other script source", csp, want)
	}
}

// The security headers' values are made once and shared by every answer:
// the app's pages get the page policy, API answers (JSON, which runs and
// loads nothing) a short one and the CORS headers, and a handler adding to
// or replacing one of them changes its own answer only.
func TestSecurityHeadersAreNotSharedBetweenAnswers(t *testing.T) {
	app, err := loadApp(fstest.MapFS{"index.html": {Data: []byte(`<html><body>Salaula</body></html>`)}})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{app: app}
	h := s.securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("more") != "" {
			w.Header().Add("Access-Control-Expose-Headers", "X-More")
			w.Header().Set("Content-Security-Policy", "sandbox")
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	get := func(path string) http.Header {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Result().Header
	}
	pageHeaders := map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin",
		"Permissions-Policy": "geolocation=(), microphone=(), camera=()", "X-Frame-Options": "DENY"}
	apiHeaders := map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
		"Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "Permissions-Policy": "", "X-Frame-Options": ""}
	for _, path := range []string{"/about", "/functions/v1/waitlist-signup", "/functions/v1/waitlist-signup?more=1", "/auth/v1/user", "/about"} {
		got := get(path)
		api := path != "/about"
		want := pageHeaders
		if api {
			want = apiHeaders
		}
		for name, value := range want {
			if strings.Contains(path, "more") && name == "Content-Security-Policy" {
				value = "sandbox"
			}
			if got.Get(name) != value {
				t.Fatalf("%s: %s = %q, want %q", path, name, got.Get(name), value)
			}
		}
		if !api && !strings.HasPrefix(got.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Fatalf("%s: CSP = %q", path, got.Get("Content-Security-Policy"))
		}
		if (got.Get("Access-Control-Allow-Origin") == "*") != api {
			t.Fatalf("%s: Access-Control-Allow-Origin = %q", path, got.Get("Access-Control-Allow-Origin"))
		}
		expose := got.Values("Access-Control-Expose-Headers")
		switch {
		case strings.Contains(path, "more"):
			if len(expose) != 2 || expose[1] != "X-More" {
				t.Fatalf("%s: expose %q", path, expose)
			}
		case api:
			if len(expose) != 1 || expose[0] != "X-Supabase-Api-Version, Content-Range, ETag" {
				t.Fatalf("%s: expose %q (changed by an earlier answer?)", path, expose)
			}
		}
	}
}

func TestPrerenderedPagesAnswerTheirPathsAndOthersGetTheApp(t *testing.T) {
	files := fstest.MapFS{
		"index.html":       {Data: []byte(`<!doctype html><html><body><div id="root">skeleton</div></body></html>`)},
		"pages/index.html": {Data: []byte(`<!doctype html><html><body><div id="root">skeleton<div class="pre">The best of the bale</div></div></body></html>`)},
		"pages/about.html": {Data: []byte(`<!doctype html><html><body><div id="root">skeleton<div class="pre">About Salaula</div></div></body></html>`)},
	}
	for path, want := range map[string]string{
		"/":              "The best of the bale",
		"/about":         "About Salaula",
		"/about/":        "About Salaula",
		"/sign_up":       `<div id="root">skeleton</div>`,
		"/no/such/about": `<div id="root">skeleton</div>`,
		"/index.html":    `<div id="root">skeleton</div>`,
	} {
		res, body := serveFrom(t, files, path, nil)
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d %q, want 200 with %q", path, res.StatusCode, body, want)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache (a page names this build's code)", path, cc)
		}
	}
}
