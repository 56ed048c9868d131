package media

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"salaula/internal/config"
	"salaula/internal/media/mediatest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	mediatest.StopShared()
	os.Exit(code)
}

// newS3Store returns an S3 store on a fresh bucket of the real test gateway,
// reached through a proxy that counts the GETs asking for a byte range.
func newS3Store(t *testing.T) (*S3, *atomic.Int64) {
	cfg := mediatest.NewS3(t)
	target, err := url.Parse(cfg.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var ranged atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Range") != "" {
			ranged.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg.Endpoint = srv.URL
	s, err := Open(cfg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s.(*S3), &ranged
}

// testStoreContract checks what the server relies on from any Store.
func testStoreContract(t *testing.T, s Store) {
	ctx := context.Background()
	key := "user-media/u1/photos/1700000000-a.png"
	if _, err := s.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Stat of a missing object: %v", err)
	}
	if _, _, err := s.Open(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Open of a missing object: %v", err)
	}
	body := []byte("0123456789abcdef")
	obj, err := s.Put(ctx, key, bytes.NewReader(body), "image/png")
	if err != nil {
		t.Fatal(err)
	}
	if obj.Size != 16 || obj.ETag == "" || !strings.HasPrefix(obj.ETag, `"`) {
		t.Fatalf("Put = %+v", obj)
	}
	st, err := s.Stat(ctx, key)
	if err != nil || st.Size != 16 || st.ContentType != "image/png" || st.ETag != obj.ETag {
		t.Fatalf("Stat = %+v, %v", st, err)
	}
	rc, got, err := s.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if got.ContentType != "image/png" {
		t.Fatalf("Open meta = %+v", got)
	}
	if _, err := rc.Seek(10, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	part := make([]byte, 3)
	if _, err := io.ReadFull(rc, part); err != nil || string(part) != "abc" {
		t.Fatalf("read after seek = %q, %v", part, err)
	}
	if end, err := rc.Seek(0, io.SeekEnd); err != nil || end != 16 {
		t.Fatalf("seek end = %d, %v", end, err)
	}
	rc.Close()
	// Replacing changes the content and ETag.
	if _, err := s.Put(ctx, key, strings.NewReader("new"), "image/webp"); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stat(ctx, key); st.Size != 3 || st.ContentType != "image/webp" || st.ETag == obj.ETag {
		t.Fatalf("after replace: %+v", st)
	}
	for _, bad := range []string{"user-media/../x", "user-media/u1//x", "", "user-media/x.meta"} {
		if _, err := s.Put(ctx, bad, strings.NewReader("x"), "image/png"); err == nil {
			t.Errorf("Put(%q) accepted", bad)
		}
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Stat after delete: %v", err)
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatalf("second delete: %v", err)
	}
}

func TestLocalStore(t *testing.T) {
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testStoreContract(t, l)
}

func TestS3Store(t *testing.T) {
	s, ranged := newS3Store(t)
	testStoreContract(t, s)
	if ranged.Load() == 0 {
		t.Error("reading after a seek did not ask S3 for a range")
	}
}

func TestOpenRefusesIncompleteS3Settings(t *testing.T) {
	for _, c := range []config.S3Config{
		{Bucket: "b", Region: "us-east-1"},
		{Bucket: "b", Endpoint: "ftp://x", AccessKey: "a", SecretKey: "s"},
		{Bucket: "b", Endpoint: "http://host/path", AccessKey: "a", SecretKey: "s"},
	} {
		if _, err := Open(c, t.TempDir()); err == nil {
			t.Errorf("Open(%+v) accepted", c)
		}
	}
}
