package media

import (
	"bufio"
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/config"
)

// fakeS3 is a small in-memory S3 service: path-style PUT, GET (with
// ranges), HEAD and DELETE of objects in one bucket. It checks that every
// request is signed with AWS Signature V4.
type fakeS3 struct {
	mu      sync.Mutex
	bucket  string
	objects map[string]fakeObject
	ranged  int // GETs with a Range header
}

type fakeObject struct {
	body []byte
	ct   string
	mod  time.Time
}

// decodeAWSChunked reads a body sent with aws-chunked encoding.
func decodeAWSChunked(r io.Reader) ([]byte, error) {
	br := bufio.NewReader(r)
	var out []byte
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		sizeHex, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(sizeHex, 16, 64)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return out, nil
		}
		chunk := make([]byte, n+2)
		if _, err := io.ReadFull(br, chunk); err != nil {
			return nil, err
		}
		out = append(out, chunk[:n]...)
	}
}

func (f *fakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=test-access/") {
		http.Error(w, "<Error><Code>AccessDenied</Code></Error>", http.StatusForbidden)
		return
	}
	key, ok := strings.CutPrefix(r.URL.Path, "/"+f.bucket+"/")
	if !ok || key == "" {
		http.Error(w, "<Error><Code>NoSuchBucket</Code></Error>", http.StatusNotFound)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch r.Method {
	case http.MethodPut:
		var body []byte
		var err error
		if strings.HasPrefix(r.Header.Get("X-Amz-Content-Sha256"), "STREAMING-") {
			body, err = decodeAWSChunked(r.Body)
		} else {
			body, err = io.ReadAll(r.Body)
		}
		if err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		f.objects[key] = fakeObject{body: body, ct: r.Header.Get("Content-Type"), mod: time.Now().UTC().Truncate(time.Second)}
		sum := md5.Sum(body)
		w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:])+`"`)
	case http.MethodGet, http.MethodHead:
		o, ok := f.objects[key]
		if !ok {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusNotFound)
			if r.Method == http.MethodGet {
				io.WriteString(w, "<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>")
			}
			return
		}
		if r.Header.Get("Range") != "" {
			f.ranged++
		}
		sum := md5.Sum(o.body)
		w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:])+`"`)
		w.Header().Set("Content-Type", o.ct)
		http.ServeContent(w, r, "", o.mod, bytes.NewReader(o.body))
	case http.MethodDelete:
		delete(f.objects, key)
		w.WriteHeader(http.StatusNoContent)
	default:
		http.Error(w, "unsupported", http.StatusMethodNotAllowed)
	}
}

// newFakeS3Store returns an S3 store talking to a fresh fake service.
func newFakeS3Store(t *testing.T) (*S3, *fakeS3) {
	fake := &fakeS3{bucket: "salaula-media", objects: map[string]fakeObject{}}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	s, err := Open(config.S3Config{Endpoint: srv.URL, Region: "us-east-1", Bucket: "salaula-media",
		AccessKey: "test-access", SecretKey: "test-secret", UsePathStyle: true}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s.(*S3), fake
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
	s, fake := newFakeS3Store(t)
	testStoreContract(t, s)
	if fake.ranged == 0 {
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
