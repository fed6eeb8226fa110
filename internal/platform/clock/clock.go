// Package clock is the time of domain code: the current instant and the
// operator's time zone (TELEPATH_TIMEZONE, default Asia/Shanghai). The
// application builds one Clock from its configuration and gives it to every
// service; tests give a fixed one. The zero Clock reads the system time in
// the default zone.
package clock

import (
	"context"
	"sync"
	"time"
	_ "time/tzdata" // the single binary knows every zone, whatever the host has
)

// DefaultZone is the time zone of dates without one when the operator
// names none: the product serves hospitals in China.
const DefaultZone = "Asia/Shanghai"

// Clock tells the time.
type Clock struct {
	now  func() time.Time
	zone *time.Location
}

// New returns a clock reading now (nil: the system time) in zone (nil: the default zone).
func New(zone *time.Location, now func() time.Time) Clock {
	return Clock{now: now, zone: zone}
}

// Now is the current instant in UTC, as stored.
func (c Clock) Now() time.Time {
	if c.now == nil {
		return time.Now().UTC()
	}
	return c.now().UTC()
}

// Zone is the operator's time zone: dates without a zone are read in it and
// times are shown in it.
func (c Clock) Zone() *time.Location {
	if c.zone == nil {
		return defaultZone()
	}
	return c.zone
}

// Local is t in the operator's time zone.
func (c Clock) Local(t time.Time) time.Time { return t.In(c.Zone()) }

// LoadZone loads the named time zone ("" is DefaultZone). It is the one
// place the application loads a zone.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == DefaultZone {
		return defaultZone(), nil
	}
	return time.LoadLocation(name)
}

var defaultZone = sync.OnceValue(func() *time.Location {
	if l, err := time.LoadLocation(DefaultZone); err == nil {
		return l
	}
	return time.FixedZone("CST", 8*3600) // no tzdata: China has had no DST since 1991
})

type zoneKey struct{}

// WithZone returns ctx carrying the operator's time zone, for code that
// reads dates of a request (the list engine's filters).
func WithZone(ctx context.Context, l *time.Location) context.Context {
	return context.WithValue(ctx, zoneKey{}, l)
}

// ZoneFrom returns the time zone of ctx, the default zone when none.
func ZoneFrom(ctx context.Context) *time.Location {
	if l, ok := ctx.Value(zoneKey{}).(*time.Location); ok && l != nil {
		return l
	}
	return defaultZone()
}

type clockKey struct{}

// With returns ctx carrying c, for code that keeps no clock of its own (the
// time of an audit record, written by every domain).
func With(ctx context.Context, c Clock) context.Context {
	return context.WithValue(ctx, clockKey{}, c)
}

// From returns the clock ctx carries; the zero Clock (the system time in the
// default zone) when none.
func From(ctx context.Context) Clock {
	c, _ := ctx.Value(clockKey{}).(Clock)
	return c
}
