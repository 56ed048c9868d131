package server

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// decodeList reads a JSON array answer.
func decodeList(t *testing.T, res *http.Response) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("answer is not a JSON array: %v", err)
	}
	return out
}

func TestStorageAnswersRowsAsSupabaseStorage(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "rows-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		path := u.ID + "/photos/front.png"
		up := env.upload(t, u, path, testPNG(t), false)
		wantStatus(t, up, http.StatusOK)
		id := decode(t, up)["Id"].(string)

		// info: the upload's id, a version, the times.
		res := env.do(t, http.MethodGet, "/storage/v1/object/info/user-media/"+path, nil, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		info := decode(t, res)
		if info["id"] != id || info["version"] == nil || info["version"] == "" || info["created_at"] == nil {
			t.Fatalf("info = %v, want id %s and a version", info, id)
		}

		// HEAD as GET without the body: the owner's authenticated read and the public read.
		for _, p := range []string{"/storage/v1/object/user-media/" + path, "/storage/v1/object/authenticated/user-media/" + path, "/storage/v1/object/public/user-media/" + path} {
			res := env.do(t, http.MethodHead, p, nil, u.auth(env))
			wantStatus(t, res, http.StatusOK)
			if res.Header.Get("Content-Type") != "image/png" || res.Header.Get("ETag") == "" {
				t.Fatalf("HEAD %s headers = %v", p, res.Header)
			}
			if b, _ := io.ReadAll(res.Body); len(b) != 0 {
				t.Fatalf("HEAD %s sent %d bytes of body", p, len(b))
			}
		}
		res, got := env.get(t, "/storage/v1/object/user-media/"+path, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		if len(got) == 0 {
			t.Fatal("the owner's download is empty")
		}
		wantStatus(t, env.do(t, http.MethodHead, "/storage/v1/object/user-media/"+u.ID+"/photos/none.png", nil, u.auth(env)), http.StatusNotFound)
		wantStatus(t, env.do(t, http.MethodGet, "/storage/v1/object/user-media/"+path, nil, nil), http.StatusUnauthorized)
		stranger := newUser(t, env, "stranger-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		wantStatus(t, env.do(t, http.MethodGet, "/storage/v1/object/user-media/"+path, nil, stranger.auth(env)), http.StatusForbidden)

		// remove answers the deleted objects' rows.
		res = env.do(t, http.MethodDelete, "/storage/v1/object/user-media", map[string]any{"prefixes": []string{path, u.ID + "/photos/none.png"}}, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		rows := decodeList(t, res)
		if len(rows) != 1 || rows[0]["id"] != id || rows[0]["name"] != path || rows[0]["bucket_id"] != "user-media" ||
			rows[0]["version"] == nil || rows[0]["created_at"] == nil || rows[0]["updated_at"] == nil ||
			rows[0]["last_accessed_at"] == nil || rows[0]["metadata"] == nil {
			t.Fatalf("remove answered %v", rows)
		}
	})
}

func TestStorageKeepsUploadMetadata(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "meta-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		headers := func(meta string) map[string]string {
			h := u.auth(env)
			h["Content-Type"] = "image/png"
			if meta != "" {
				h["x-metadata"] = meta
			}
			return h
		}
		infoOf := func(path string) map[string]any {
			res := env.do(t, http.MethodGet, "/storage/v1/object/info/user-media/"+path, nil, u.auth(env))
			wantStatus(t, res, http.StatusOK)
			return decode(t, res)
		}
		// A raw body carries it as x-metadata, base64 of the JSON.
		raw := u.ID + "/raw.png"
		meta := base64.StdEncoding.EncodeToString([]byte(`{"side":"front","order":2}`))
		wantStatus(t, env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+raw, testPNG(t), headers(meta)), http.StatusOK)
		if got, _ := json.Marshal(infoOf(raw)["metadata"]); string(got) != `{"order":2,"side":"front"}` {
			t.Fatalf("info metadata = %s", got)
		}
		// A form carries it as its metadata field.
		form := u.ID + "/form.png"
		body, ct := multipartBodyWith(t, map[string]string{"metadata": `{"caption":"Chitenge"}`}, testPNG(t))
		h := u.auth(env)
		h["Content-Type"] = ct
		wantStatus(t, env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+form, body, h), http.StatusOK)
		if infoOf(form)["metadata"].(map[string]any)["caption"] != "Chitenge" {
			t.Fatalf("form metadata lost: %v", infoOf(form))
		}
		// Bad metadata is refused with its reason and stores nothing.
		for why, m := range map[string]string{
			"not base64":    "%%%",
			"not an object": base64.StdEncoding.EncodeToString([]byte(`["a"]`)),
			"too large":     base64.StdEncoding.EncodeToString([]byte(`{"a":"` + strings.Repeat("x", 1100) + `"}`)),
			"a NUL":         base64.StdEncoding.EncodeToString([]byte(`{"a":"x\u0000y"}`)),
		} {
			bad := u.ID + "/bad.png"
			res := env.do(t, http.MethodPost, "/storage/v1/object/user-media/"+bad, testPNG(t), headers(m))
			wantStatus(t, res, http.StatusBadRequest)
			if msg, _ := decode(t, res)["message"].(string); !strings.Contains(msg, "metadata") {
				t.Fatalf("%s: message %q does not name the metadata", why, msg)
			}
			wantStatus(t, env.do(t, http.MethodGet, "/storage/v1/object/info/user-media/"+bad, nil, u.auth(env)), http.StatusNotFound)
		}
	})
}

func TestStorageSignsSeveralAndNamesWhatItDoesNotOffer(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "many-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		a, b := u.ID+"/a.png", u.ID+"/b.png"
		env.mustUpload(t, u, a, testPNG(t))
		env.mustUpload(t, u, b, testPNG(t))
		other := newUser(t, env, "other-"+strings.ReplaceAll(t.Name(), "/", "-")+"@example.com")
		theirs := other.ID + "/c.png"
		env.mustUpload(t, other, theirs, testPNG(t))

		res := env.do(t, http.MethodPost, "/storage/v1/object/sign/user-media",
			map[string]any{"expiresIn": 60, "paths": []string{a, b, u.ID + "/none.png", theirs}}, u.auth(env))
		wantStatus(t, res, http.StatusOK)
		out := decodeList(t, res)
		if len(out) != 4 {
			t.Fatalf("signed %d, want 4: %v", len(out), out)
		}
		for i, o := range out[:2] {
			url, _ := o["signedURL"].(string)
			if o["error"] != nil || !strings.HasPrefix(url, "/object/sign/user-media/") {
				t.Fatalf("path %d: %v", i, o)
			}
			wantStatus(t, env.do(t, http.MethodGet, "/storage/v1"+url, nil, nil), http.StatusOK)
		}
		for _, o := range out[2:] {
			if o["signedURL"] != nil || o["error"] != "Either the object does not exist or you do not have access to it" {
				t.Fatalf("a path without access: %v", o)
			}
		}
		for body, want := range map[string]string{`{"expiresIn": 0, "paths": ["x"]}`: "expiresIn", `{"expiresIn": 60, "paths": []}`: "paths",
			`{"expiresIn": 60}`: "paths", `{"expiresIn": 60, "paths": "a"}`: ""} {
			res := env.do(t, http.MethodPost, "/storage/v1/object/sign/user-media", body, u.auth(env))
			wantStatus(t, res, http.StatusBadRequest)
			if msg, _ := decode(t, res)["message"].(string); !strings.Contains(msg, want) {
				t.Fatalf("%s answered %q", body, msg)
			}
		}

		// What is not offered says so, not "Bucket not found".
		for _, c := range []struct{ method, path, what string }{
			{http.MethodPost, "/storage/v1/object/upload/sign/user-media/" + a, "signed URL"},
			{http.MethodPost, "/storage/v1/object/list-v2/user-media", "list-v2"},
			{http.MethodPost, "/storage/v1/object/move", "Moving"},
			{http.MethodPost, "/storage/v1/object/copy", "Copying"},
		} {
			res := env.do(t, c.method, c.path, `{}`, u.auth(env))
			wantStatus(t, res, http.StatusNotImplemented)
			body := decode(t, res)
			if body["code"] != "NotSupported" || !strings.Contains(body["message"].(string), c.what) {
				t.Fatalf("%s %s answered %v", c.method, c.path, body)
			}
		}
	})
}
