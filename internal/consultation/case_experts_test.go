package consultation_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"telepath/internal/platform/db"
	"telepath/internal/platform/db/dbtest"
)

// expertNamed is the expert's old case scope, the OR of the six ways an
// expert is named on a case, that case_experts stands for.
const expertNamed = `c.expert_id = ? OR c.reviewer_id = ? OR c.returned_by = ? OR c.handover_from = ?
	OR c.id IN (SELECT consult_id FROM invitations WHERE invitee_id = ?)
	OR c.id IN (SELECT consult_id FROM diagnoses WHERE reviewer_id = ? AND type = 1)`

// staleCopies selects the case_experts rows whose copies of their case's
// columns (migrations 0069, 0077, 0083) differ from the case's.
const staleCopies = `SELECT x.expert_id FROM case_experts x JOIN consultations c ON c.id = x.case_id
	WHERE x.status <> c.status OR x.is_draft <> c.is_draft OR x.is_recall <> c.is_recall OR x.is_return <> c.is_return
	OR x.is_lock <> c.is_lock OR x.supplement_review <> c.supplement_review OR x.print_deliver_status <> c.print_deliver_status
	OR x.assigned <> CASE WHEN c.expert_id IS NULL THEN 0 ELSE 1 END OR x.deleted <> CASE WHEN c.deleted_at IS NULL THEN 0 ELSE 1 END
	OR x.submitted_at IS DISTINCT FROM c.submitted_at OR x.timeout_at IS DISTINCT FROM c.timeout_at
	OR x.remind_at IS DISTINCT FROM c.remind_at OR x.release_at IS DISTINCT FROM c.release_at OR x.pathology_number <> c.pathology_number OR x.hospital_id <> c.hospital_id`

// expertTallyDiff counts the keys whose case_expert_tallies count
// (migration 0080) is not the number of case_experts rows of that key (a
// zero tally is no key).
const expertTallyDiff = `SELECT
	(SELECT COUNT(*) FROM (SELECT ` + expertTallyKey + `, n FROM case_expert_tallies WHERE n <> 0
		EXCEPT SELECT ` + expertTallyKey + `, COUNT(*) FROM case_experts GROUP BY ` + expertTallyKey + `) a) +
	(SELECT COUNT(*) FROM (SELECT ` + expertTallyKey + `, COUNT(*) FROM case_experts GROUP BY ` + expertTallyKey + `
		EXCEPT SELECT ` + expertTallyKey + `, n FROM case_expert_tallies WHERE n <> 0) b)`

const expertTallyKey = "expert_id, deleted, status, is_draft, is_recall, is_return, is_lock, assigned, supplement_review, print_deliver_status, hospital_id"

// TestCaseExpertsFollowEveryWrite makes 800 random writes to what names
// an expert on a case (assignment, reviewer, return, handover, invitations
// made, moved and deleted, supplementary reports and their reviewers, new
// and hard-deleted cases, rolled-back transactions), 25 to a transaction,
// and checks after each transaction that the case_experts the triggers keep
// equal, expert by expert, the cases the OR of the six conditions selects
// from the base tables: a stale membership is found before a later write to
// its case recomputes it away. It also changes, at random, the columns of
// the cases that case_experts copies, and checks every copy and the
// experts' tallies of them.
func TestCaseExpertsFollowEveryWrite(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		ins := func(q string, args ...any) int64 {
			var id int64
			if err := d.GetContext(ctx, &id, d.Rebind(q+" RETURNING id"), args...); err != nil {
				t.Fatal(err)
			}
			return id
		}
		hospitals := []int64{ins("INSERT INTO hospitals (name, created_at, updated_at) VALUES ('H', ?, ?)", now, now),
			ins("INSERT INTO hospitals (name, created_at, updated_at) VALUES ('H2', ?, ?)", now, now)}
		var users []int64
		for i := range 5 {
			users = append(users, ins("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, 'x', ?, ?)", fmt.Sprint("u", i), now, now))
		}
		r := rand.New(rand.NewPCG(3, 4))
		pick := func() any {
			if r.IntN(3) == 0 {
				return nil
			}
			return users[r.IntN(len(users))]
		}
		check := func(ops int) {
			t.Helper()
			total := 0
			for _, u := range users {
				var want, have []int64
				if err := d.SelectContext(ctx, &want, d.Rebind("SELECT c.id FROM consultations c WHERE "+expertNamed+" ORDER BY c.id"), u, u, u, u, u, u); err != nil {
					t.Fatal(err)
				}
				if err := d.SelectContext(ctx, &have, d.Rebind("SELECT case_id FROM case_experts WHERE expert_id = ? ORDER BY case_id"), u); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(want, have) {
					t.Fatalf("after %d writes, expert %d: case_experts %v, named on %v", ops, u, have, want)
				}
				total += len(want)
			}
			var rows int
			if err := d.GetContext(ctx, &rows, "SELECT COUNT(*) FROM case_experts"); err != nil {
				t.Fatal(err)
			}
			if total == 0 || rows != total {
				t.Fatalf("after %d writes: %d memberships, %d expected", ops, rows, total)
			}
			var stale []int64
			if err := d.SelectContext(ctx, &stale, staleCopies); err != nil {
				t.Fatal(err)
			}
			if len(stale) > 0 {
				t.Fatalf("after %d writes: %d case_experts rows copy other values than their case's", ops, len(stale))
			}
			var off int
			if err := d.GetContext(ctx, &off, expertTallyDiff); err != nil {
				t.Fatal(err)
			}
			if off > 0 {
				t.Fatalf("after %d writes: %d keys of case_expert_tallies differ from the counts of case_experts", ops, off)
			}
		}
		var ids []int64
		ops := 0
		for ops < 800 {
			tx, err := d.BeginTxx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			exec := func(q string, args ...any) {
				if _, err := tx.ExecContext(ctx, d.Rebind(q), args...); err != nil {
					t.Fatal(q, err)
				}
			}
			some := func(q string, args ...any) (int64, bool) {
				var found []int64
				if err := tx.SelectContext(ctx, &found, d.Rebind(q), args...); err != nil {
					t.Fatal(q, err)
				}
				if len(found) == 0 {
					return 0, false
				}
				return found[r.IntN(len(found))], true
			}
			for range 25 {
				ops++
				k := r.IntN(12)
				if k < 2 || len(ids) == 0 {
					var id int64
					if err := tx.GetContext(ctx, &id, d.Rebind(`INSERT INTO consultations (hospital_id, user_id, expert_id, reviewer_id, status, pathology_number, created_at, updated_at)
						VALUES (?, ?, ?, ?, 1, ?, ?, ?) RETURNING id`), hospitals[r.IntN(2)], users[0], pick(), pick(), fmt.Sprint("BL", r.IntN(5)), now, now); err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
					continue
				}
				id := ids[r.IntN(len(ids))]
				switch k {
				case 2, 3, 4: // assign, reassign, review, return, hand over, or clear one of them
					col := []string{"expert_id", "reviewer_id", "returned_by", "handover_from"}[r.IntN(4)]
					exec("UPDATE consultations SET "+col+" = ? WHERE id = ?", pick(), id)
				case 5: // a column case_experts copies (with an unrelated one)
					var v any = r.IntN(5) - 1
					col := []string{"status", "is_draft", "is_recall", "is_return", "is_lock", "supplement_review", "print_deliver_status",
						"deleted_at", "submitted_at", "timeout_at", "remind_at", "release_at", "pathology_number", "hospital_id"}[r.IntN(14)]
					switch {
					case col == "hospital_id":
						v = hospitals[r.IntN(2)]
					case col == "pathology_number":
						v = fmt.Sprint("BL", r.IntN(5))
					case strings.HasSuffix(col, "_at"):
						v = nil
						if r.IntN(3) > 0 {
							v = now.Add(time.Duration(r.IntN(100)) * time.Hour)
						}
					}
					exec("UPDATE consultations SET "+col+" = ?, patient_name = 'x' WHERE id = ?", v, id)
				case 6: // invite
					exec("INSERT INTO invitations (consult_id, inviter_id, invitee_id, created_at) VALUES (?, ?, ?, ?)", id, users[0], users[r.IntN(len(users))], now)
				case 7: // answer an invitation, or move it to another expert or case
					if inv, ok := some("SELECT id FROM invitations"); ok {
						switch r.IntN(3) {
						case 0:
							exec("UPDATE invitations SET status = 1, reply = 'ok' WHERE id = ?", inv)
						case 1:
							exec("UPDATE invitations SET invitee_id = ? WHERE id = ?", users[r.IntN(len(users))], inv)
						default:
							exec("UPDATE invitations SET consult_id = ? WHERE id = ?", id, inv)
						}
					}
				case 8: // revoke an invitation
					if inv, ok := some("SELECT id FROM invitations"); ok {
						exec("DELETE FROM invitations WHERE id = ?", inv)
					}
				case 9: // a supplementary report, or a normal diagnosis, with or without a reviewer
					exec("INSERT INTO diagnoses (consult_id, type, doctor_id, reviewer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
						id, r.IntN(2), users[0], pick(), now, now)
				case 10: // send a report to review or take it back, change its kind, discard it
					if dg, ok := some("SELECT id FROM diagnoses"); ok {
						switch r.IntN(4) {
						case 0:
							exec("UPDATE diagnoses SET reviewer_id = ? WHERE id = ?", pick(), dg)
						case 1:
							exec("UPDATE diagnoses SET type = 1 - type WHERE id = ?", dg)
						case 2:
							exec("UPDATE diagnoses SET consult_id = ? WHERE id = ?", id, dg)
						default:
							exec("DELETE FROM diagnoses WHERE id = ?", dg)
						}
					}
				default: // delete the case for good
					exec("DELETE FROM invitations WHERE consult_id = ?", id)
					exec("DELETE FROM diagnoses WHERE consult_id = ?", id)
					exec("DELETE FROM consultations WHERE id = ?", id)
					ids = slices.DeleteFunc(ids, func(x int64) bool { return x == id })
				}
			}
			if ops%400 == 200 {
				tx.Rollback() // a transaction that fails changes no membership
				if err := d.SelectContext(ctx, &ids, "SELECT id FROM consultations ORDER BY id"); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			check(ops)
		}
	})
}
