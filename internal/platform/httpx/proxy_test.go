package httpx

import (
	"net/http/httptest"
	"testing"
)

func TestProxiesClient(t *testing.T) {
	hop1, _ := ParseProxies("1", "")
	hop2, _ := ParseProxies("2", "")
	cidr, _ := ParseProxies("", "10.0.0.0/8, 127.0.0.1,::1")
	for _, c := range []struct {
		name   string
		p      Proxies
		peer   string
		xff    []string
		want   string
		trusts bool
	}{
		{"NoProxyIgnoresHeader", Proxies{}, "192.0.2.1:5000", []string{"6.6.6.6"}, "192.0.2.1", false},
		{"OneHop", hop1, "127.0.0.1:1", []string{"6.6.6.6, 203.0.113.7"}, "203.0.113.7", true},
		{"OneHopTwoLines", hop1, "127.0.0.1:1", []string{"6.6.6.6", "203.0.113.7"}, "203.0.113.7", true},
		{"OneHopNoHeader", hop1, "127.0.0.1:1", nil, "127.0.0.1", true},
		{"TwoHops", hop2, "127.0.0.1:1", []string{"6.6.6.6, 203.0.113.7, 10.1.1.1"}, "203.0.113.7", true},
		{"HopGarbage", hop1, "127.0.0.1:1", []string{"6.6.6.6, nonsense"}, "127.0.0.1", true},
		{"CIDRSkipsTrusted", cidr, "127.0.0.1:1", []string{"6.6.6.6, 203.0.113.7, 10.2.3.4"}, "203.0.113.7", true},
		{"CIDRUntrustedPeer", cidr, "192.0.2.9:1", []string{"6.6.6.6"}, "192.0.2.9", false},
		{"CIDRAllTrusted", cidr, "127.0.0.1:1", []string{"10.0.0.5, 10.0.0.6"}, "10.0.0.5", true},
		{"CIDRGarbageStopsAtProxy", cidr, "127.0.0.1:1", []string{"6.6.6.6, x, 10.0.0.6"}, "10.0.0.6", true},
		{"CIDRPortAndIPv6", cidr, "[::1]:1", []string{"[2001:db8::1]:443"}, "2001:db8::1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.peer
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			got, trusts := c.p.client(r)
			if got != c.want || trusts != c.trusts {
				t.Fatalf("client %q %v, want %q %v", got, trusts, c.want, c.trusts)
			}
		})
	}
	for _, bad := range [][2]string{{"many", ""}, {"", "10.0.0.0/33"}, {"", "host.example"}, {"1", "10.0.0.0/8"}} {
		if _, err := ParseProxies(bad[0], bad[1]); err == nil {
			t.Errorf("ParseProxies(%q, %q) accepted", bad[0], bad[1])
		}
	}
}
