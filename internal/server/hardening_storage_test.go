package server

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// eachMediaStore runs fn on both engines, each with media on local disk and
// in S3 (the real gateway, versitygw).
func eachMediaStore(t *testing.T, fn func(t *testing.T, env *testEnv)) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("disk", func(t *testing.T) { fn(t, newTestEnv(t, db, nil)) })
		t.Run("s3", func(t *testing.T) {
			env := newS3Env(t, db)
			fn(t, env)
		})
	})
}

// uploadAnswer is one upload's status and body.
type uploadAnswer struct {
	status int
	body   map[string]any
}

// uploadAll sends the files at once to one path (no x-upsert unless upsert).
func uploadAll(t *testing.T, env *testEnv, u testUser, path string, files [][]byte, upsert bool) []uploadAnswer {
	out := make([]uploadAnswer, len(files))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, ct := multipartBody(t, f, "photo.png", "image/png")
			req, _ := http.NewRequest(http.MethodPost, env.URL+"/storage/v1/object/user-media/"+path, body)
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", "Bearer "+u.Token)
			if upsert {
				req.Header.Set("x-upsert", "true")
			}
			<-start
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			out[i].status = res.StatusCode
			b, _ := io.ReadAll(res.Body)
			out[i].body = map[string]any{}
			if err := json.Unmarshal(b, &out[i].body); err != nil {
				t.Errorf("upload %d answered %d %s", i, res.StatusCode, b)
			}
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// distinctPNGs are n different small PNG images.
func distinctPNGs(t *testing.T, n int) [][]byte {
	files := make([][]byte, n)
	for i := range files {
		img := image.NewNRGBA(image.Rect(0, 0, 4, 3))
		img.Set(1, 1, color.NRGBA{uint8(i), 128, 0, 255})
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		files[i] = b.Bytes()
	}
	return files
}

// Twenty creates of one path at once: exactly one is acknowledged, the
// others are told Duplicate, and what is stored is the one acknowledged.
func TestConcurrentCreatesOfOnePathHaveOneWinner(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "race-"+filepath.Base(t.Name())+"@example.com")
		path := u.ID + "/photos/1700000000-me.png"
		files := distinctPNGs(t, 20)
		answers := uploadAll(t, env, u, path, files, false)
		winner := -1
		for i, a := range answers {
			switch {
			case a.status == http.StatusOK && winner < 0:
				winner = i
			case a.status == http.StatusOK:
				t.Fatalf("uploads %d and %d were both acknowledged (200)", winner, i)
			case a.status != http.StatusConflict || a.body["error"] != "Duplicate":
				t.Fatalf("upload %d: %d %v, want 409 Duplicate", i, a.status, a.body)
			}
		}
		if winner < 0 {
			t.Fatal("no upload was acknowledged")
		}
		res, got := env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
		wantStatus(t, res, http.StatusOK)
		if !bytes.Equal(got, files[winner]) {
			t.Fatal("the stored file is not the acknowledged upload")
		}
		objs, err := env.DB.MediaObjectsOf(t.Context(), u.ID)
		if err != nil || len(objs) != 1 || objs[0].ID != answers[winner].body["Id"] {
			t.Fatalf("records = %+v, %v; want the winner's %v", objs, err, answers[winner].body["Id"])
		}
		// The path stays taken; removing it frees it again.
		wantStatus(t, env.upload(t, u, path, files[0], false), http.StatusConflict)
		wantStatus(t, env.do(t, http.MethodDelete, "/storage/v1/object/user-media", map[string]any{"prefixes": []string{path}}, u.auth(env)), http.StatusOK)
		wantStatus(t, env.upload(t, u, path, files[1], false), http.StatusOK)
	})
}

// The record of an upload cut off by a crash before its file was stored
// holds the path only for a while; then a new upload may take it.
func TestAStaleClaimWithoutAFileDoesNotBlockThePath(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "stale@example.com")
		path := u.ID + "/photos/cut.png"
		key := media.Key(media.Bucket, path)
		if err := env.DB.ClaimMediaObject(t.Context(), store.MediaObject{Key: key, ID: store.NewID(), OwnerID: u.ID, Size: 1, ContentType: "image/png"}); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, env.upload(t, u, path, testPNG(t), false), http.StatusConflict) // could be an upload under way
		if _, err := env.DB.Exec(t.Context(), `UPDATE media_objects SET updated_at = ? WHERE object_key = ?`, store.Now().Add(-time.Hour), key); err != nil {
			t.Fatal(err)
		}
		env.mustUpload(t, u, path, testPNG(t))
	})
}

// Replacing one path from many uploads at once while it is read: every
// read is one upload, whole, with that upload's own type and ETag.
func TestRacingUpsertsAreReadWhole(t *testing.T) {
	eachMediaStore(t, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "upsert-"+filepath.Base(t.Name())+"@example.com")
		path := u.ID + "/photos/me"
		files := [][]byte{testPNG(t), testJPEG(t, 30, 20)}
		types := []string{"image/png", "image/jpeg"}
		etags := make([]string, len(files))
		for i, f := range files { // each alone first: its ETag
			for _, a := range uploadAll(t, env, u, path, [][]byte{f}, true) {
				if a.status != http.StatusOK {
					t.Fatalf("upsert: %d %v", a.status, a.body)
				}
			}
			res, _ := env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
			etags[i] = res.Header.Get("ETag")
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				uploadAll(t, env, u, path, [][]byte{files[i%2], files[(i+1)%2]}, true)
			}
		}()
		defer func() { close(stop); wg.Wait() }() // also when a check below fails
		for range 150 {
			res, err := http.Get(env.URL + "/storage/v1/object/public/user-media/" + path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK {
				continue // a read cut off by a replacement is fine; a mixed one is not
			}
			i := 0
			if !bytes.Equal(got, files[0]) {
				i = 1
				if !bytes.Equal(got, files[1]) {
					t.Fatalf("read %d bytes that are neither upload", len(got))
				}
			}
			if ct, etag := res.Header.Get("Content-Type"), res.Header.Get("ETag"); ct != types[i] || etag != etags[i] {
				t.Fatalf("the bytes of the %s were served as %s with ETag %s (its own is %s)", types[i], ct, etag, etags[i])
			}
		}
	})
}

// Files being written never appear in the public tree, leftovers of an
// earlier version there are never served, and leftovers of interrupted
// uploads are removed at start.
func TestUploadTemporaryFilesStayOutOfThePublicTree(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "tmp@example.com")
		folder := filepath.Join(env.Media.Dir, "user-media", u.ID, "photos")
		done := make(chan struct{})
		seen := make(chan string, 1)
		go func() {
			defer close(seen)
			for {
				select {
				case <-done:
					return
				default:
				}
				entries, _ := os.ReadDir(folder)
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), ".") {
						seen <- e.Name()
						return
					}
				}
			}
		}()
		for i := range 15 {
			env.mustUpload(t, u, u.ID+"/photos/"+string(rune('a'+i))+".png", testPNG(t))
		}
		close(done)
		if name, ok := <-seen; ok {
			t.Fatalf("a file being written, %s, appeared in the public tree", name)
		}
		// What a crash of an earlier version left in the tree is not served.
		for _, name := range []string{".upload-123456", ".meta-99"} {
			if err := os.WriteFile(filepath.Join(folder, name), testPNG(t), 0o640); err != nil {
				t.Fatal(err)
			}
			res, _ := env.get(t, "/storage/v1/object/public/user-media/"+u.ID+"/photos/"+name, nil)
			if res.StatusCode == http.StatusOK {
				t.Fatalf("the leftover %s is served", name)
			}
		}
		// Leftovers of interrupted uploads go at start; a file still being
		// written (by another process using the folder) stays.
		tmp := filepath.Join(env.Media.Dir, ".tmp")
		old, fresh := filepath.Join(tmp, "upload-old"), filepath.Join(tmp, "upload-fresh")
		for _, p := range []string{old, fresh} {
			if err := os.WriteFile(p, []byte("half a photo"), 0o640); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := media.NewLocal(env.Media.Dir); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(old); !os.IsNotExist(err) {
			t.Fatalf("the leftover of an interrupted upload is still there: %v", err)
		}
		if _, err := os.Stat(fresh); err != nil {
			t.Fatalf("a file still being written was removed: %v", err)
		}
	})
}
