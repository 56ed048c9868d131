package clientip

import (
	"strings"
	"testing"
)

func TestClientIP(t *testing.T) {
	t.Parallel()
	proxies, err := Parse("127.0.0.1, 10.0.0.0/8, 2001:db8:ffff::/48")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		trusted Trusted
		remote  string
		xff     []string
		want    string
	}{
		{"no proxy trusted: the connection", nil, "198.51.100.7:5000", []string{"203.0.113.1"}, "198.51.100.7"},
		{"no header", proxies, "127.0.0.1:5000", nil, "127.0.0.1"},
		{"one proxy", proxies, "127.0.0.1:5000", []string{"198.51.100.7"}, "198.51.100.7"},
		// nginx's $proxy_add_x_forwarded_for and most load balancers
		// append: the forged entries are on the left.
		{"appended to a forged header", proxies, "127.0.0.1:5000", []string{"203.0.113.1, 203.0.113.2, 198.51.100.7"}, "198.51.100.7"},
		{"forged trusted address on the left", proxies, "127.0.0.1:5000", []string{"10.9.9.9, 198.51.100.7"}, "198.51.100.7"},
		{"two proxies", proxies, "127.0.0.1:5000", []string{"203.0.113.1, 198.51.100.7, 10.0.0.5"}, "198.51.100.7"},
		{"two proxies, header in two lines", proxies, "127.0.0.1:5000", []string{"203.0.113.1, 198.51.100.7", "10.0.0.5"}, "198.51.100.7"},
		{"untrusted peer sends the header", proxies, "198.51.100.7:5000", []string{"203.0.113.1"}, "198.51.100.7"},
		{"untrusted peer claims a proxy's address", proxies, "198.51.100.7:5000", []string{"127.0.0.1"}, "198.51.100.7"},
		{"only trusted addresses: the farthest", proxies, "127.0.0.1:5000", []string{"10.0.0.7, 10.0.0.5"}, "10.0.0.7"},
		{"IPv6 client", proxies, "127.0.0.1:5000", []string{"2001:DB8::1"}, "2001:db8::1"},
		{"IPv6 client with a port", proxies, "127.0.0.1:5000", []string{"[2001:db8::1]:443"}, "2001:db8::1"},
		{"IPv6 client in brackets", proxies, "127.0.0.1:5000", []string{"[2001:db8::1]"}, "2001:db8::1"},
		{"IPv6 proxy", proxies, "[2001:db8:ffff::2]:5000", []string{"203.0.113.1, 2001:db8::1"}, "2001:db8::1"},
		{"IPv6 untrusted peer", proxies, "[2001:db8::9]:5000", []string{"203.0.113.1"}, "2001:db8::9"},
		{"IPv4 client with a port", proxies, "127.0.0.1:5000", []string{"198.51.100.7:41234"}, "198.51.100.7"},
		{"IPv4-mapped peer and client", proxies, "[::ffff:127.0.0.1]:5000", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},
		{"zone dropped", proxies, "127.0.0.1:5000", []string{"fe80::1%eth0"}, "fe80::1"},
		{"garbage on the right: the proxy", proxies, "127.0.0.1:5000", []string{"198.51.100.7, not-an-ip"}, "127.0.0.1"},
		{"garbage past the client", proxies, "127.0.0.1:5000", []string{"not-an-ip, 198.51.100.7"}, "198.51.100.7"},
		{"garbage behind a trusted hop", proxies, "127.0.0.1:5000", []string{"unknown, 10.0.0.5"}, "10.0.0.5"},
		{"empty entry", proxies, "127.0.0.1:5000", []string{"198.51.100.7,,"}, "127.0.0.1"},
		{"empty header", proxies, "127.0.0.1:5000", []string{""}, "127.0.0.1"},
		{"spaces", proxies, "127.0.0.1:5000", []string{"  198.51.100.7 ,10.0.0.5  "}, "198.51.100.7"},
		{"huge forged header", proxies, "127.0.0.1:5000", []string{strings.Repeat("203.0.113.1,", 10000) + "198.51.100.7"}, "198.51.100.7"},
		{"peer without a port", proxies, "127.0.0.1", []string{"198.51.100.7"}, "198.51.100.7"},
		{"peer that is no address", proxies, "pipe", []string{"198.51.100.7"}, "pipe"},
		{"private keyword", Private, "192.168.1.2:5000", []string{"203.0.113.1, 198.51.100.7, 172.16.0.3"}, "198.51.100.7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.trusted.ClientIP(c.remote, c.xff); got != c.want {
				t.Fatalf("ClientIP(%q, %q) = %q, want %q", c.remote, c.xff, got, c.want)
			}
		})
	}
}

func TestFromProxy(t *testing.T) {
	t.Parallel()
	proxies, _ := Parse("10.0.0.1")
	for remote, want := range map[string]bool{"10.0.0.1:80": true, "[::ffff:10.0.0.1]:80": true, "10.0.0.2:80": false, "garbage": false, "": false} {
		if got := proxies.FromProxy(remote); got != want {
			t.Errorf("FromProxy(%q) = %v, want %v", remote, got, want)
		}
	}
	if Trusted(nil).FromProxy("127.0.0.1:80") {
		t.Error("an empty list trusts loopback")
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	got, err := Parse(" 127.0.0.1 , 10.1.2.3/8,2001:db8::/32, ::ffff:192.0.2.0/120, private ,")
	if err != nil {
		t.Fatal(err)
	}
	want := "127.0.0.1/32,10.0.0.0/8,2001:db8::/32,192.0.2.0/24," + Private.String()
	if got.String() != want {
		t.Fatalf("Parse = %s, want %s", got, want)
	}
	if got, err := Parse(""); err != nil || len(got) != 0 {
		t.Fatalf("empty list = %v, %v", got, err)
	}
	for _, bad := range []string{"localhost", "10.0.0.0/33", "10.0.0.1/", "fe80::1%eth0", "1.2.3", "10.0.0.0/8 10.0.0.1"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "is not") && !strings.Contains(err.Error(), "zone") {
			t.Errorf("Parse(%q) = %v, want an error naming it", bad, err)
		}
	}
}

// Limits count an IPv4 client by its address and an IPv6 client by its /64.
func TestLimitKey(t *testing.T) {
	t.Parallel()
	for ip, want := range map[string]string{
		"198.51.100.7":            "198.51.100.7",
		"::ffff:198.51.100.7":     "198.51.100.7",
		"2001:db8:1:2::1":         "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:1:2:3": "2001:db8:1:2::/64",
		"2001:DB8:1:2::abcd":      "2001:db8:1:2::/64",
		"fe80::1%eth0":            "fe80::/64",
		"2001:db8:1:3::1":         "2001:db8:1:3::/64",
		"::1":                     "::/64",
		"not an address":          "not an address",
		"":                        "",
	} {
		if got := LimitKey(ip); got != want {
			t.Errorf("LimitKey(%q) = %q, want %q", ip, got, want)
		}
	}
}
