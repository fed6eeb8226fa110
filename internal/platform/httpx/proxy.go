package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"telepath/internal/platform/access"
)

// Proxies says which peers are reverse proxies whose X-Forwarded-* headers
// are believed. Every proxy appends the address it saw to X-Forwarded-For,
// so the client is the right-most address that no trusted proxy wrote; what
// a client puts at the left of the header itself is never taken.
type Proxies struct {
	Hops    int            // this many proxies always stand in front, whatever their address
	Trusted []netip.Prefix // or: peers in these ranges are proxies
}

// ParseProxies reads the operator's setting: hops is a count ("1", also
// "true"), trusted a comma-separated list of addresses and CIDR ranges.
func ParseProxies(hops, trusted string) (Proxies, error) {
	var p Proxies
	switch strings.ToLower(strings.TrimSpace(hops)) {
	case "", "0", "false", "no", "off":
	case "true", "yes", "on":
		p.Hops = 1
	default:
		n, err := strconv.Atoi(hops)
		if err != nil || n < 0 || n > 10 {
			return p, fmt.Errorf("TELEPATH_TRUST_PROXY: want the number of proxies in front (1)")
		}
		p.Hops = n
	}
	for part := range strings.SplitSeq(trusted, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		pre, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return p, fmt.Errorf("TELEPATH_TRUSTED_PROXIES: %q is not an address or CIDR range", part)
			}
			a = a.Unmap()
			pre = netip.PrefixFrom(a, a.BitLen())
		}
		p.Trusted = append(p.Trusted, pre.Masked())
	}
	if p.Hops > 0 && len(p.Trusted) > 0 {
		return p, fmt.Errorf("TELEPATH_TRUST_PROXY and TELEPATH_TRUSTED_PROXIES: set one of them")
	}
	return p, nil
}

func (p Proxies) on() bool { return p.Hops > 0 || len(p.Trusted) > 0 }

func (p Proxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, pre := range p.Trusted {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// client returns the caller's address and whether the peer is a trusted
// proxy (whose forwarded headers may then be believed).
func (p Proxies) client(r *http.Request) (string, bool) {
	peer := hostOf(r.RemoteAddr)
	if !p.on() {
		return peer, false
	}
	peerAddr, err := netip.ParseAddr(peer)
	if len(p.Trusted) > 0 && (err != nil || !p.trusts(peerAddr)) {
		return peer, false
	}
	var chain []string // X-Forwarded-For, every header line, left to right
	for _, line := range r.Header.Values("X-Forwarded-For") {
		for part := range strings.SplitSeq(line, ",") {
			chain = append(chain, strings.TrimSpace(part))
		}
	}
	if p.Hops > 0 {
		// The peer is the last of Hops proxies; the one before it wrote the
		// client's address Hops-1 places from the right.
		if i := len(chain) - p.Hops; i >= 0 {
			if a, ok := parseHop(chain[i]); ok {
				return a.String(), true
			}
			return peer, true
		}
		if len(chain) > 0 {
			if a, ok := parseHop(chain[0]); ok {
				return a.String(), true
			}
		}
		return peer, true
	}
	last := peer // the nearest hop known to be real
	for i := len(chain) - 1; i >= 0; i-- {
		a, ok := parseHop(chain[i])
		if !ok {
			return last, true // a trusted proxy never writes this: stop at the proxy
		}
		if !p.trusts(a) {
			return a.String(), true
		}
		last = a.String()
	}
	return last, true
}

// parseHop reads one X-Forwarded-For entry: an address, maybe with a port
// or in brackets.
func parseHop(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}

func hostOf(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	return host
}

// forwarded are the headers a proxy sets about the original request.
var forwarded = []string{"X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port", "Forwarded"}

// ClientIP returns the caller's address, as Wrap found it.
func ClientIP(r *http.Request) string {
	if m := access.MetaFrom(r.Context()); m.IP != "" {
		return m.IP
	}
	return hostOf(r.RemoteAddr)
}

// Scheme is "https" when the request came over TLS, to this process or to
// a trusted proxy in front (Wrap drops X-Forwarded-Proto from anyone else).
func Scheme(r *http.Request) string {
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		return "https"
	}
	return "http"
}
