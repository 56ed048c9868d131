package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image/jpeg"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"salaula/internal/config"
	"salaula/internal/media"
)

func TestUploadAndReadBackAsSupabaseJSDoes(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "up@example.com")
		png := testPNG(t)
		path := u.ID + "/photos/1700000000-me.png"
		res := env.upload(t, u, path, png, false)
		wantStatus(t, res, http.StatusOK)
		body := decode(t, res)
		if body["Key"] != "user-media/"+path || len(body["Id"].(string)) != 36 {
			t.Fatalf("upload answer = %v", body)
		}
		res, got := env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
		wantStatus(t, res, http.StatusOK)
		if !bytes.Equal(got, png) {
			t.Fatal("read back other bytes than uploaded")
		}
		h := res.Header
		if h.Get("Content-Type") != "image/png" || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("ETag") == "" || !strings.Contains(h.Get("Cache-Control"), "max-age=31536000") {
			t.Fatalf("headers = %v", h)
		}
		// The ETag answers a revalidation with 304.
		res, _ = env.get(t, "/storage/v1/object/public/user-media/"+path, map[string]string{"If-None-Match": h.Get("ETag")})
		wantStatus(t, res, http.StatusNotModified)
		// A range request gets the part asked for.
		res, part := env.get(t, "/storage/v1/object/public/user-media/"+path, map[string]string{"Range": "bytes=1-3"})
		wantStatus(t, res, http.StatusPartialContent)
		if string(part) != "PNG" || res.Header.Get("Content-Range") != "bytes 1-3/"+strconv.Itoa(len(png)) {
			t.Fatalf("range = %q %v", part, res.Header)
		}
		// The upload is recorded with its owner, size and type.
		objs, err := env.DB.MediaObjectsOf(t.Context(), u.ID)
		if err != nil || len(objs) != 1 || objs[0].Size != int64(len(png)) || objs[0].ContentType != "image/png" || objs[0].ID != body["Id"] {
			t.Fatalf("records = %+v, %v", objs, err)
		}
		// Missing objects and other buckets answer 404 JSON.
		for _, p := range []string{"/storage/v1/object/public/user-media/" + u.ID + "/nope.png", "/storage/v1/object/public/secrets/" + path} {
			res := env.do(t, http.MethodGet, p, nil, nil)
			wantStatus(t, res, http.StatusNotFound)
			if m := decode(t, res); m["statusCode"] != "404" || m["message"] == "" {
				t.Fatalf("404 body = %v", m)
			}
		}
	})
}

func TestUploadRawBodyAndEveryImageType(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "raw@example.com")
		for i, c := range []struct {
			file []byte
			ct   string
		}{{testJPEG(t, 12, 7), "image/jpeg"}, {testPNG(t), "image/png"}, {testWebP, "image/webp"}} {
			path := u.ID + "/photos/" + strconv.Itoa(i) + ".bin"
			// Declared as something else: the content decides.
			res := env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+path, c.file,
				map[string]string{"Authorization": "Bearer " + u.Token, "Content-Type": "text/html"})
			wantStatus(t, res, http.StatusOK)
			res, _ = env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
			if res.Header.Get("Content-Type") != c.ct {
				t.Errorf("%d: served as %q, want %q", i, res.Header.Get("Content-Type"), c.ct)
			}
		}
	})
}

func TestUploadRefusesOtherFoldersAnonymousAndBadTokens(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "owner@example.com")
		other := newUser(t, env, "intruder@example.com")
		img := testPNG(t)
		for name, c := range map[string]struct {
			who    testUser
			path   string
			status int
		}{
			"another user's folder": {other, u.ID + "/photos/x.png", http.StatusForbidden},
			"the bucket's root":     {u, "x.png", http.StatusForbidden},
			"anonymous":             {testUser{}, u.ID + "/photos/x.png", http.StatusUnauthorized},
			"anon key as bearer":    {testUser{Token: env.anonKey(t)}, u.ID + "/photos/x.png", http.StatusUnauthorized},
			"forged token":          {testUser{Token: forgedToken(u.Token)}, u.ID + "/photos/x.png", http.StatusUnauthorized},
		} {
			res := env.upload(t, c.who, c.path, img, false)
			if res.StatusCode != c.status {
				t.Errorf("%s: status %d, want %d", name, res.StatusCode, c.status)
			}
			if m := decode(t, res); m["statusCode"] != strconv.Itoa(c.status) || m["message"] == "" {
				t.Errorf("%s: body %v", name, m)
			}
		}
		res := env.do(t, http.MethodPost, "/storage/v1/object/other-bucket/"+u.ID+"/x.png", img, u.auth(env))
		wantStatus(t, res, http.StatusNotFound)
		if _, err := os.Stat(filepath.Join(env.Media.Dir, "user-media", u.ID)); err == nil {
			t.Fatal("a refused upload created the folder")
		}
	})
}

func TestUploadChecksContentNotNameOrType(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "content@example.com")
		heic := append([]byte{0, 0, 0, 0x18}, []byte("ftypheic\x00\x00\x00\x00mif1heic")...)
		for name, c := range map[string]struct {
			file []byte
			msg  string
		}{
			"script dressed as PNG": {[]byte("<script>alert(document.cookie)</script>"), "Only JPEG, PNG and WebP images can be uploaded"},
			"SVG":                   {[]byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), "Only JPEG, PNG and WebP images can be uploaded"},
			"PNG magic then junk":   {append([]byte("\x89PNG\r\n\x1a\n"), []byte("<script>x</script>")...), "The image file is damaged or incomplete"},
			"HEIC":                  {heic, "HEIC/HEIF photos are not supported"},
			"empty":                 {[]byte{}, "The file is empty"},
		} {
			body, ct := multipartBody(t, c.file, "cat.png", "image/png")
			req, _ := http.NewRequest(http.MethodPost, env.URL+"/storage/v1/object/user-media/"+u.ID+"/photos/cat.png", body)
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", "Bearer "+u.Token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			m := decode(t, res)
			res.Body.Close()
			if res.StatusCode < 400 || res.StatusCode >= 500 || !strings.Contains(m["message"].(string), c.msg) {
				t.Errorf("%s: %d %v, want 4xx %q", name, res.StatusCode, m, c.msg)
			}
		}
		res := env.do(t, http.MethodGet, "/storage/v1/object/public/user-media/"+u.ID+"/photos/cat.png", nil, nil)
		wantStatus(t, res, http.StatusNotFound)
	})
}

// jpegWithGPS is a JPEG whose EXIF block holds an orientation (6) and a GPS
// position, plus an XMP block naming a place.
func jpegWithGPS(t *testing.T) []byte {
	t.Helper()
	plain := testJPEG(t, 16, 8)
	le := binary.LittleEndian
	tiff := []byte("II*\x00\x08\x00\x00\x00")
	entry := func(tag, typ uint16, count, value uint32) []byte {
		e := make([]byte, 12)
		le.PutUint16(e, tag)
		le.PutUint16(e[2:], typ)
		le.PutUint32(e[4:], count)
		le.PutUint32(e[8:], value)
		return e
	}
	tiff = append(tiff, 2, 0)
	tiff = append(tiff, entry(0x0112, 3, 1, 6)...)
	tiff = append(tiff, entry(0x8825, 4, 1, 38)...) // GPS IFD at 8+2+24+4 = 38
	tiff = append(tiff, 0, 0, 0, 0)
	tiff = append(tiff, 1, 0)
	tiff = append(tiff, entry(0x0001, 2, 2, 'S')...) // GPSLatitudeRef "S"
	tiff = append(tiff, 0, 0, 0, 0)
	tiff = append(tiff, []byte("GPS-LUSAKA-15.4167S-28.2833E")...)
	app1 := append([]byte("Exif\x00\x00"), tiff...)
	xmp := append([]byte("http://ns.adobe.com/xap/1.0/\x00"), []byte(`<x:xmpmeta><photoshop:City>Lusaka</photoshop:City></x:xmpmeta>`)...)
	seg := func(marker byte, p []byte) []byte {
		s := []byte{0xFF, marker, 0, 0}
		binary.BigEndian.PutUint16(s[2:], uint16(len(p)+2))
		return append(s, p...)
	}
	out := append([]byte{0xFF, 0xD8}, seg(0xE1, app1)...)
	out = append(out, seg(0xE1, xmp)...)
	return append(out, plain[2:]...)
}

func TestUploadedJPEGLosesItsLocation(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "gps@example.com")
		orig := jpegWithGPS(t)
		if _, err := jpeg.Decode(bytes.NewReader(orig)); err != nil {
			t.Fatalf("test JPEG is broken: %v", err)
		}
		url := env.mustUpload(t, u, u.ID+"/photos/gps.jpg", orig)
		res, got := env.get(t, url[len(env.URL):], nil)
		wantStatus(t, res, http.StatusOK)
		for _, secret := range []string{"GPS-LUSAKA", "Lusaka", "xmpmeta", "\x25\x88"} {
			if bytes.Contains(got, []byte(secret)) {
				t.Errorf("served JPEG still holds %q", secret)
			}
		}
		if !bytes.Contains(got, []byte("Exif\x00\x00MM")) || media.JPEGOrientation(got) != 6 {
			t.Error("the orientation was not kept")
		}
		if _, err := jpeg.Decode(bytes.NewReader(got)); err != nil {
			t.Fatalf("stripped JPEG does not decode: %v", err)
		}
	})
}

func TestUploadSizeLimitAndAtomicWrites(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.MaxUploadBytes = 4 << 10 }, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "big@example.com")
		big := testJPEG(t, 400, 400) // well over 4 KB
		if len(big) <= 4<<10 {
			t.Fatalf("test image only %d bytes", len(big))
		}
		path := u.ID + "/photos/big.jpg"
		res := env.upload(t, u, path, big, false)
		wantStatus(t, res, http.StatusRequestEntityTooLarge)
		if m := decode(t, res); m["message"] != "The file is too large: at most 4 KB per image" {
			t.Fatalf("413 body = %v", m)
		}
		res = env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+path, big, map[string]string{"Authorization": "Bearer " + u.Token, "Content-Type": "image/jpeg"})
		wantStatus(t, res, http.StatusRequestEntityTooLarge)

		// An upload cut off half way leaves nothing under the public URL.
		small := testPNG(t)
		conn, err := net.Dial("tcp", env.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, "POST /storage/v1/object/user-media/"+u.ID+"/photos/cut.png HTTP/1.1\r\nHost: x\r\n"+
			"Authorization: Bearer "+u.Token+"\r\nContent-Type: image/png\r\nContent-Length: 4000\r\n\r\n")
		conn.Write(small)
		conn.(*net.TCPConn).CloseWrite()
		answer, _ := io.ReadAll(conn)
		conn.Close()
		if !bytes.HasPrefix(answer, []byte("HTTP/1.1 400")) || !bytes.Contains(answer, []byte("The upload was interrupted")) {
			t.Fatalf("cut upload answered %q", answer)
		}
		// A replacement that fails its checks leaves the old object whole.
		good := env.mustUpload(t, u, u.ID+"/photos/keep.png", small)
		res = env.upload(t, u, u.ID+"/photos/keep.png", []byte("GIF89a not allowed"), true)
		wantStatus(t, res, http.StatusUnsupportedMediaType)
		res, got := env.get(t, good[len(env.URL):], nil)
		wantStatus(t, res, http.StatusOK)
		if !bytes.Equal(got, small) {
			t.Fatal("the failed replacement changed the stored object")
		}
		for _, p := range []string{path, u.ID + "/photos/cut.png"} {
			res := env.do(t, http.MethodGet, "/storage/v1/object/public/user-media/"+p, nil, nil)
			wantStatus(t, res, http.StatusNotFound)
		}
		// No temporary file is left visible either.
		entries, _ := os.ReadDir(filepath.Join(env.Media.Dir, "user-media", u.ID, "photos"))
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".upload-") {
				t.Errorf("temporary file left: %s", e.Name())
			}
		}
	})
}

func TestUploadPathsAreChecked(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "paths@example.com")
		img := testPNG(t)
		for _, p := range []string{
			u.ID + "/..%2F..%2Fetc%2Fpasswd.png",
			u.ID + "/%2E%2E%2Fx.png",
			u.ID + "/a%5Cb.png",
			u.ID + "/a%00b.png",
			u.ID + "/a%0Ab.png",
			u.ID + "/" + strings.Repeat("a", 300) + ".png",
			u.ID + "/x.png.meta",
			u.ID + "/a/b/c/d/e/f/g/h.png",
			u.ID + "/%FF.png",
			u.ID + "/.upload-123456",
			u.ID + "/photos/.meta-1",
			u.ID + "/photos/cat%E2%80%AEgnp.exe",       // right-to-left override: shows as "catexe.png"
			u.ID + "/photos/%E2%80%8Bcat.png",          // zero-width space
			u.ID + "/photos/%E2%81%A6cat%E2%81%A9.png", // left-to-right isolate
			u.ID + "/%EF%BB%BFphotos/cat.png",          // byte order mark
		} {
			res := env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+p, img, map[string]string{"Authorization": "Bearer " + u.Token, "Content-Type": "image/png"})
			if res.StatusCode != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400", p, res.StatusCode)
			}
			if m := decode(t, res); strings.Contains(p, "%E2%80%AE") && (m["error"] != "InvalidKey" ||
				m["message"] != "The object path must not contain invisible or direction-changing characters (such as right-to-left marks or zero-width spaces)") {
				t.Errorf("%s: %v", p, m)
			}
		}
		// A plain ".." never reaches a handler: the router cleans it away.
		res := env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+u.ID+"/../x.png", img, map[string]string{"Authorization": "Bearer " + u.Token, "Content-Type": "image/png"})
		if res.StatusCode == http.StatusOK {
			t.Fatal("a .. path was stored")
		}
		// A name with dots inside is fine.
		env.mustUpload(t, u, u.ID+"/photos/my..photo.v2.png", img)
		entries, _ := os.ReadDir(env.Media.Dir)
		tmp, _ := os.ReadDir(filepath.Join(env.Media.Dir, ".tmp"))
		if len(entries) != 2 || entries[0].Name() != ".tmp" || entries[1].Name() != "user-media" || len(tmp) != 0 {
			t.Fatalf("media dir holds %v (.tmp: %v), want only user-media and an empty .tmp", entries, tmp)
		}
	})
}

func TestUpsertReplacesAndDuplicateIs409(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "upsert@example.com")
		path := u.ID + "/photos/a.img"
		env.mustUpload(t, u, path, testPNG(t))
		res := env.upload(t, u, path, testWebP, false)
		wantStatus(t, res, http.StatusConflict)
		if m := decode(t, res); m["statusCode"] != "409" || m["error"] != "Duplicate" || m["message"] != "The resource already exists" {
			t.Fatalf("duplicate body = %v", m)
		}
		wantStatus(t, env.upload(t, u, path, testWebP, true), http.StatusOK)
		res, got := env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
		if !bytes.Equal(got, testWebP) || res.Header.Get("Content-Type") != "image/webp" {
			t.Fatalf("after upsert: %q, %s", res.Header.Get("Content-Type"), got)
		}
		// PUT (supabase-js update) replaces too.
		jpg := testJPEG(t, 5, 5)
		res = env.do(t, http.MethodPut, "/storage/v1/object/user-media/"+path, jpg, map[string]string{"Authorization": "Bearer " + u.Token, "Content-Type": "image/jpeg"})
		wantStatus(t, res, http.StatusOK)
		if res, _ := env.get(t, "/storage/v1/object/public/user-media/"+path, nil); res.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("after PUT: %s", res.Header.Get("Content-Type"))
		}
		objs, _ := env.DB.MediaObjectsOf(t.Context(), u.ID)
		if len(objs) != 1 || objs[0].ContentType != "image/jpeg" {
			t.Fatalf("records = %+v", objs)
		}
	})
}

func TestRemoveObjectsOnlyOwnFiles(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "rm@example.com")
		other := newUser(t, env, "rm-other@example.com")
		a := u.ID + "/photos/a.png"
		env.mustUpload(t, u, a, testPNG(t))
		theirs := other.ID + "/photos/b.png"
		env.mustUpload(t, other, theirs, testPNG(t))

		res := env.do(t, http.MethodDelete, "/storage/v1/object/user-media", map[string]any{"prefixes": []string{theirs}}, u.auth(env))
		wantStatus(t, res, http.StatusForbidden)
		res = env.do(t, http.MethodDelete, "/storage/v1/object/user-media", map[string]any{"prefixes": []string{a}}, map[string]string{"apikey": env.anonKey(t)})
		wantStatus(t, res, http.StatusUnauthorized)
		for _, body := range []any{map[string]any{"prefixes": []string{}}, "{", map[string]any{"prefixes": []string{u.ID + "/../x"}}} {
			res = env.do(t, http.MethodDelete, "/storage/v1/object/user-media", body, u.auth(env))
			wantStatus(t, res, http.StatusBadRequest)
		}
		res = env.do(t, http.MethodDelete, "/storage/v1/object/user-media", map[string]any{"prefixes": []any{a, u.ID + "/missing.png"}}, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		var list []map[string]any
		raw, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(raw, &list); err != nil || len(list) != 1 || list[0]["name"] != a {
			t.Fatalf("removed = %s", raw)
		}
		for p, want := range map[string]int{a: 404, theirs: 200} {
			if res, _ := env.get(t, "/storage/v1/object/public/user-media/"+p, nil); res.StatusCode != want {
				t.Errorf("%s: %d, want %d", p, res.StatusCode, want)
			}
		}
		if objs, _ := env.DB.MediaObjectsOf(t.Context(), u.ID); len(objs) != 0 {
			t.Fatalf("records left: %+v", objs)
		}
	})
}

func TestMalformedStorageRequestsAre4xx(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "malformed@example.com")
		other := newUser(t, env, "other-folder@example.com")
		url := "/storage/v1/object/user-media/" + u.ID + "/photos/x.png"
		auth := "Bearer " + u.Token
		form := func(ct string) map[string]string { return map[string]string{"Authorization": auth, "Content-Type": ct} }
		storageErr := func(status, name, msg string) []string {
			return []string{`"statusCode":"` + status + `"`, `"error":"` + name + `"`, `"message":"` + msg}
		}
		env.mustUpload(t, u, u.ID+"/photos/taken.png", testPNG(t))
		tooMany := make([]string, 1001)
		for i := range tooMany {
			tooMany[i] = u.ID + "/x.png"
		}
		runScenarios(t, env, []scenario{
			{name: "form without a file", method: http.MethodPost, url: url, status: 400, headers: form("multipart/form-data; boundary=XX"),
				body:     "--XX\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n3600\r\n--XX--\r\n",
				contains: storageErr("400", "Bad Request", "The form holds no file")},
			{name: "form without a boundary", method: http.MethodPost, url: url, status: 400, headers: form("multipart/form-data"),
				body: "--XX\r\n", contains: storageErr("400", "Bad Request", "The multipart form is malformed")},
			{name: "form cut short", method: http.MethodPost, url: url, status: 400, headers: form("multipart/form-data; boundary=XX"),
				body:     "--XX\r\nContent-Disposition: form-data; name=\"\"; filename=\"a.png\"\r\n\r\n\x89PNG",
				contains: storageErr("400", "Bad Request", "The upload was interrupted")},
			{name: "garbage form", method: http.MethodPost, url: url, status: 400, headers: form("multipart/form-data; boundary=XX"),
				body: "not a form at all", contains: storageErr("400", "Bad Request", "The multipart form is malformed or incomplete")},
			{name: "empty raw body", method: http.MethodPost, url: url, status: 400, headers: form("image/png"),
				body: "", contains: storageErr("400", "Bad Request", "The file is empty")},
			{name: "not an image", method: http.MethodPost, url: url, status: 415, headers: form("image/png"),
				body: "plain text, not a picture", contains: storageErr("415", "invalid_mime_type", "Only JPEG, PNG and WebP images can be uploaded")},
			{name: "no session", method: http.MethodPost, url: url, status: 401, headers: map[string]string{"Content-Type": "image/png"},
				body: "x", contains: storageErr("401", "Unauthorized", "You must be signed in to upload or remove files: ")},
			{name: "another person's folder", method: http.MethodPost, url: "/storage/v1/object/user-media/" + other.ID + "/a.png",
				status: 403, headers: form("image/png"), body: "x", contains: storageErr("403", "Unauthorized", "You can only upload to or remove from your own folder")},
			{name: "another bucket", method: http.MethodPost, url: "/storage/v1/object/avatars/" + u.ID + "/a.png",
				status: 404, headers: form("image/png"), body: "x", contains: storageErr("404", "Bucket not found", "Bucket not found")},
			{name: "a path taken", method: http.MethodPost, url: "/storage/v1/object/user-media/" + u.ID + "/photos/taken.png",
				status: 409, headers: form("image/png"), body: "x", contains: storageErr("409", "Duplicate", "The resource already exists")},
			{name: "a bad path", method: http.MethodGet, url: "/storage/v1/object/public/user-media/" + u.ID + "/a%5Cb.png",
				status: 400, contains: storageErr("400", "InvalidKey", "The object path must not contain backslashes")},
			{name: "remove: not JSON", method: http.MethodDelete, url: "/storage/v1/object/user-media", headers: u.auth(env),
				body: "{", status: 400, contains: storageErr("400", "Bad Request", "Request body is not valid JSON")},
			{name: "remove: no paths", method: http.MethodDelete, url: "/storage/v1/object/user-media", headers: u.auth(env),
				body: `{"prefixes": []}`, status: 400, contains: storageErr("400", "InvalidRequest", "prefixes must list 1 to 1000 object paths")},
			{name: "remove: too many paths", method: http.MethodDelete, url: "/storage/v1/object/user-media", headers: u.auth(env),
				body: map[string]any{"prefixes": tooMany}, status: 400, contains: storageErr("400", "InvalidRequest", "prefixes must list 1 to 1000")},
			{name: "remove: another person's file", method: http.MethodDelete, url: "/storage/v1/object/user-media", headers: u.auth(env),
				body: `{"prefixes": ["` + other.ID + `/a.png"]}`, status: 403, contains: storageErr("403", "Unauthorized", "You can only upload to or remove from your own folder")},
		})
		// Removing with paths given as objects.
		p := env.mustUpload(t, u, u.ID+"/photos/o.png", testPNG(t))
		res := env.do(t, http.MethodDelete, "/storage/v1/object/user-media", `{"prefixes": [{"path": "`+u.ID+`/photos/o.png"}]}`, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		if res, _ := env.get(t, p[len(env.URL):], nil); res.StatusCode != http.StatusNotFound {
			t.Fatalf("object given as {path} not removed: %d", res.StatusCode)
		}
		for _, body := range []string{`{"prefixes": [5]}`, `{"prefixes": "x"}`, `[]`} {
			res := env.do(t, http.MethodDelete, "/storage/v1/object/user-media", body, u.auth(env))
			if res.StatusCode != http.StatusBadRequest {
				t.Errorf("remove %s: %d, want 400", body, res.StatusCode)
			}
		}
	})
}

// The storage reads (list, info, sign, a signed URL) answer every mistake
// in the hosted shape, with the hosted "code" beside the "error".
func TestStorageReadErrorsAnswerInTheHostedShape(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "storage-reads@example.com")
		other := newUser(t, env, "storage-reads-other@example.com")
		env.mustUpload(t, u, u.ID+"/a.png", testPNG(t))
		hosted := func(status, code, name, msg string) []string {
			return []string{`"statusCode":"` + status + `"`, `"code":"` + code + `"`, `"error":"` + name + `"`, `"message":"` + msg}
		}
		list, info, sign := "/storage/v1/object/list/user-media", "/storage/v1/object/info/user-media/", "/storage/v1/object/sign/user-media/"
		runScenarios(t, env, []scenario{
			{name: "list: no session", method: http.MethodPost, url: list, body: `{"prefix": ""}`, status: 401,
				contains: hosted("401", "InvalidJWT", "Unauthorized", "You must be signed in to list or sign files: ")},
			{name: "list: another bucket", method: http.MethodPost, url: "/storage/v1/object/list/avatars", headers: u.auth(env), body: `{}`,
				status: 404, contains: hosted("404", "NoSuchBucket", "Bucket not found", "Bucket not found")},
			{name: "sign several: another bucket", method: http.MethodPost, url: "/storage/v1/object/sign/avatars", headers: u.auth(env),
				body: `{"expiresIn": 60, "paths": ["` + u.ID + `/a.png"]}`, status: 404, contains: hosted("404", "NoSuchBucket", "Bucket not found", "Bucket not found")},
			{name: "remove: another bucket", method: http.MethodDelete, url: "/storage/v1/object/avatars", headers: u.auth(env),
				body: `{"prefixes": ["` + u.ID + `/a.png"]}`, status: 404, contains: hosted("404", "NoSuchBucket", "Bucket not found", "Bucket not found")},
			{name: "list: not JSON", method: http.MethodPost, url: list, headers: u.auth(env), body: "{",
				status: 400, contains: hosted("400", "InvalidRequest", "Bad Request", "Request body is not valid JSON")},
			{name: "list: limit too large", method: http.MethodPost, url: list, headers: u.auth(env), body: `{"limit": 1001}`,
				status: 400, contains: hosted("400", "InvalidRequest", "InvalidRequest", "limit must be 1 to 1000")},
			{name: "list: negative offset", method: http.MethodPost, url: list, headers: u.auth(env), body: `{"offset": -1}`,
				status: 400, contains: hosted("400", "InvalidRequest", "InvalidRequest", "offset must not be negative")},
			{name: "list: bad order", method: http.MethodPost, url: list, headers: u.auth(env), body: `{"sortBy": {"order": "up"}}`,
				status: 400, contains: hosted("400", "InvalidRequest", "InvalidRequest", "sortBy.order must be asc or desc")},
			{name: "list: bad prefix", method: http.MethodPost, url: list, headers: u.auth(env), body: `{"prefix": "` + u.ID + `/../x"}`,
				status: 400, contains: hosted("400", "InvalidKey", "InvalidKey", "The object path must not contain . or .. segments")},
			{name: "list: another folder", method: http.MethodPost, url: list, headers: u.auth(env), body: `{"prefix": "` + other.ID + `"}`,
				status: 403, contains: hosted("403", "AccessDenied", "Unauthorized", "You can only list, inspect or sign files in your own folder")},
			{name: "info: a missing file", method: http.MethodGet, url: info + u.ID + "/none.png", headers: u.auth(env),
				status: 404, contains: hosted("404", "NoSuchKey", "not_found", "Object not found")},
			{name: "info: another folder", method: http.MethodGet, url: info + other.ID + "/a.png", headers: u.auth(env),
				status: 403, contains: hosted("403", "AccessDenied", "Unauthorized", "You can only list, inspect or sign files")},
			{name: "sign: zero seconds", method: http.MethodPost, url: sign + u.ID + "/a.png", headers: u.auth(env), body: `{"expiresIn": 0}`,
				status: 400, contains: hosted("400", "InvalidRequest", "InvalidRequest", "expiresIn must be a whole number of seconds from 1 to 31536000")},
			{name: "sign: far too long", method: http.MethodPost, url: sign + u.ID + "/a.png", headers: u.auth(env), body: `{"expiresIn": 10000000000000}`,
				status: 400, contains: hosted("400", "InvalidRequest", "InvalidRequest", "expiresIn must be a whole number")},
			{name: "signed URL: no token", method: http.MethodGet, url: sign + u.ID + "/a.png",
				status: 400, contains: hosted("400", "InvalidRequest", "InvalidRequest", "The signed URL has no token")},
			{name: "signed URL: a bad token", method: http.MethodGet, url: sign + u.ID + "/a.png?token=nonsense",
				status: 400, contains: hosted("400", "InvalidJWT", "InvalidJWT", "The signed URL is not valid for this file")},
			// Refused calls leave the file as it was (the remove above named another bucket).
			{name: "info: the file is still there", method: http.MethodGet, url: info + u.ID + "/a.png", headers: u.auth(env),
				status: 200, contains: []string{`"name":"` + u.ID + `/a.png"`}},
		})
	})
}
