// Package clientip finds the address of the client behind a request that
// came through proxies the operator trusts. Proxies append the address
// they received a request from to X-Forwarded-For, so only the right end
// of the header was written by them; anything to its left may be forged
// by the client. The client is therefore the right-most address in the
// header that is not one of the trusted proxies, as nginx's real-ip module
// (with real_ip_recursive on) and Caddy's trusted_proxies_strict find it.
// A request whose connection does not come from a trusted proxy is taken
// at the connection's word: its X-Forwarded-* headers are not read at all.
package clientip

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// Trusted is the networks of the proxies whose X-Forwarded-* headers are
// believed; empty trusts none.
type Trusted []netip.Prefix

// PrivateKeyword names, in a list given to Parse, the loopback and private
// networks (Private).
const PrivateKeyword = "private"

// Private is loopback and the private networks: where a proxy on the same
// machine or in the same private network connects from.
var Private = Trusted{
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
}

// Parse reads a comma-separated list of addresses and networks, such as
// "127.0.0.1, 10.0.0.0/8, 2001:db8::/32"; the word "private" stands for
// Private. An empty list trusts no proxy.
func Parse(list string) (Trusted, error) {
	var t Trusted
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
			continue
		case strings.EqualFold(item, PrivateKeyword):
			t = append(t, Private...)
		case strings.Contains(item, "/"):
			p, err := netip.ParsePrefix(item)
			if err != nil {
				return nil, fmt.Errorf("%q is not a network such as 10.0.0.0/8", item)
			}
			if p.Addr().Zone() != "" {
				return nil, fmt.Errorf("%q: leave out the zone", item)
			}
			t = append(t, netip.PrefixFrom(p.Addr().Unmap(), unmappedBits(p)).Masked())
		default:
			a, err := netip.ParseAddr(item)
			if err != nil || a.Zone() != "" {
				return nil, fmt.Errorf("%q is not an IP address such as 127.0.0.1", item)
			}
			a = a.Unmap()
			t = append(t, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return t, nil
}

// unmappedBits is p's length for its address without the IPv4-in-IPv6
// prefix (::ffff:10.0.0.0/104 is 10.0.0.0/8).
func unmappedBits(p netip.Prefix) int {
	if p.Addr().Is4In6() {
		return max(p.Bits()-96, 0)
	}
	return p.Bits()
}

// String lists the networks as Parse reads them.
func (t Trusted) String() string {
	parts := make([]string, len(t))
	for i, p := range t {
		parts[i] = p.String()
	}
	return strings.Join(parts, ",")
}

// trusts reports whether a is in one of the networks.
func (t Trusted) trusts(a netip.Addr) bool {
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// FromProxy reports whether the connection (an http.Request's RemoteAddr)
// comes from a trusted proxy, whose X-Forwarded-* headers may be read.
func (t Trusted) FromProxy(remoteAddr string) bool {
	a, ok := peer(remoteAddr)
	return ok && t.trusts(a)
}

// ClientIP is the client's address for a request whose connection comes
// from remoteAddr (an http.Request's RemoteAddr) with the X-Forwarded-For
// header lines forwardedFor (in order, as http.Header.Values gives them).
// When the connection is not from a trusted proxy, it is the connection's
// address. Otherwise the entries are read from the right: the first that
// is not a trusted proxy is the client. An entry that is not an address
// (garbage, "unknown", an empty one) stops the walk, as do the header's
// end: then the client is the last trusted address reached, the one the
// request can be followed back to.
func (t Trusted) ClientIP(remoteAddr string, forwardedFor []string) string {
	a, ok := peer(remoteAddr)
	if !ok {
		return remoteAddr
	}
	if !t.trusts(a) {
		return a.String()
	}
	for i := len(forwardedFor) - 1; i >= 0; i-- {
		rest := forwardedFor[i]
		for last := false; !last; {
			entry := rest
			if j := strings.LastIndexByte(rest, ','); j >= 0 {
				entry, rest = rest[j+1:], rest[:j]
			} else {
				last = true
			}
			hop, ok := parseHop(entry)
			if !ok {
				return a.String()
			}
			a = hop
			if !t.trusts(a) {
				return a.String()
			}
		}
	}
	return a.String()
}

// peer is the address of the connection's other end.
func peer(remoteAddr string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// parseHop reads one X-Forwarded-For entry: an address, bracketed or not,
// with or without a port ("203.0.113.7", "203.0.113.7:41234",
// "2001:db8::1", "[2001:db8::1]:443").
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		if a, err := netip.ParseAddr(s[1 : len(s)-1]); err == nil {
			return a.Unmap().WithZone(""), true
		}
	}
	return netip.Addr{}, false
}

// LimitKey is the key a per-address limit counts ip under: an IPv4 address
// as it is, an IPv4 address written as IPv6 (::ffff:203.0.113.7) as that
// IPv4 address, and any other IPv6 address as its /64 ("2001:db8:1:2::/64"),
// the network one phone or one home is given, inside which it can take a
// new address for every request. Text that is no address is its own key.
// Every per-address limit, and the referral rule's "same device", counts
// by this key (docs/decisions/0223-limits-per-network-and-mailbox.md).
func LimitKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}
