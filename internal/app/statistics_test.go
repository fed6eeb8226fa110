package app_test

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"telepath/internal/platform/i18n"
	"telepath/internal/statistics"
)

// statSeed writes a month of cases (March 2026, Asia/Shanghai) straight
// into the tables, with the instants chosen so that every figure below can
// be counted by hand:
//
//	c1 H1 routine E1 created 03-02, submitted 03:00Z, published 05:00Z (2 h), deadline 03-03: on time
//	c2 H1 routine E1 created 03-03, submitted 02:00Z, published 03-04 02:00Z (24 h), deadline 03-03 12:00Z: late, reason "recut"
//	c3 H1 cell    E2 created 03-10 15:30Z (23:30 local, 03-10), deadline 03-12 00:00Z, never published: timed out
//	c4 H2 routine E2 created 03-10 16:30Z (00:30 local, 03-11), submitted 03-11 01:00Z, published 07:00Z (6 h), on time
//	c5 H1 deleted
//	c6 H1 routine created 02-28 16:30Z (00:30 local, 03-01), a draft
//	c7 H3 (west center) routine created 03-05
type statSeed struct {
	h1, h2, h3, e1, e2 int64
}

func seedStatistics(t *testing.T, e *env) statSeed {
	t.Helper()
	var s statSeed
	one := func(dst *int64, q string, args ...any) {
		if err := e.app.DB.Get(dst, e.app.DB.Rebind(q), args...); err != nil {
			t.Fatal(q, err)
		}
	}
	one(&s.h1, "SELECT id FROM hospitals WHERE code = 'H001'")
	one(&s.h2, "SELECT id FROM hospitals WHERE code = 'H002'")
	one(&s.h3, "SELECT id FROM hospitals WHERE code = 'H003'")
	one(&s.e1, "SELECT id FROM users WHERE username = 'expert'")
	one(&s.e2, "SELECT id FROM users WHERE username = 'expert2'")
	var ec, wc, routine, cell, siteUser int64
	one(&ec, "SELECT id FROM centers WHERE code = 'EC'")
	one(&wc, "SELECT id FROM centers WHERE code = 'WC'")
	one(&routine, "SELECT id FROM libraries WHERE report_kind = 'routine'")
	one(&cell, "SELECT id FROM libraries WHERE pis_code = 'XB'")
	one(&siteUser, "SELECT id FROM users WHERE username = 'site'")
	at := func(s string) any {
		if s == "" {
			return nil
		}
		v, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC()
	}
	exec := func(q string, args ...any) {
		if _, err := e.app.DB.Exec(e.app.DB.Rebind(q), args...); err != nil {
			t.Fatal(q, err)
		}
	}
	type kase struct {
		hospital, center, library, expert                         int64
		status                                                    int
		created, submitted, assigned, published, timeout, deleted string
		reason                                                    string
	}
	cases := []kase{
		{s.h1, ec, routine, s.e1, 4, "2026-03-02 02:00", "2026-03-02 03:00", "2026-03-02 04:00", "2026-03-02 05:00", "2026-03-03 00:00", "", ""},
		{s.h1, ec, routine, s.e1, 4, "2026-03-03 01:00", "2026-03-03 02:00", "2026-03-03 02:00", "2026-03-04 02:00", "2026-03-03 12:00", "", "recut"},
		{s.h1, ec, cell, s.e2, 1, "2026-03-10 15:30", "2026-03-10 15:40", "2026-03-10 16:00", "", "2026-03-12 00:00", "", ""},
		{s.h2, ec, routine, s.e2, 4, "2026-03-10 16:30", "2026-03-11 01:00", "2026-03-11 01:00", "2026-03-11 07:00", "2026-03-12 00:00", "", ""},
		{s.h1, ec, routine, 0, 0, "2026-03-05 01:00", "", "", "", "", "2026-03-06 00:00", ""},
		{s.h1, ec, routine, 0, 0, "2026-02-28 16:30", "", "", "", "", "", ""},
		{s.h3, wc, routine, 0, 0, "2026-03-05 01:00", "", "", "", "", "", ""},
	}
	ids := make([]int64, len(cases))
	for i, c := range cases {
		var expert any
		if c.expert > 0 {
			expert = c.expert
		}
		one(&ids[i], `INSERT INTO consultations (hospital_id, center_id, user_id, library_id, status, is_draft, expert_id, created_at, updated_at,
			submitted_at, assigned_at, published_at, timeout_at, deleted_at, timeout_reason) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			c.hospital, c.center, siteUser, c.library, c.status, expert, at(c.created), at(c.created), at(c.submitted), at(c.assigned),
			at(c.published), at(c.timeout), at(c.deleted), c.reason)
	}
	c1, c2, c3, c4 := ids[0], ids[1], ids[2], ids[3]
	exec("INSERT INTO charges (consult_id, order_no, total_fen, status, charged_at, created_at) VALUES (?, 'A1', 12000, 1, ?, ?)", c1, at("2026-03-02 06:00"), at("2026-03-02 06:00"))
	exec("INSERT INTO charges (consult_id, order_no, total_fen, status, charged_at, refunded_at, created_at) VALUES (?, 'A2', 5000, 2, ?, ?, ?)", c2, at("2026-03-03 06:00"), at("2026-03-05 06:00"), at("2026-03-03 06:00"))
	exec("INSERT INTO case_logs (consult_id, user_id, action, created_at) VALUES (?, ?, 'expert_return', ?)", c2, s.e1, at("2026-03-03 05:00"))
	exec("INSERT INTO case_logs (consult_id, user_id, action, created_at) VALUES (?, ?, 'recall_agree', ?)", c3, siteUser, at("2026-03-11 05:00"))
	exec("INSERT INTO case_logs (consult_id, user_id, action, detail, created_at) VALUES (?, ?, 'diagnosis_amend', 'typo', ?)", c1, s.e1, at("2026-03-06 05:00"))
	exec("INSERT INTO case_logs (consult_id, user_id, action, created_at) VALUES (?, ?, 'review_approve', ?)", c1, s.e2, at("2026-03-02 04:30"))
	exec("INSERT INTO case_logs (consult_id, user_id, action, created_at) VALUES (?, ?, 'reviewreturn', ?)", c4, s.e1, at("2026-03-11 06:00"))
	exec("INSERT INTO case_logs (consult_id, user_id, action, created_at) VALUES (?, ?, 'review_approve', ?)", c4, s.e1, at("2026-03-11 06:30"))
	// Slides and their grades: c1 A and B, c2 C and D (folds).
	for i, g := range []struct {
		c            int64
		grade, cause string
	}{{c1, "A", ""}, {c1, "B", ""}, {c2, "C", ""}, {c2, "D", "folds"}} {
		var slide int64
		one(&slide, "INSERT INTO slides (consult_id, owner_id, filename, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
			g.c, siteUser, fmt.Sprintf("s%d.svs", i), at("2026-03-02 03:00"), at("2026-03-02 03:00"))
		exec("INSERT INTO slide_judgements (consult_id, slide_id, grade, reason, judged_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
			g.c, slide, g.grade, g.cause, s.e1, at("2026-03-04 03:00"), at("2026-03-04 03:00"))
	}
	// Two frozen sections of c4: 20 minutes (within 30) and 45 minutes.
	// Their paraffin cases were judged concordant and discordant on 03-12; a
	// third, deferred to paraffin, is left out of the concordance.
	for _, f := range [][3]string{{"2026-03-11 01:00", "2026-03-11 01:20", "concordant"}, {"2026-03-11 02:00", "2026-03-11 02:45", "discordant"}, {"2026-03-11 03:00", "", "deferred"}} {
		exec(`INSERT INTO frozen_appointments (center_id, hospital_id, user_id, status, patient_name, operation_at, consultation_id, expert_id,
			arrived_at, reported_at, concordance, concordance_at, created_at, updated_at) VALUES (?, ?, ?, 4, 'p', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ec, s.h2, siteUser, at(f[0]), c4, s.e2, at(f[0]), at(f[1]), f[2], at("2026-03-12 03:00"), at(f[0]), at(f[0]))
	}
	// H1 is on the center's own network; H2 and H3 are outside it.
	exec(`UPDATE hospitals SET site_info = '{"islocalhost":1}' WHERE id = ?`, s.h1)
	return s
}

type statReport struct {
	Data statistics.Stats `json:"data"`
}

func (e *env) stat(token, screen string, q url.Values) statistics.Stats {
	e.t.Helper()
	var out statReport
	e.decode(e.expect(e.do("GET", "/api/statistical/"+screen+"?"+q.Encode(), token, nil, "user-language", "en-US"), 200), &out)
	return out.Data
}

func card(t *testing.T, r statistics.Stats, key string) *float64 {
	t.Helper()
	for _, c := range r.Cards {
		if c.Key == key {
			return c.Value
		}
	}
	t.Fatalf("%s: no card %s", r.Screen, key)
	return nil
}

func wantCard(t *testing.T, r statistics.Stats, key string, want float64) {
	t.Helper()
	if v := card(t, r, key); v == nil || *v != want {
		t.Errorf("%s %s = %v, want %v", r.Screen, key, show(v), want)
	}
}

func show(v *float64) any {
	if v == nil {
		return "null"
	}
	return *v
}

func march() url.Values { return url.Values{"start": {"2026-03-01"}, "end": {"2026-03-31"}} }

// Each figure against the values counted by hand on the seeded month, on
// both databases.
func TestStatisticsFigures(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		seedStatistics(t, e)
		admin := e.login("admin")

		r := e.stat(admin, "consultation", march())
		for k, v := range map[string]float64{"registered": 6, "submitted": 4, "published": 3, "returned": 1, "recalled": 1, "timed_out": 2,
			"tat_median": 6, "tat_p90": 24, "within_timeout": 66.7, "charged": 170, "refunded": 50} {
			wantCard(t, r, k, v)
		}
		if got := len(r.Charts[0].Categories); got != 31 {
			t.Errorf("daily buckets: %d, want 31", got)
		}
		// The table's total row holds the cards' numbers.
		tab := r.Tables[0]
		total := tab.Rows[len(tab.Rows)-1]
		if *total.Values[0] != 6 || *total.Values[4] != 3 {
			t.Errorf("total row %v", total)
		}

		// A case at 23:30 local time counts on that local day; one at 00:30 on the next.
		for day, want := range map[string]float64{"2026-03-10": 1, "2026-03-11": 1, "2026-03-01": 1, "2026-02-28": 0} {
			wantCard(t, e.stat(admin, "consultation", url.Values{"start": {day}, "end": {day}}), "registered", want)
		}

		b := e.stat(admin, "bank", march())
		wantCard(t, b, "kind_routine", 5)
		wantCard(t, b, "kind_cell", 1)
		wantCard(t, b, "kind_frozen", 0)

		x := e.stat(admin, "expert", march())
		for k, v := range map[string]float64{"assigned": 4, "finished": 3, "in_progress": 1, "late": 2, "expert_tat_median": 6, "expert_tat_p90": 24} {
			wantCard(t, x, k, v)
		}
		if rs := x.Tables[1].Rows; len(rs) != 1 || rs[0].Label != "recut" {
			t.Errorf("timeout reasons %+v", rs)
		}

		q := e.stat(admin, "quality", march())
		wantCard(t, q, "intime_rate_frozen", 50)
		wantCard(t, q, "intime_rate_histology", 66.7)
		if v := card(t, q, "intime_rate_cytology"); v != nil {
			t.Errorf("cytology rate without a published report: %v", *v)
		}
		wantCard(t, q, "amended_rate", 33.3)

		h := e.stat(admin, "he", march())
		wantCard(t, h, "graded", 4)
		wantCard(t, h, "he_excellent", 50)
		wantCard(t, h, "qc_value", 90)
		if rs := h.Tables[1].Rows; len(rs) != 1 || rs[0].Label != "folds" {
			t.Errorf("grade D reasons %+v", rs)
		}

		o := e.stat(admin, "outside", march())
		wantCard(t, o, "outside_registered", 2)
		wantCard(t, o, "outside_hospitals", 2)

		d := e.stat(admin, "diagnosis", march())
		wantCard(t, d, "frozen_paraffin_concordance", 50)
		wantCard(t, d, "concordance_deferred", 1)
		wantCard(t, d, "review_disagreement", 33.3)
		if len(d.Notes) != 0 {
			t.Errorf("notes %v", d.Notes)
		}
		// A month without a comparison has no concordance, and says so.
		feb := e.stat(admin, "diagnosis", url.Values{"start": {"2026-02-01"}, "end": {"2026-02-28"}})
		if v := card(t, feb, "frozen_paraffin_concordance"); v != nil || len(feb.Notes) != 1 {
			t.Errorf("concordance without comparisons: %v %v", show(v), feb.Notes)
		}

	})
}

// Each role sees its own scope, and a filter outside it is refused.
func TestStatisticsScope(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		s := seedStatistics(t, e)
		for user, want := range map[string]float64{"admin": 6, "center_admin": 5, "allocator": 5, "site": 4, "site2": 1, "expert": 2, "expert2": 2} {
			wantCard(t, e.stat(e.login(user), "consultation", march()), "registered", want)
		}
		wantCard(t, e.stat(e.login("qc_expert"), "he", march()), "graded", 4)
		wantCard(t, e.stat(e.login("qc_expert"), "outside", march()), "outside_registered", 1)
		site := e.login("site")
		for _, r := range e.stat(site, "expert-consultation", march()).Tables[0].Rows {
			if r.Key != "total" && r.Key != fmt.Sprint(s.e1) && r.Key != fmt.Sprint(s.e2) {
				t.Errorf("site sees expert %s", r.Key)
			}
		}
		var opts struct {
			Data statistics.Options `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/statistical/options", site, nil), 200), &opts)
		if len(opts.Data.Hospitals) != 1 || opts.Data.Hospitals[0].ID != s.h1 {
			t.Errorf("site's hospital choices %+v", opts.Data.Hospitals)
		}
		e.decode(e.expect(e.do("GET", "/api/statistical/options", e.login("qc_expert"), nil), 200), &opts)
		for _, h := range opts.Data.Hospitals {
			if h.ID == s.h3 {
				t.Errorf("qc_expert may choose another center's hospital")
			}
		}
		q := march()
		q.Set("hospital_id", fmt.Sprint(s.h2))
		if r := e.do("GET", "/api/statistical/consultation?"+q.Encode(), site, nil); !fieldRefusedIn(e, r, "zh-CN", "hospital_id") {
			t.Errorf("site filters another hospital: %d %s", r.Status, r)
		}
		q.Set("hospital_id", fmt.Sprint(s.h3))
		if r := e.do("GET", "/api/statistical/consultation?"+q.Encode(), e.login("allocator"), nil); r.Status != 422 {
			t.Errorf("allocator filters another center's hospital: %d", r.Status)
		}
		q.Set("hospital_id", fmt.Sprint(s.h2))
		wantCard(t, e.stat(e.login("admin"), "consultation", q), "registered", 1)
	})
}

// Bad input is a localized 422 in both languages; nothing is computed.
func TestStatisticsValidation(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		cases := []struct {
			query, field string
		}{
			{"start=2026-03-10&end=2026-03-01", "end"},
			{"start=2020-01-01&end=2026-03-01", "end"},
			{"start=2026-13-01&end=2026-03-01", "start"},
			{"start=2026-03-01&end=2026-03-02&kind=bone", "kind"},
			{"start=2026-03-01&end=2026-03-02&granularity=hour", "granularity"},
			{"start=2026-03-01&end=2026-03-02&center_id=999999", "center_id"},
			{"start=2026-03-01&end=2026-03-02&expert_id=1", "expert_id"},
			{"start=2026-03-01&end=2026-03-02&library_id=999999", "library_id"},
		}
		for _, c := range cases {
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.do("GET", "/api/statistical/consultation?"+c.query, admin, nil, "user-language", lang)
				if !fieldRefusedIn(e, r, lang, c.field) {
					t.Errorf("%s (%s): %d %s", c.query, lang, r.Status, r)
				}
			}
		}
		// A range of exactly five years is allowed.
		e.expect(e.do("GET", "/api/statistical/consultation?start=2021-03-01&end=2026-03-01", admin, nil), 200)
	})
}

// The QC targets: defaults, validated batch writes, the HE screen follows them.
func TestQCTargets(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		var list struct {
			Data []statistics.QCTarget `json:"data"`
		}
		e.decode(e.expect(e.do("GET", "/api/config/qc?type=he", e.login("qc_expert"), nil), 200), &list)
		if len(list.Data) != 1 || list.Data[0].QCValue != 90 || list.Data[0].GoalValue != 95 || list.Data[0].ID != 0 {
			t.Fatalf("defaults %+v", list.Data)
		}
		for _, bad := range []map[string]any{
			{"rate_key": "he_excellent", "qc_value": 96, "goal_value": 95},
			{"rate_key": "he_excellent", "qc_value": -1, "goal_value": 95},
			{"rate_key": "he_excellent", "qc_value": 90, "goal_value": 101},
			{"rate_key": "nope", "qc_value": 90, "goal_value": 95},
		} {
			for _, lang := range []string{"zh-CN", "en-US"} {
				r := e.do("POST", "/api/config/qc/store_many", admin, map[string]any{"items": []any{bad}}, "user-language", lang)
				if r.Status != 422 || message(r) == "" {
					t.Errorf("%v: %d %s", bad, r.Status, r)
				}
			}
		}
		e.expect(e.do("POST", "/api/config/qc/store_many", admin, map[string]any{"items": []any{
			map[string]any{"rate_key": "he_excellent", "qc_value": 80, "goal_value": 85}}}), 200)
		e.decode(e.expect(e.do("GET", "/api/config/qc?type=he", admin, nil), 200), &list)
		if list.Data[0].ID == 0 || list.Data[0].QCValue != 80 {
			t.Fatalf("stored %+v", list.Data)
		}
		e.expect(e.do("PATCH", "/api/config/qc/update_many", admin, map[string]any{"items": []any{
			map[string]any{"id": list.Data[0].ID, "qc_value": 88, "goal_value": 92}}}), 200)
		h := e.stat(admin, "he", march())
		wantCard(t, h, "qc_value", 88)
		wantCard(t, h, "goal_value", 92)
		e.expect(e.do("PATCH", "/api/config/qc/update_many", admin, map[string]any{"items": []any{
			map[string]any{"id": 999999, "qc_value": 88, "goal_value": 92}}}), 422)
		e.expect(e.do("POST", "/api/config/qc/store_many", e.login("qc_expert"), map[string]any{"items": []any{}}), 403)
	})
}

// The wall view answers only when the system configuration turns it on.
func TestBigScreen(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		admin := e.login("admin")
		e.expect(e.do("GET", "/api/statistical/big-screen", admin, nil), 404)
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"big_screen": true})), 200)
		r := e.stat(admin, "big-screen", nil)
		wantCard(t, r, "registered", 0)
		card(t, r, "frozen_reported")
	})
}

// exportGrid is the sheets an export must hold for report r in lang: the
// summary (screen, period, every card with its unit, the notes), then one
// sheet per table with its head and every row, cell by cell.
func exportGrid(lang i18n.Lang, screen string, r statistics.Stats) [][][]string {
	t := func(key string) string { return i18n.T(lang, key, nil) }
	val := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	summary := [][]string{
		{t("statistics.sheet.screen"), t("statistics.screen." + screen)},
		{t("statistics.sheet.period"), r.Start + " – " + r.End + " (" + r.Zone + ")"},
		{},
	}
	for _, c := range r.Cards {
		summary = append(summary, []string{c.Label, val(c.Value), t("statistics.unit." + c.Unit)})
	}
	for _, n := range r.Notes {
		summary = append(summary, []string{}, []string{n})
	}
	sheets := [][][]string{summary}
	for _, tab := range r.Tables {
		head := []string{tab.Head}
		for _, c := range tab.Columns {
			head = append(head, c.Label+" ("+t("statistics.unit."+c.Unit)+")")
		}
		rows := [][]string{head}
		for _, row := range tab.Rows {
			line := []string{row.Label}
			for _, v := range row.Values {
				line = append(line, val(v))
			}
			rows = append(rows, line)
		}
		sheets = append(sheets, rows)
	}
	return sheets
}

// trimRow drops a row's trailing empty cells (a sheet does not hold them).
func trimRow(row []string) []string {
	for len(row) > 0 && row[len(row)-1] == "" {
		row = row[:len(row)-1]
	}
	return row
}

// sameCell compares a sheet's raw cell with the screen's text: numbers by
// value, anything else as text.
func sameCell(got, want string) bool {
	if got == want {
		return true
	}
	a, err1 := strconv.ParseFloat(got, 64)
	b, err2 := strconv.ParseFloat(want, 64)
	return err1 == nil && err2 == nil && a == b
}

// Every cell of every sheet of each screen's export is what the screen's
// API answers for the same period and filters, in both languages, on both
// databases.
func TestStatisticsExport(t *testing.T) {
	eachDB(t, nil, func(t *testing.T, e *env) {
		s := seedStatistics(t, e)
		admin := e.login("admin")
		e.expect(e.do("PUT", "/api/config/setting", admin, systemInput(map[string]any{"big_screen": true})), 200)
		withFilters := march()
		withFilters.Set("hospital_id", fmt.Sprint(s.h1))
		withFilters.Set("kind", "routine")
		cells := 0
		for _, screen := range []string{"consultation", "bank", "expert", "expert-consultation", "quality", "he", "outside", "diagnosis", "big-screen"} {
			for _, q := range []url.Values{march(), withFilters} {
				for _, lang := range []string{"zh-CN", "en-US"} {
					var api statReport
					e.decode(e.expect(e.do("GET", "/api/statistical/"+screen+"?"+q.Encode(), admin, nil, "user-language", lang), 200), &api)
					want := exportGrid(i18n.Parse(lang), screen, api.Data)
					res := e.expect(e.do("GET", "/api/statistical/"+screen+"/export?"+q.Encode(), admin, nil, "user-language", lang), 200)
					f, err := excelize.OpenReader(bytes.NewReader(res.Body))
					if err != nil {
						t.Fatal(err)
					}
					names := f.GetSheetList()
					if len(names) != len(want) {
						t.Fatalf("%s %s %v: %d sheets, want %d (%v)", screen, lang, q, len(names), len(want), names)
					}
					for i, name := range names {
						if i > 0 && !strings.HasPrefix(name, fmt.Sprintf("%d ", i)) {
							t.Errorf("%s %s: sheet %d is %q, for table %q", screen, lang, i, name, api.Data.Tables[i-1].Title)
						}
						got, err := f.GetRows(name, excelize.Options{RawCellValue: true})
						if err != nil {
							t.Fatal(err)
						}
						if len(got) != len(want[i]) {
							t.Errorf("%s %s %v sheet %q: %d rows, want %d:\n%q\n%q", screen, lang, q, name, len(got), len(want[i]), got, want[i])
							continue
						}
						for r := range want[i] {
							g, w := trimRow(got[r]), trimRow(want[i][r])
							if len(g) != len(w) {
								t.Errorf("%s %s %v sheet %q row %d: %q, want %q", screen, lang, q, name, r+1, g, w)
								continue
							}
							for c := range w {
								if !sameCell(g[c], w[c]) {
									t.Errorf("%s %s %v sheet %q cell %d,%d: %q, want %q", screen, lang, q, name, r+1, c+1, g[c], w[c])
								}
								cells++
							}
						}
					}
					f.Close()
				}
			}
		}
		if cells < 500 {
			t.Errorf("compared only %d cells", cells)
		}
	})
}
