package server

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xwebp "golang.org/x/image/webp"

	"salaula/internal/media"
	"salaula/internal/media/mediatest"
	"salaula/internal/token"
)

// filesOf is the media store of env's server: the folder on disk, or a
// client of its S3 bucket.
func filesOf(t *testing.T, env *testEnv) media.Store {
	t.Helper()
	if env.Media != nil {
		return env.Media
	}
	st, err := media.NewS3(env.Config.S3)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// variantKeys lists the keys of every sized image kept in env's store.
func variantKeys(t *testing.T, env *testEnv) []string {
	t.Helper()
	var keys []string
	if env.Media == nil {
		for _, k := range mediatest.Keys(t, env.Config.S3) {
			if strings.HasPrefix(k, media.VariantsPrefix) {
				keys = append(keys, k)
			}
		}
		return keys
	}
	root := filepath.Join(env.Media.Dir, media.VariantsPrefix)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(env.Media.Dir, p)
			keys = append(keys, filepath.ToSlash(rel))
		}
		return nil
	})
	return keys
}

// sized fetches a render URL (from /storage/v1 on) as a browser that shows WebP.
func (e *testEnv) sized(t *testing.T, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	h := map[string]string{"Accept": "image/avif,image/webp,image/apng,image/*,*/*;q=0.8"}
	for k, v := range headers {
		h[k] = v
	}
	return e.get(t, "/storage/v1"+path, h)
}

// wantImage checks an answer is an image of the type and size.
func wantImage(t *testing.T, res *http.Response, body []byte, contentType string, w, h int) {
	t.Helper()
	wantStatus(t, res, http.StatusOK)
	if got := res.Header.Get("Content-Type"); got != contentType {
		t.Fatalf("Content-Type %q, want %q", got, contentType)
	}
	var cfg image.Config
	var err error
	if contentType == media.TypeWebP {
		cfg, err = xwebp.DecodeConfig(bytes.NewReader(body))
	} else {
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(body))
	}
	if err != nil || cfg.Width != w || cfg.Height != h {
		t.Fatalf("image %d×%d (%v), want %d×%d", cfg.Width, cfg.Height, err, w, h)
	}
}

func TestRenderServesSizedPhotosAsSupabaseStorage(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "sized-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		photo := mediatest.PhonePhoto(t)
		path := u.ID + "/photos/1700000000-me.jpg"
		env.mustUpload(t, u, path, photo)
		thumb := "/render/image/public/user-media/" + path + "?width=192&height=192&resize=cover"

		// A 96 px thumbnail at 2x: WebP, 192×192, at most 30 KB, with a strong ETag.
		res, body := env.sized(t, thumb, nil)
		wantImage(t, res, body, "image/webp", 192, 192)
		if len(body) > 30<<10 {
			t.Fatalf("a thumbnail of a %d KB photo is %d KB, want at most 30 KB", len(photo)>>10, len(body)>>10)
		}
		etag := res.Header.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || !strings.Contains(res.Header.Get("Cache-Control"), "max-age=") ||
			res.Header.Get("Vary") != "Accept" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("headers: %v", res.Header)
		}
		res, body = env.sized(t, thumb, map[string]string{"If-None-Match": etag})
		if res.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Fatalf("If-None-Match its ETag: %d with %d bytes, want 304", res.StatusCode, len(body))
		}

		// Made once and kept on the store; the second time the kept one answers.
		kept := variantKeys(t, env)
		if len(kept) != 1 || !strings.HasSuffix(kept[0], "-w192-h192-cover-q80.webp") {
			t.Fatalf("kept variants %v, want the one thumbnail", kept)
		}
		marker := testWebP
		if _, err := filesOf(t, env).Put(context.Background(), kept[0], bytes.NewReader(marker), media.TypeWebP); err != nil {
			t.Fatal(err)
		}
		if res, body = env.sized(t, thumb, nil); res.StatusCode != http.StatusOK || !bytes.Equal(body, marker) {
			t.Fatalf("the second request made the thumbnail again (%d, %d bytes) instead of answering the kept one", res.StatusCode, len(body))
		}

		// No WebP in Accept: JPEG; format=origin: the stored type.
		res, body = env.get(t, "/storage/v1"+thumb, map[string]string{"Accept": "image/png,image/*;q=0.8"})
		wantImage(t, res, body, "image/jpeg", 192, 192)
		res, body = env.sized(t, "/render/image/public/user-media/"+path+"?width=150&resize=contain&format=origin&quality=60", nil)
		wantImage(t, res, body, "image/jpeg", 150, 200)

		// download(path, {transform}): the owner's own, with the session.
		own := "/render/image/authenticated/user-media/" + path + "?width=96"
		res, body = env.sized(t, own, u.auth(env))
		wantImage(t, res, body, "image/webp", 96, 128)
		if !strings.HasPrefix(res.Header.Get("Cache-Control"), "private") {
			t.Errorf("an authenticated render is cached as %q, want private", res.Header.Get("Cache-Control"))
		}
		wantStatus(t, env.do(t, http.MethodGet, "/storage/v1"+own, nil, nil), http.StatusUnauthorized)
		stranger := newUser(t, env, "stranger-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		wantStatus(t, env.do(t, http.MethodGet, "/storage/v1"+own, nil, stranger.auth(env)), http.StatusForbidden)

		// Removing the photo removes its sized images: not served, not kept.
		wantStatus(t, env.do(t, http.MethodDelete, "/storage/v1/object/user-media", map[string]any{"prefixes": []string{path}}, u.auth(env)), http.StatusOK)
		res, _ = env.sized(t, thumb, nil)
		wantStatus(t, res, http.StatusNotFound)
		if kept := variantKeys(t, env); len(kept) != 0 {
			t.Fatalf("sized images outlived their photo: %v", kept)
		}
	})
}

func TestRenderSignedURLsCarryTheirSize(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "signed-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		path := u.ID + "/photos/1700000000-me.jpg"
		env.mustUpload(t, u, path, testJPEG(t, 400, 300))
		sign := "/storage/v1/object/sign/user-media/" + path
		res := env.do(t, http.MethodPost, sign, map[string]any{"expiresIn": 60, "transform": map[string]any{"width": 120, "height": 120}}, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		url, _ := decode(t, res)["signedURL"].(string)
		if !strings.HasPrefix(url, "/render/image/sign/user-media/"+path+"?token=") {
			t.Fatalf("signedURL %q", url)
		}
		res, body := env.sized(t, url, nil)
		wantImage(t, res, body, "image/webp", 120, 120)
		// The size is the token's: the query cannot change it.
		res, body = env.sized(t, url+"&width=300&height=300", nil)
		wantImage(t, res, body, "image/webp", 120, 120)

		// Without a transform, the URL is the file's own, as before.
		res = env.do(t, http.MethodPost, sign, map[string]any{"expiresIn": 60}, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		if url, _ := decode(t, res)["signedURL"].(string); !strings.HasPrefix(url, "/object/sign/") {
			t.Fatalf("signedURL without a transform %q", url)
		}

		tok := url[strings.Index(url, "token=")+len("token="):]
		now := time.Now()
		claims := token.Claims{Issuer: env.Config.PublicURL + "/auth/v1", Audience: "storage", Role: "storage",
			Subject: "user-media/" + path, Transformations: "width:120,height:120,resize:cover",
			IssuedAt: now.Add(-2 * time.Hour).Unix(), ExpiresAt: now.Add(-time.Hour).Unix()}
		expired := env.sign(t, claims)
		claims.Subject, claims.ExpiresAt = "user-media/"+u.ID+"/photos/other.jpg", now.Add(time.Hour).Unix()
		otherFile := env.sign(t, claims)
		render := "/storage/v1/render/image/sign/user-media/" + path + "?token="
		for name, c := range map[string]struct {
			url  string
			code string
			msg  string
		}{
			"expired":        {render + expired, "InvalidJWT", "The signed URL has expired"},
			"tampered":       {render + forgedToken(tok), "InvalidJWT", "The signed URL is not valid for this file"},
			"another file":   {render + otherFile, "InvalidJWT", "The signed URL is not valid for this file"},
			"no token":       {strings.TrimSuffix(render, "?token="), "InvalidRequest", "The signed URL has no token"},
			"another bucket": {"/storage/v1/render/image/sign/avatars/" + path + "?token=" + tok, "NoSuchBucket", "Bucket not found"},
		} {
			res := env.do(t, http.MethodGet, c.url, nil, nil)
			want := http.StatusBadRequest
			if c.code == "NoSuchBucket" {
				want = http.StatusNotFound
			}
			wantStatus(t, res, want)
			if b := decode(t, res); b["code"] != c.code || !strings.HasPrefix(b["message"].(string), c.msg) {
				t.Errorf("%s: %v", name, b)
			}
		}

		// A bad transform is refused when signing, naming it.
		res = env.do(t, http.MethodPost, sign, map[string]any{"expiresIn": 60, "transform": map[string]any{"width": 99999}}, u.auth(env))
		wantStatus(t, res, http.StatusBadRequest)
		if msg, _ := decode(t, res)["message"].(string); !strings.HasPrefix(msg, "width must be") {
			t.Fatalf("a bad transform: %q", msg)
		}
	})
}

func TestRenderRefusesBadRequestsClearly(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "badrender-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		path := u.ID + "/a.jpg"
		env.mustUpload(t, u, path, testJPEG(t, 40, 30))
		if _, err := filesOf(t, env).Put(context.Background(), "user-media/"+u.ID+"/notes.txt", strings.NewReader("not a picture"), "text/plain"); err != nil {
			t.Fatal(err)
		}
		public := "/storage/v1/render/image/public/user-media/"
		hosted := func(status, code, msg string) []string {
			return []string{`"statusCode":"` + status + `"`, `"code":"` + code + `"`, `"message":"` + msg}
		}
		var scenarios []scenario
		for query, param := range map[string]string{"width=0.5": "width", "width=99999": "width", "height=-3": "height",
			"height=tall": "height", "resize=stretch": "resize", "quality=5": "quality", "quality=101": "quality", "format=gif": "format"} {
			scenarios = append(scenarios, scenario{name: query, method: http.MethodGet, url: public + path + "?" + query,
				status: 400, contains: hosted("400", "InvalidRequest", param+" must be")})
		}
		scenarios = append(scenarios,
			scenario{name: "no such file", method: http.MethodGet, url: public + u.ID + "/none.jpg?width=96",
				status: 404, contains: hosted("404", "NoSuchKey", "Object not found")},
			scenario{name: "another bucket", method: http.MethodGet, url: "/storage/v1/render/image/public/avatars/" + path + "?width=96",
				status: 404, contains: hosted("404", "NoSuchBucket", "Bucket not found")},
			scenario{name: "a bad path", method: http.MethodGet, url: public + u.ID + "/a%5Cb.jpg?width=96",
				status: 400, contains: hosted("400", "InvalidKey", "The object path")},
			scenario{name: "not an image", method: http.MethodGet, url: public + u.ID + "/notes.txt?width=96",
				status: 415, contains: hosted("415", "InvalidMimeType", "The file is not a JPEG, PNG or WebP image")},
		)
		runScenarios(t, env, scenarios)
	})
}
