// Package mediatest runs a real S3 service for tests: Versity's S3 gateway
// (versitygw, installed into bin/tools by `make tools`) over a temporary
// folder. One gateway serves a whole test binary; each test gets its own bucket.
package mediatest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"salaula/internal/config"
	"salaula/internal/testproc"
)

// The credentials the test gateway accepts.
const (
	AccessKey = "salaula-test-access"
	SecretKey = "salaula-test-secret-key"
)

// Gateway is a running versitygw.
type Gateway struct {
	Endpoint string // http://127.0.0.1:PORT
	Dir      string // the folder it keeps buckets in (one sub-folder per bucket)
	proc     *testproc.Proc
}

var shared testproc.Once[*Gateway]

// StartGateway starts versitygw on a free port over a new temporary folder.
func StartGateway() (*Gateway, error) {
	bin, err := testproc.Tool("versitygw")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "salaula-s3-")
	if err != nil {
		return nil, err
	}
	port, err := testproc.FreePort()
	if err != nil {
		return nil, err
	}
	addr := testproc.Addr127(port)
	root := filepath.Join(dir, "buckets")
	if err := os.Mkdir(root, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--access", AccessKey, "--secret", SecretKey, "--port", addr, "posix", root)
	p, err := testproc.Start(cmd, addr, filepath.Join(dir, "versitygw.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Gateway{Endpoint: "http://" + addr, Dir: root, proc: p}, nil
}

// Stop ends the gateway and removes its folder.
func (g *Gateway) Stop() {
	if g == nil {
		return
	}
	g.proc.Stop()
	os.RemoveAll(filepath.Dir(g.Dir))
}

// Shared returns the test binary's gateway, starting it on first use. Call
// StopShared from TestMain after m.Run. Under `go test -short` it skips
// the test instead.
func Shared(t testing.TB) *Gateway {
	t.Helper()
	testproc.SkipShort(t, "S3 (versitygw)")
	v, err := shared.Get(StartGateway)
	if err != nil {
		t.Fatalf("real S3 for tests: %v", err)
	}
	return v
}

// StopShared stops the gateway Shared started, if any.
func StopShared() {
	if v, ok := shared.Started(); ok {
		v.Stop()
	}
}

// Config returns S3 settings for a bucket on this gateway.
func (g *Gateway) Config(bucket string) config.S3Config {
	return config.S3Config{Endpoint: g.Endpoint, Region: "us-east-1", Bucket: bucket,
		AccessKey: AccessKey, SecretKey: SecretKey, UsePathStyle: true}
}

// Client returns an S3 client of the gateway, to look at what it holds.
func (g *Gateway) Client() (*minio.Client, error) {
	return minio.New(g.Endpoint[len("http://"):], &minio.Options{
		Creds: credentials.NewStaticV4(AccessKey, SecretKey, ""), Region: "us-east-1", BucketLookup: minio.BucketLookupPath})
}

// NewBucket creates a bucket with a random name and returns its name.
func (g *Gateway) NewBucket() (string, error) {
	raw := make([]byte, 5)
	rand.Read(raw)
	name := "salaula-test-" + hex.EncodeToString(raw)
	c, err := g.Client()
	if err != nil {
		return "", err
	}
	if err := c.MakeBucket(context.Background(), name, minio.MakeBucketOptions{Region: "us-east-1"}); err != nil {
		return "", fmt.Errorf("create bucket %s: %w", name, err)
	}
	return name, nil
}

// NewS3 returns settings for a fresh bucket on the test binary's shared gateway.
func NewS3(t testing.TB) config.S3Config {
	t.Helper()
	g := Shared(t)
	b, err := g.NewBucket()
	if err != nil {
		t.Fatal(err)
	}
	return g.Config(b)
}

// Keys lists every object key in the bucket of cfg.
func Keys(t testing.TB, cfg config.S3Config) []string {
	t.Helper()
	c, err := Shared(t).Client()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for o := range c.ListObjects(context.Background(), cfg.Bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			t.Fatalf("list %s: %v", cfg.Bucket, o.Err)
		}
		keys = append(keys, o.Key)
	}
	return keys
}

// Hung starts a listener that accepts connections and never answers (an
// S3 service that hangs) for the rest of the test, and returns settings
// for it with the given request timeout.
func Hung(t testing.TB, timeout time.Duration) config.S3Config {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	return config.S3Config{Endpoint: "http://" + ln.Addr().String(), Region: "us-east-1", Bucket: "hung",
		AccessKey: "a", SecretKey: "b", UsePathStyle: true, Timeout: timeout}
}
