package config

import (
	"io"
	"testing"
	"time"
)

func TestRefreshReuseInterval(t *testing.T) {
	t.Parallel()
	parse := func(v string) (*Config, error) {
		return Parse("serve", nil, func(k string) string {
			if k == "SALAULA_REFRESH_REUSE_INTERVAL" {
				return v
			}
			return ""
		}, io.Discard)
	}
	for v, want := range map[string]time.Duration{"": 10 * time.Second, "0s": 0, "0": 0, "30s": 30 * time.Second} {
		c, err := parse(v)
		if err != nil || c.RefreshReuseInterval != want {
			t.Errorf("%q: %v, %v; want %v", v, c.RefreshReuseInterval, err, want)
		}
	}
	for _, v := range []string{"-1s", "soon", "10"} {
		if _, err := parse(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}
