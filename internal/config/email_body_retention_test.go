package config

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestEmailBodyRetention(t *testing.T) {
	t.Parallel()
	parse := func(v string) (*Config, error) {
		return Parse("serve", nil, func(k string) string {
			if k == "SALAULA_EMAIL_BODY_RETENTION" {
				return v
			}
			return ""
		}, io.Discard)
	}
	for v, want := range map[string]time.Duration{"": 7 * 24 * time.Hour, "0": 0, "0d": 0, "30d": 30 * 24 * time.Hour, "48h": 48 * time.Hour} {
		c, err := parse(v)
		if err != nil || c.EmailBodyRetention != want {
			t.Errorf("%q: %v, %v; want %v", v, c.EmailBodyRetention, err, want)
		}
	}
	for _, v := range []string{"-1h", "-2d", "a week", "7", "1.5d", "99999d"} {
		if _, err := parse(v); err == nil || !strings.Contains(err.Error(), "SALAULA_EMAIL_BODY_RETENTION") {
			t.Errorf("%q: %v, want an error naming the setting", v, err)
		}
	}
}

func TestEmailRetention(t *testing.T) {
	t.Parallel()
	parse := func(v string) (*Config, error) {
		return Parse("serve", nil, func(k string) string {
			if k == "SALAULA_EMAIL_RETENTION" {
				return v
			}
			return ""
		}, io.Discard)
	}
	for v, want := range map[string]time.Duration{"": 30 * 24 * time.Hour, "7d": 7 * 24 * time.Hour, "1h": time.Hour, "90d": 90 * 24 * time.Hour} {
		c, err := parse(v)
		if err != nil || c.EmailRetention != want {
			t.Errorf("%q: %v, %v; want %v", v, c.EmailRetention, err, want)
		}
	}
	for _, v := range []string{"0", "0d", "59m", "-1d", "a month", "30", "99999d"} {
		if _, err := parse(v); err == nil || !strings.Contains(err.Error(), "SALAULA_EMAIL_RETENTION") {
			t.Errorf("%q: %v, want an error naming the setting", v, err)
		}
	}
}
