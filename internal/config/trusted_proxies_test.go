package config

import (
	"io"
	"strings"
	"testing"

	"salaula/internal/clientip"
)

func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	parse := func(env map[string]string) (*Config, error) {
		return Parse("serve", nil, func(k string) string { return env[k] }, io.Discard)
	}
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, ""},
		{map[string]string{"SALAULA_TRUST_PROXY": "false"}, ""},
		{map[string]string{"SALAULA_TRUST_PROXY": "true"}, clientip.Private.String()},
		{map[string]string{"SALAULA_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}, "127.0.0.1/32,10.0.0.0/8"},
		{map[string]string{"SALAULA_TRUSTED_PROXIES": "private"}, clientip.Private.String()},
		{map[string]string{"SALAULA_TRUSTED_PROXIES": "10.0.0.1", "SALAULA_TRUST_PROXY": "false"}, "10.0.0.1/32"},
	} {
		cfg, err := parse(c.env)
		if err != nil || cfg.TrustedProxies.String() != c.want {
			t.Errorf("%v: %v, %v; want %q", c.env, cfg.TrustedProxies, err, c.want)
		}
	}
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SALAULA_TRUSTED_PROXIES": "lb.example.com"}, `SALAULA_TRUSTED_PROXIES: "lb.example.com" is not an IP address`},
		{map[string]string{"SALAULA_TRUSTED_PROXIES": "10.0.0.0/40"}, `SALAULA_TRUSTED_PROXIES: "10.0.0.0/40" is not a network`},
		{map[string]string{"SALAULA_TRUSTED_PROXIES": "10.0.0.1", "SALAULA_TRUST_PROXY": "true"}, "keep only SALAULA_TRUSTED_PROXIES"},
		{map[string]string{"SALAULA_TRUST_PROXY": "yes please"}, "SALAULA_TRUST_PROXY"},
	} {
		if _, err := parse(c.env); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.env, err, c.want)
		}
	}
}
