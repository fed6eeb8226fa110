package notify

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/i18n"
)

// TicketLife is how long a stream ticket may wait to be used.
const TicketLife = time.Minute

// Ticket lets a browser's EventSource open the caller's stream once.
type Ticket struct {
	Ticket    string `json:"ticket" doc:"Pass as ?ticket= to GET /api/events, once, within expires_in seconds"`
	ExpiresIn int    `json:"expires_in"`
}

func hashTicket(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

// NewTicket issues a single-use stream ticket for the caller's session.
func (s *Service) NewTicket(ctx context.Context) (*Ticket, error) {
	p := access.FromContext(ctx)
	b := make([]byte, 24)
	rand.Read(b) //nolint:errcheck // never fails
	t := hex.EncodeToString(b)
	now := s.now()
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Delete("stream_tickets").Where("expires_at < ?", now)); err != nil {
			return apperr.Wrap(err, "expired tickets")
		}
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("stream_tickets").Columns("token_hash", "session_id", "lang", "expires_at").
			Values(hashTicket(t), p.SessionID, string(i18n.From(ctx)), now.Add(TicketLife)))
		return apperr.Wrap(err, "insert ticket")
	})
	if err != nil {
		return nil, err
	}
	return &Ticket{Ticket: t, ExpiresIn: int(TicketLife / time.Second)}, nil
}

// redeem uses up a ticket and returns the principal of its session and
// the language it was asked for in.
func (s *Service) redeem(ctx context.Context, t string) (*access.Principal, i18n.Lang, error) {
	refused := apperr.New(apperr.Unauthorized, "events.bad_ticket")
	if len(t) > 128 {
		return nil, "", refused
	}
	var row struct {
		SessionID int64     `db:"session_id"`
		Lang      string    `db:"lang"`
		ExpiresAt time.Time `db:"expires_at"`
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		return db.Get(ctx, tx, &row, tx.Builder().Delete("stream_tickets").Where("token_hash = ?", hashTicket(t)).
			Suffix("RETURNING session_id, lang, expires_at"))
	})
	if errors.Is(err, sql.ErrNoRows) || (err == nil && row.ExpiresAt.Before(s.now())) {
		return nil, "", refused
	}
	if err != nil {
		return nil, "", apperr.Wrap(err, "redeem ticket")
	}
	p, err := s.deps.Principal(ctx, row.SessionID)
	if err != nil {
		return nil, "", refused
	}
	return p, i18n.Parse(row.Lang), nil
}
