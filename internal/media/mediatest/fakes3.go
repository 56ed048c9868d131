// Package mediatest holds test doubles for the media stores.
package mediatest

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/hex"
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

// AccessKey is the only access key FakeS3 accepts.
const AccessKey = "test-access"

// FakeS3 is a small in-memory S3 service for tests: path-style PUT, GET (with
// ranges), HEAD and DELETE of objects in one bucket. It checks that every
// request is signed with AWS Signature V4.
type FakeS3 struct {
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

func (f *FakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential="+AccessKey+"/") {
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

// Ranged returns how many GETs asked for a byte range.
func (f *FakeS3) Ranged() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ranged
}

// Len returns how many objects are stored.
func (f *FakeS3) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.objects)
}

// NewFakeS3 starts a fake S3 service for the test and returns it with the
// settings that point an S3 store at it.
func NewFakeS3(t *testing.T) (*FakeS3, config.S3Config) {
	f := &FakeS3{bucket: "salaula-media", objects: map[string]fakeObject{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, config.S3Config{Endpoint: srv.URL, Region: "us-east-1", Bucket: f.bucket,
		AccessKey: AccessKey, SecretKey: "test-secret", UsePathStyle: true}
}
