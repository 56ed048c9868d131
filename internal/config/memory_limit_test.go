package config

import (
	"io"
	"strings"
	"testing"

	"salaula/internal/password"
)

func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	parse := func(env map[string]string) (*Config, error) {
		return Parse("serve", nil, func(k string) string { return env[k] }, io.Discard)
	}
	for _, tc := range []struct {
		env  map[string]string
		want int64
	}{
		{nil, password.MemoryBudget()},
		{map[string]string{"SALAULA_MEMORY_LIMIT": "96"}, 96 << 20},
		{map[string]string{"SALAULA_MEMORY_LIMIT": "0"}, 0},
		{map[string]string{"GOMEMLIMIT": "200MiB"}, 0},
		{map[string]string{"GOMEMLIMIT": "200MiB", "SALAULA_MEMORY_LIMIT": "80"}, 80 << 20},
	} {
		c, err := parse(tc.env)
		if err != nil || c.MemoryLimit != tc.want {
			t.Errorf("%v: %v, %v; want %d", tc.env, c.MemoryLimit, err, tc.want)
		}
	}
	for _, v := range []string{"-1", "96MiB", "lots", "1.5"} {
		if _, err := parse(map[string]string{"SALAULA_MEMORY_LIMIT": v}); err == nil || !strings.Contains(err.Error(), "SALAULA_MEMORY_LIMIT") {
			t.Errorf("%q: %v, want an error naming the setting", v, err)
		}
	}
}
