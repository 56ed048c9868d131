package media

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"salaula/internal/media/mediatest"
)

// An S3 service that accepts connections and never answers fails every
// call within the configured timeout (two tries), with an error that says
// what was being done and that S3 did not answer.
func TestHungS3FailsWithinTheTimeout(t *testing.T) {
	t.Parallel()
	st, err := NewS3(mediatest.Hung(t, 300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	limit := 2*300*time.Millisecond + 2*time.Second // two tries, and minio-go's backoff between them
	for _, c := range []struct {
		op   string
		call func(ctx context.Context) error
	}{
		{"stat", func(ctx context.Context) error { _, err := st.Stat(ctx, "user-media/u/a.png"); return err }},
		{"get", func(ctx context.Context) error { _, _, err := st.Open(ctx, "user-media/u/a.png"); return err }},
		{"put", func(ctx context.Context) error {
			_, err := st.Put(ctx, "user-media/u/a.png", bytes.NewReader([]byte("x")), "image/png")
			return err
		}},
		{"delete", func(ctx context.Context) error { return st.Delete(ctx, "user-media/u/a.png") }},
	} {
		start := time.Now()
		err := c.call(context.Background())
		took := time.Since(start)
		if err == nil || !strings.Contains(err.Error(), "S3 "+c.op+" user-media/u/a.png: S3 did not answer within") {
			t.Errorf("%s on a hung S3: %v, want an error naming the call and the timeout", c.op, err)
		}
		if took > limit {
			t.Errorf("%s on a hung S3 took %s, want under %s", c.op, took, limit)
		}
	}
}
