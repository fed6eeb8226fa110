package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// The chain: sealing gives each record, in the order records are sealed,
// the next number (seq), the hash of the record before it (prev_hash) and
// its own hash, sha256 over the previous hash and the record's canonical
// content. The head (audit_chain, one row) holds the last number and hash;
// it is locked for the sealing transaction, so records written by any
// number of processes on one database form a single chain. Records are
// written unsealed (in the transaction of the change they describe, which
// then never waits for the chain) and sealed within a second by the
// background writer of any process.

// chained is a stored record with its chain fields.
type chained struct {
	ID         int64     `db:"id"`
	CreatedAt  time.Time `db:"created_at"`
	UserID     *int64    `db:"user_id"`
	Username   string    `db:"username"`
	Role       string    `db:"role"`
	Action     string    `db:"action"`
	ObjectType string    `db:"object_type"`
	ObjectID   string    `db:"object_id"`
	CaseID     *int64    `db:"case_id"`
	Before     *string   `db:"before_data"`
	After      *string   `db:"after_data"`
	IP         string    `db:"ip"`
	UserAgent  string    `db:"user_agent"`
	Outcome    string    `db:"outcome"`
	Message    string    `db:"message"`
	Seq        *int64    `db:"seq"`
	PrevHash   *string   `db:"prev_hash"`
	Hash       *string   `db:"hash"`
}

const chainedColumns = "id, created_at, user_id, username, role, action, object_type, object_id, case_id, before_data, after_data, " +
	"ip, user_agent, outcome, message, seq, prev_hash, hash"

// digest is the hash of r as record number seq after the record hashed prev.
func digest(prev string, seq int64, r *chained) string {
	content, _ := json.Marshal([]any{seq, r.ID, r.CreatedAt.UTC().Format(time.RFC3339Nano), r.UserID, r.Username, r.Role,
		r.Action, r.ObjectType, r.ObjectID, r.CaseID, r.Before, r.After, r.IP, r.UserAgent, r.Outcome, r.Message})
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// Seal seals every record not yet in the chain, in id order.
func Seal(ctx context.Context, d *db.DB) (int, error) {
	total := 0
	for {
		var pending []int64
		if err := db.Select(ctx, d, &pending, d.Builder().Select("id").From("audit_logs").Where("seq IS NULL").Limit(1)); err != nil {
			return total, fmt.Errorf("audit: pending records: %w", err)
		}
		if len(pending) == 0 {
			return total, nil
		}
		var n int
		err := d.InTx(ctx, func(tx *db.Tx) error {
			var err error
			n, err = sealIn(ctx, tx, 1000)
			return err
		})
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
}

// sealIn seals up to limit records within tx, holding the chain head.
func sealIn(ctx context.Context, tx *db.Tx, limit uint64) (int, error) {
	head := tx.Builder().Select("seq", "hash").From("audit_chain").Where("id = 1")
	if tx.Dialect == db.Postgres {
		head = head.Suffix("FOR UPDATE")
	}
	var h struct {
		Seq  int64  `db:"seq"`
		Hash string `db:"hash"`
	}
	if err := db.Get(ctx, tx, &h, head); err != nil {
		return 0, fmt.Errorf("audit: chain head: %w", err)
	}
	var rows []chained
	if err := db.Select(ctx, tx, &rows, tx.Builder().Select(chainedColumns).From("audit_logs").
		Where("seq IS NULL").OrderBy("id").Limit(limit)); err != nil {
		return 0, fmt.Errorf("audit: unsealed records: %w", err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	seals := make([]seal, len(rows))
	for i := range rows {
		h.Seq++
		sum := digest(h.Hash, h.Seq, &rows[i])
		seals[i] = seal{id: rows[i].ID, seq: h.Seq, prev: h.Hash, hash: sum}
		h.Hash = sum
	}
	if err := writeSeals(ctx, tx, seals); err != nil {
		return 0, err
	}
	if _, err := db.Exec(ctx, tx, tx.Builder().Update("audit_chain").Set("seq", h.Seq).Set("hash", h.Hash).Where("id = 1")); err != nil {
		return 0, fmt.Errorf("audit: chain head: %w", err)
	}
	return len(rows), nil
}

type seal struct {
	id, seq    int64
	prev, hash string
}

// writeSeals stores the chain fields: on PostgreSQL in one statement (a
// round trip per record would limit the writer to about a thousand records
// a second), on SQLite, in process, one prepared update each.
func writeSeals(ctx context.Context, tx *db.Tx, seals []seal) error {
	if tx.Dialect == db.Postgres {
		var b strings.Builder
		args := make([]any, 0, 4*len(seals))
		b.WriteString("UPDATE audit_logs AS a SET seq = v.seq, prev_hash = v.prev, hash = v.hash FROM (VALUES ")
		for i, s := range seals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?::bigint, ?::bigint, ?::text, ?::text)")
			args = append(args, s.id, s.seq, s.prev, s.hash)
		}
		b.WriteString(") AS v(id, seq, prev, hash) WHERE a.id = v.id AND a.seq IS NULL")
		res, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...)
		if err != nil {
			return fmt.Errorf("audit: seal: %w", err)
		}
		if n, _ := res.RowsAffected(); n != int64(len(seals)) {
			return fmt.Errorf("audit: sealed %d of %d records", n, len(seals))
		}
		return nil
	}
	stmt, err := tx.PreparexContext(ctx, tx.Rebind("UPDATE audit_logs SET seq = ?, prev_hash = ?, hash = ? WHERE id = ? AND seq IS NULL"))
	if err != nil {
		return fmt.Errorf("audit: seal: %w", err)
	}
	defer stmt.Close()
	for _, s := range seals {
		if _, err := stmt.ExecContext(ctx, s.seq, s.prev, s.hash, s.id); err != nil {
			return fmt.Errorf("audit: seal record %d: %w", s.id, err)
		}
	}
	return nil
}

// Report is the result of checking the chain.
type Report struct {
	OK      bool    `json:"ok" doc:"Every sealed record is as it was written and none is missing"`
	Checked int64   `json:"checked" doc:"Sealed records checked"`
	Pending int64   `json:"pending" doc:"Records written but not yet sealed (the writer seals them within a second or two)"`
	Broken  *Broken `json:"broken,omitempty" doc:"Where the chain first breaks"`
}

// Broken names the first record at which the chain does not hold.
type Broken struct {
	ID      int64  `json:"id" doc:"The record (0: the chain's end, after the last record)"`
	Seq     int64  `json:"seq" doc:"Its place in the chain"`
	Reason  string `json:"reason" enum:"modified,missing,relinked" doc:"modified: its content changed; missing: records before it (or at the end) were removed; relinked: its link to the previous record changed"`
	Message string `json:"message"`
}

// Verify walks the chain from its start and reports the first record that
// was changed, removed or re-linked. It reads the head first and checks the
// records up to it, so that records sealed meanwhile do not disturb it.
func Verify(ctx context.Context, d *db.DB) (*Report, error) {
	rep := &Report{}
	var h struct {
		Seq  int64  `db:"seq"`
		Hash string `db:"hash"`
	}
	if err := db.Get(ctx, d, &h, d.Builder().Select("seq", "hash").From("audit_chain").Where("id = 1")); err != nil {
		return nil, apperr.Wrap(err, "read the audit chain head")
	}
	if err := db.Get(ctx, d, &rep.Pending, d.Builder().Select("COUNT(*)").From("audit_logs").Where("seq IS NULL")); err != nil {
		return nil, apperr.Wrap(err, "count unsealed audit records")
	}
	rows, err := d.QueryxContext(ctx, d.Rebind("SELECT "+chainedColumns+" FROM audit_logs WHERE seq IS NOT NULL AND seq <= ? ORDER BY seq"), h.Seq)
	if err != nil {
		return nil, apperr.Wrap(err, "read the audit chain")
	}
	defer rows.Close()
	var seq, last int64
	prev := ""
	for rows.Next() {
		var r chained
		if err := rows.StructScan(&r); err != nil {
			return nil, apperr.Wrap(err, "read the audit chain")
		}
		rep.Checked++
		switch {
		case *r.Seq != seq+1:
			rep.Broken = &Broken{ID: r.ID, Seq: *r.Seq, Reason: "missing"}
		case r.PrevHash == nil || *r.PrevHash != prev:
			rep.Broken = &Broken{ID: r.ID, Seq: *r.Seq, Reason: "relinked"}
		case r.Hash == nil || *r.Hash != digest(prev, *r.Seq, &r):
			rep.Broken = &Broken{ID: r.ID, Seq: *r.Seq, Reason: "modified"}
		}
		if rep.Broken != nil {
			return rep, nil
		}
		seq, prev, last = *r.Seq, *r.Hash, r.ID
	}
	if err := rows.Err(); err != nil {
		return nil, apperr.Wrap(err, "read the audit chain")
	}
	switch {
	case seq != h.Seq: // the head remembers more than is left: the last records were removed
		rep.Broken = &Broken{Seq: seq + 1, Reason: "missing"}
	case prev != h.Hash: // the last record was changed and its own hash recomputed
		rep.Broken = &Broken{ID: last, Seq: seq, Reason: "modified"}
	default:
		rep.OK = true
	}
	return rep, nil
}
