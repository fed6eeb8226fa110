package clock

import (
	"context"
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	var zero Clock
	if zero.Zone().String() != DefaultZone || zero.Now().Location() != time.UTC {
		t.Fatalf("zero clock: %v %v", zero.Zone(), zero.Now().Location())
	}
	paris, err := LoadZone("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)
	c := New(paris, func() time.Time { return at.In(paris) })
	if !c.Now().Equal(at) || c.Now().Location() != time.UTC || c.Local(c.Now()).Day() != 1 {
		t.Fatalf("fixed clock: %v, local %v", c.Now(), c.Local(c.Now()))
	}
	if _, err := LoadZone("Mars/Olympus"); err == nil {
		t.Fatal("unknown zone loaded")
	}
	if ZoneFrom(context.Background()).String() != DefaultZone || ZoneFrom(WithZone(context.Background(), paris)) != paris {
		t.Fatal("zone of a context")
	}
}
