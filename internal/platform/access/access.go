// Package access defines the roles, the signed-in principal carried in the
// request context, and the data-scope questions every domain asks of it.
package access

import (
	"context"
	"slices"
)

// Role names, as in spec 1 §6 and spec 2 §6.
const (
	Admin       = "admin"
	CenterAdmin = "center_admin"
	Site        = "site"
	Allocator   = "allocator"
	Expert      = "expert"
	QCExpert    = "qc_expert"
	Staff       = "staff"
	Publisher   = "publisher"
	Third       = "third"
	Clinical    = "clinical"
	Uploader    = "uploader"
	Root        = "root"
)

// Roles lists every role in menu order.
var Roles = []string{Admin, CenterAdmin, Site, Allocator, Expert, QCExpert, Staff, Publisher, Third, Clinical, Uploader, Root}

// IsRole reports whether name is a known role.
func IsRole(name string) bool { return slices.Contains(Roles, name) }

// Principal is the signed-in user of a request.
type Principal struct {
	UserID      int64
	SessionID   int64
	Username    string
	Name        string
	Roles       []string
	CenterIDs   []int64
	HospitalIDs []int64
}

// Has reports whether p holds role (root holds every role).
func (p *Principal) Has(role string) bool {
	return p != nil && (slices.Contains(p.Roles, role) || slices.Contains(p.Roles, Root))
}

// HasAny reports whether p holds one of roles; "*" matches any signed-in user.
func (p *Principal) HasAny(roles []string) bool {
	if p == nil {
		return false
	}
	for _, r := range roles {
		if r == "*" || p.Has(r) {
			return true
		}
	}
	return false
}

// IsAdmin reports whether p administers everything.
func (p *Principal) IsAdmin() bool { return p.Has(Admin) }

// PrimaryRole is the role named in audit records.
func (p *Principal) PrimaryRole() string {
	if p == nil || len(p.Roles) == 0 {
		return ""
	}
	return p.Roles[0]
}

type ctxKey int

const (
	principalKey ctxKey = iota
	metaKey
	allowKey
)

// Restriction is a state of a session in which it answers only a few routes.
type Restriction uint8

const (
	// ScreenLocked: the user locked the screen; only unlocking and signing out answer.
	ScreenLocked Restriction = 1 << iota
	// PasswordChange: an administrator set the password; the user must choose a new one first.
	PasswordChange
)

// WithAllowed returns ctx telling the authenticator which restricted
// sessions the route being called accepts. Without it a restricted session
// is refused: every other caller of the authenticator (tiles, uploads) is
// closed to it by default.
func WithAllowed(ctx context.Context, r Restriction) context.Context {
	return context.WithValue(ctx, allowKey, r)
}

// Allowed reports whether the call of ctx accepts sessions restricted by r.
func Allowed(ctx context.Context, r Restriction) bool {
	a, _ := ctx.Value(allowKey).(Restriction)
	return a&r == r
}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// FromContext returns the principal of ctx, or nil.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey).(*Principal)
	return p
}

// Meta is what is known of a request's origin, for audit records.
type Meta struct {
	IP        string
	UserAgent string
	RequestID string
}

// WithMeta returns ctx carrying m.
func WithMeta(ctx context.Context, m Meta) context.Context {
	return context.WithValue(ctx, metaKey, m)
}

// MetaFrom returns the request meta of ctx.
func MetaFrom(ctx context.Context) Meta {
	m, _ := ctx.Value(metaKey).(Meta)
	return m
}

// SortRoles orders roles as in Roles, so the first is the primary one.
func SortRoles(roles []string) {
	slices.SortFunc(roles, func(a, b string) int { return slices.Index(Roles, a) - slices.Index(Roles, b) })
}
