package httpx

import (
	"net/http"
	"strings"
)

// contentSecurityPolicy lets pages of this origin run only this origin's
// scripts (none inline), talk only to this origin, and be framed by no one:
// a script that got in cannot read the token out of storage and send it
// elsewhere. Styles may be inline: antd writes its CSS-in-JS at run time.
// 'wasm-unsafe-eval' compiles WebAssembly only (the uploads' SHA-256 in a
// worker), never a string as script.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// permissionsPolicy turns off the browser features the app never uses;
// the slide viewer goes full screen.
const permissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), midi=(), fullscreen=(self)"

// securityHeaders sets the headers every response carries. API responses
// are not stored by the browser or a proxy unless their handler says so
// (immutable slide tiles, attachments kept privately): they carry patient data.
func securityHeaders(h http.Header, path string) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Permissions-Policy", permissionsPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	if strings.HasPrefix(path, "/api/") {
		h.Set("Cache-Control", "no-store")
	}
}
