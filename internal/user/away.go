package user

import (
	"context"
	"strings"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Availability is whether an expert takes new cases: away with an
// optional note and the day they expect to be back.
type Availability struct {
	Away      bool   `json:"away" db:"away"`
	AwayNote  string `json:"away_note,omitempty" db:"away_note" maxLength:"200"`
	AwayUntil string `json:"away_until,omitempty" db:"away_until" doc:"YYYY-MM-DD, empty when not said"`
}

func (s *Service) availability(ctx context.Context, q db.Runner, id int64) (Availability, error) {
	var a Availability
	err := db.Get(ctx, q, &a, q.Builder().Select("away <> 0 AS away", "away_note", "away_until").From("users").Where("id = ?", id))
	return a, apperr.Wrap(err, "load availability")
}

// OwnAvailability is the calling expert's availability.
func (s *Service) OwnAvailability(ctx context.Context) (Availability, error) {
	return s.availability(ctx, s.db, access.FromContext(ctx).UserID)
}

// SetAvailability marks the calling expert available or away. Back to
// available clears the note and the return day; a return day is today or
// later, in the operator's time zone.
func (s *Service) SetAvailability(ctx context.Context, in Availability) (Availability, error) {
	in.AwayNote, in.AwayUntil = strings.TrimSpace(in.AwayNote), strings.TrimSpace(in.AwayUntil)
	if !in.Away {
		in.AwayNote, in.AwayUntil = "", ""
	}
	var v apperr.Validation
	if len([]rune(in.AwayNote)) > 200 {
		v.Add("away_note", "field.too_long", "max", 200)
	}
	if in.AwayUntil != "" {
		now := s.clock.Now().In(s.clock.Zone())
		day, err := time.ParseInLocation("2006-01-02", in.AwayUntil, s.clock.Zone())
		if err != nil {
			v.Add("away_until", "field.invalid")
		} else if day.Before(time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, s.clock.Zone())) {
			v.Add("away_until", "user.away_until_past")
		}
	}
	if err := v.Err(); err != nil {
		return Availability{}, err
	}
	me := access.FromContext(ctx).UserID
	away := 0
	if in.Away {
		away = 1
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.availability(ctx, tx, me)
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("away", away).Set("away_note", in.AwayNote).
			Set("away_until", in.AwayUntil).Set("updated_at", s.clock.Now()).Where("id = ?", me)); err != nil {
			return apperr.Wrap(err, "set availability")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "user.availability", ObjectType: "user", ObjectID: me, Before: before, After: in})
	})
	if err != nil {
		return Availability{}, err
	}
	return in, nil
}
