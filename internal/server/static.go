package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// appFile is one file of the built app, held in memory with its brotli and gzip forms.
type appFile struct {
	body        []byte
	gzipped     []byte // nil when compressing does not pay
	brotli      []byte // nil when compressing does not pay
	contentType string
	etag        string
}

// newAppFile is body, of content type ct, ready to serve: with its ETag and
// its compressed forms.
func newAppFile(body []byte, ct string) *appFile {
	return (&appFile{body: body, contentType: ct}).finish()
}

// finish gives f its strong ETag (a hash of the body) and, for a text over
// 512 bytes, the brotli and gzip forms the build did not make, each kept
// only when smaller than the body. It returns f.
func (f *appFile) finish() *appFile {
	sum := sha256.Sum256(f.body)
	f.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	if !compressible(f.contentType) || len(f.body) <= 512 {
		return f
	}
	if f.gzipped == nil {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(f.body)
		zw.Close()
		if buf.Len() < len(f.body) {
			f.gzipped = buf.Bytes()
		}
	}
	if f.brotli == nil {
		var br bytes.Buffer
		bw := brotli.NewWriterLevel(&br, brotliQuality)
		bw.Write(f.body)
		bw.Close()
		if br.Len() < len(f.body) {
			f.brotli = br.Bytes()
		}
	}
	return f
}

// brotliQuality is the brotli level used at start for a file the build did
// not compress (web/scripts/precompress.mjs writes brotli at 11 with the C
// encoder). Measured on the built app
// (pure-Go encoder): level 5 is 6% smaller than gzip -9 in 0.6 s, level 11 is
// 13% smaller but takes 8 s, paid by every start (and every test server).
const brotliQuality = 5

// appFiles is the built React app, loaded once at start.
type appFiles struct {
	files        map[string]*appFile // by path without leading slash
	scriptHashes string              // " 'sha256-...'" for each inline script of index.html, for the CSP
}

// inlineScript matches a <script> element without attributes: the app's own
// start-up script that Vite's build puts into index.html (web/vite.config.ts).
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// inlineScriptHashes returns the CSP sources (" 'sha256-...'") that allow the
// inline scripts of index.html, so the policy needs no 'unsafe-inline' and
// follows each build without a hash written by hand.
func inlineScriptHashes(index []byte) string {
	var b strings.Builder
	for _, m := range inlineScript.FindAllSubmatch(index, -1) {
		sum := sha256.Sum256(m[1])
		b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	return b.String()
}

// compressible lists the content types worth gzipping.
func compressible(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") ||
		strings.Contains(ct, "json") || strings.Contains(ct, "svg") || strings.Contains(ct, "xml") ||
		strings.Contains(ct, "manifest")
}

// noCacheFiles must be checked with the server on every use: the service
// worker (a browser compares it byte for byte to find a new version of the
// app) and the web app manifest.
var noCacheFiles = map[string]bool{"sw.js": true, "sw-forms.js": true, "registerSW.js": true, "manifest.webmanifest": true}

// loadApp reads every file of the app into memory and compresses the text ones
// with brotli and gzip.
// An app without index.html is refused: the binary was built without the web app.
func loadApp(app fs.FS) (*appFiles, error) {
	a := &appFiles{files: map[string]*appFile{}}
	err := fs.WalkDir(app, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		if base, ok := precompressedOf(p); ok && fileExists(app, base) {
			return nil // taken with its file below
		}
		body, err := fs.ReadFile(app, p)
		if err != nil {
			return err
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if path.Ext(p) == ".webmanifest" {
			ct = "application/manifest+json"
		}
		if ct == "" {
			ct = "application/octet-stream"
		}
		f := &appFile{body: body, contentType: ct}
		if compressible(ct) && len(body) > 512 {
			f.brotli = precompressed(app, p+".br", body, func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil })
			f.gzipped = precompressed(app, p+".gz", body, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) })
		}
		a.files[p] = f.finish()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if a.files["index.html"] == nil {
		return nil, errors.New("index.html is missing: build the web app first (make build)")
	}
	// The prerendered pages carry index.html's start-up script unchanged (web/scripts/prerender.mjs).
	a.scriptHashes = inlineScriptHashes(a.files["index.html"].body)
	return a, nil
}

// precompressedOf returns the file a build-time compressed form (".br",
// ".gz", written by web/scripts/precompress.mjs) belongs to.
func precompressedOf(p string) (string, bool) {
	for _, ext := range []string{".br", ".gz"} {
		if base, ok := strings.CutSuffix(p, ext); ok {
			return base, true
		}
	}
	return "", false
}

func fileExists(app fs.FS, p string) bool {
	st, err := fs.Stat(app, p)
	return err == nil && !st.IsDir()
}

// precompressed returns the build's compressed form of body at p when it
// is there, smaller than body and decodes (with decode) to exactly body; a
// form left over from another build, or damaged, is not used (nil: the
// file is compressed at start instead).
func precompressed(app fs.FS, p string, body []byte, decode func(io.Reader) (io.Reader, error)) []byte {
	packed, err := fs.ReadFile(app, p)
	if err != nil || len(packed) >= len(body) {
		return nil
	}
	r, err := decode(bytes.NewReader(packed))
	if err != nil {
		return nil
	}
	plain, err := io.ReadAll(io.LimitReader(r, int64(len(body))+1))
	if err != nil || !bytes.Equal(plain, body) {
		return nil
	}
	return packed
}

// page returns the HTML answer for an app path: the build's prerendered page
// (pages/<name>.html, web/scripts/prerender.mjs: the content pages, readable
// before the app's code arrives) or index.html, whose app shows the page.
func (a *appFiles) page(name string) *appFile {
	if name == "" {
		name = "index"
	}
	if f := a.files["pages/"+name+".html"]; f != nil && !strings.Contains(name, "/") {
		return f
	}
	return a.files["index.html"]
}

// handleApp serves the app's files, and index.html for every other path so
// the app's router can show the page (or redirect to /404).
// A prerendered path gets its own page (appFiles.page).
func (s *Server) handleApp() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		f, ok := s.app.files[name]
		switch {
		case ok && name != "index.html" && strings.HasPrefix(name, "assets/"):
			// Vite puts a content hash in every asset's name.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		case ok && noCacheFiles[name]:
			w.Header().Set("Cache-Control", "no-cache")
		case ok && name != "index.html":
			w.Header().Set("Cache-Control", "public, max-age=3600")
		case strings.HasPrefix(name, "assets/"):
			// A missing hashed asset is an error, not a page.
			http.Error(w, "Not found", http.StatusNotFound)
			return
		default:
			f = s.app.page(name)
			w.Header().Set("Cache-Control", "no-cache")
		}
		serveAppFile(w, r, f)
	})
}

func serveAppFile(w http.ResponseWriter, r *http.Request, f *appFile) {
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("ETag", f.etag)
	h.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && match == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	switch {
	case f.brotli != nil && accepts(r, "br"):
		h.Set("Content-Encoding", "br")
		body = f.brotli
	case f.gzipped != nil && accepts(r, "gzip"):
		h.Set("Content-Encoding", "gzip")
		body = f.gzipped
	}
	h.Set("Content-Length", itoa64(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func itoa64(n int) string { return strconv.Itoa(n) }

// accepts reports whether the client's Accept-Encoding takes the content
// coding enc ("br", "gzip"), by name or by "*"; a weight of zero refuses it.
func accepts(r *http.Request, enc string) bool {
	star := false
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.TrimSpace(name)
		ok := !refused(params)
		switch {
		case strings.EqualFold(name, enc):
			return ok
		case name == "*":
			star = ok
		}
	}
	return star
}

// refused reports whether Accept-Encoding parameters give a weight of zero (q=0, q=0.0, q=0.000).
func refused(params string) bool {
	p := strings.ReplaceAll(params, " ", "")
	q, ok := strings.CutPrefix(strings.ToLower(p), "q=")
	if !ok {
		return false
	}
	w, err := strconv.ParseFloat(q, 64)
	return err == nil && w == 0
}
