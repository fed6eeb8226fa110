package consultation

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// Message is one note in a case's message thread.
type Message struct {
	ID        int64     `json:"id" db:"id"`
	UserID    int64     `json:"user_id" db:"user_id"`
	UserName  string    `json:"user_name" db:"user_name"`
	Content   string    `json:"content" db:"content"`
	Mine      bool      `json:"mine" db:"-"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
}

// MaxMessage is the longest message, in characters (spec 2 §9).
const MaxMessage = 150

// Messages returns the thread of a case the caller may see.
func (s *Service) Messages(ctx context.Context, id int64) ([]Message, error) {
	if _, err := s.row(ctx, s.db, id); err != nil {
		return nil, err
	}
	out := []Message{}
	err := db.Select(ctx, s.db, &out, s.db.Builder().Select("m.id", "m.user_id", "u.name AS user_name", "m.content", "m.created_at").
		From("consult_messages m").Join("users u ON u.id = m.user_id").
		Where("m.consult_id = ? AND m.deleted_at IS NULL", id).OrderBy("m.id"))
	if err != nil {
		return nil, apperr.Wrap(err, "load messages")
	}
	me := access.FromContext(ctx).UserID
	for i := range out {
		out[i].Mine = out[i].UserID == me
	}
	return out, nil
}

// PostMessage adds a message of at most 150 characters to a case.
func (s *Service) PostMessage(ctx context.Context, id int64, content string) (*Message, error) {
	content = strings.TrimSpace(content)
	switch {
	case content == "":
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("content", "field.required")
	case utf8.RuneCountInString(content) > MaxMessage:
		return nil, apperr.New(apperr.Invalid, "error.validation").Field("content", "case.message_too_long")
	}
	p := access.FromContext(ctx)
	var mid int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		r, err := s.row(ctx, tx, id)
		if err != nil {
			return err
		}
		mid, err = db.InsertID(ctx, tx, tx.Builder().Insert("consult_messages").Columns("consult_id", "user_id", "content", "created_at").
			Values(id, p.UserID, content, s.now()))
		if err != nil {
			return apperr.Wrap(err, "insert message")
		}
		if err := s.record(ctx, tx, id, ActMessage, r.State, r.State, content, nil, map[string]any{"message_id": mid}); err != nil {
			return err
		}
		return s.tell(ctx, tx, id, ActMessage, r.State, r.State, nil, content)
	})
	if err != nil {
		return nil, err
	}
	return &Message{ID: mid, UserID: p.UserID, UserName: p.Name, Content: content, Mine: true, CreatedAt: s.now()}, nil
}

// DeleteMessage removes one of the caller's own messages.
func (s *Service) DeleteMessage(ctx context.Context, messageID int64) error {
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var m struct {
			ConsultID int64 `db:"consult_id"`
			UserID    int64 `db:"user_id"`
		}
		err := db.Get(ctx, tx, &m, tx.Builder().Select("consult_id", "user_id").From("consult_messages").
			Where("id = ? AND deleted_at IS NULL", messageID))
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "error.not_found")
		} else if err != nil {
			return apperr.Wrap(err, "load message")
		}
		r, err := s.row(ctx, tx, m.ConsultID)
		if err != nil {
			return err
		}
		if m.UserID != p.UserID {
			return apperr.New(apperr.Forbidden, "case.message_not_own")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("consult_messages").Set("deleted_at", s.now()).Where("id = ?", messageID)); err != nil {
			return apperr.Wrap(err, "delete message")
		}
		return s.record(ctx, tx, m.ConsultID, ActMessageDelete, r.State, r.State, "", map[string]any{"message_id": messageID}, nil)
	})
}
