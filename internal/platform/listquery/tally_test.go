package listquery

import (
	"testing"

	sq "github.com/Masterminds/squirrel"
)

func TestTallyCoversOnlyItsColumns(t *testing.T) {
	tl := &Tally{From: "cases c", Table: "case_tallies c", Count: "c.n", Columns: []string{"c.status", "c.hospital_id", "c.deleted_at"}}
	for where, want := range map[string]bool{
		"c.deleted_at IS NULL AND c.hospital_id = ? AND c.status IN (1, 2)": true,
		"(c.status <> 0 OR c.hospital_id = $1) AND NOT (c.status = 4)":      true,
		"c.status = 1 AND c.expert_id IS NULL":                              false,
		"c.id IN (SELECT consult_id FROM invitations WHERE invitee_id = ?)": false,
		"c.patient_name LIKE ? ESCAPE '\\'":                                 false,
		"c.status = 1 AND COALESCE(c.hospital_id, 0) = 1":                   false,
		"c.status = 'c.patient_name'":                                       true,
		"status = 1":                                                        false,
	} {
		if got := tl.covers(where); got != want {
			t.Errorf("covers(%q) = %v, want %v", where, got, want)
		}
	}
	b := sq.Select("COUNT(*)").From("cases c").Where("c.status = ?", 1)
	if cb, ok := tl.countFrom(b); !ok {
		t.Error("a count over the tallied columns should read the tally")
	} else if text, _, _ := cb.ToSql(); text != "SELECT COALESCE(SUM(c.n), 0) FROM case_tallies c WHERE c.status = ?" {
		t.Errorf("tally count: %s", text)
	}
	if _, ok := tl.countFrom(sq.Select("COUNT(*)").From("cases c").Join("users u ON u.id = c.user_id").Where("c.status = ?", 1)); ok {
		t.Error("a count with a join must count the rows")
	}
	if _, ok := (*Tally)(nil).countFrom(b); ok {
		t.Error("no tally, no tally count")
	}
}
