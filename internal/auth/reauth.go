package auth

import (
	"context"
	"time"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// A signed-in user proves their password again to unlock the screen and to
// change it. Wrong passwords count on the session like sign-in failures on
// an address: after MaxFailures the session ends, so a session (or an
// unattended screen) cannot be used to guess on.

// LockScreen locks the caller's session: until VerifyPassword it answers
// only unlocking and signing out (423 elsewhere).
func (s *Service) LockScreen(ctx context.Context) error {
	p := access.FromContext(ctx)
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("locked_at", s.now()).
			Where("id = ? AND locked_at IS NULL", p.SessionID)); err != nil {
			return apperr.Wrap(err, "lock screen")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "auth.lock_screen", ObjectType: "user", ObjectID: p.UserID})
	})
}

// VerifyPassword checks the caller's password and unlocks the screen.
func (s *Service) VerifyPassword(ctx context.Context, encrypted string) error {
	p := access.FromContext(ctx)
	pw, err := s.key.Decrypt("password", encrypted)
	if err != nil {
		return err
	}
	release, err := s.gate.enter(ctx, p.Username)
	if err != nil {
		return err
	}
	defer release()
	if err := s.checkOwnPassword(ctx, p, "password", pw, "auth.unlock_screen"); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		_, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("locked_at", nil).Set("password_failures", 0).Where("id = ?", p.SessionID))
		return apperr.Wrap(err, "unlock screen")
	})
}

// ChangePassword sets the caller's new password and ends their other sessions.
func (s *Service) ChangePassword(ctx context.Context, oldEnc, newEnc string) error {
	p := access.FromContext(ctx)
	oldPw, err := s.key.Decrypt("old_password", oldEnc)
	if err != nil {
		return err
	}
	newPw, err := s.key.Decrypt("new_password", newEnc)
	if err != nil {
		return err
	}
	if err := CheckPolicy("new_password", newPw, p.Username); err != nil {
		return err
	}
	release, err := s.gate.enter(ctx, p.Username)
	if err != nil {
		return err
	}
	defer release()
	if err := s.checkOwnPassword(ctx, p, "old_password", oldPw, "auth.change_password"); err != nil {
		return err
	}
	if oldPw == newPw {
		return apperr.New(apperr.Invalid, "error.validation").Field("new_password", "password.same_as_old")
	}
	newHash, err := HashPassword(newPw)
	if err != nil {
		return apperr.Wrap(err, "hash")
	}
	now := s.now()
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := SetPassword(ctx, tx, p.UserID, newHash, false, now); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("password_failures", 0).Where("id = ?", p.SessionID)); err != nil {
			return apperr.Wrap(err, "reset failures")
		}
		if err := RevokeSessions(ctx, tx, p.UserID, p.SessionID, now); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "auth.change_password", ObjectType: "user", ObjectID: p.UserID})
	})
}

// checkOwnPassword checks pw against the caller's password (the caller holds
// the hashing gate). A wrong one is counted on the session, and the last
// allowed one ends it.
func (s *Service) checkOwnPassword(ctx context.Context, p *access.Principal, field, pw, action string) error {
	var row struct {
		Hash    string     `db:"password_hash"`
		Revoked *time.Time `db:"revoked_at"`
	}
	if err := db.Get(ctx, s.db, &row, s.db.Builder().Select("u.password_hash", "s.revoked_at").
		From("sessions s").Join("users u ON u.id = s.user_id").Where("s.id = ?", p.SessionID)); err != nil {
		return apperr.Wrap(err, "load password")
	}
	if row.Revoked != nil { // ended while this request waited for the gate
		return apperr.New(apperr.Unauthorized, "error.unauthorized")
	}
	if CheckPassword(row.Hash, pw) {
		return nil
	}
	now := s.now()
	var ended bool
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`UPDATE sessions SET password_failures = password_failures + 1 WHERE id = ? RETURNING password_failures`), p.SessionID); err != nil {
			return apperr.Wrap(err, "count password failure")
		}
		entry := audit.Entry{Action: action, ObjectType: "user", ObjectID: p.UserID, Outcome: audit.Failure, Message: "wrong password"}
		if ended = n >= s.cfg.MaxFailures; ended {
			if _, err := db.Exec(ctx, tx, tx.Builder().Update("sessions").Set("revoked_at", now).Where("id = ?", p.SessionID)); err != nil {
				return apperr.Wrap(err, "end session")
			}
			entry.Message = "wrong password; session ended"
		}
		return audit.Write(ctx, tx, tx.Dialect, entry)
	})
	if err != nil {
		return err
	}
	if ended {
		return apperr.New(apperr.Unauthorized, "auth.session_ended_wrong_password")
	}
	return apperr.New(apperr.Invalid, "error.validation").Field(field, "auth.password_wrong")
}

// SetPassword stores the user's new password hash in the caller's
// transaction; mustChange asks for another at the next sign-in (an
// administrator's reset).
func SetPassword(ctx context.Context, tx *db.Tx, userID int64, hash string, mustChange bool, now time.Time) error {
	must := 0
	if mustChange {
		must = 1
	}
	_, err := db.Exec(ctx, tx, tx.Builder().Update("users").Set("password_hash", hash).Set("must_change_password", must).
		Set("password_changed_at", now).Set("updated_at", now).Where("id = ?", userID))
	return apperr.Wrap(err, "set password")
}
