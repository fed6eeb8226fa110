// Package benchdata fills a database with a large, realistic case load for
// the list benchmarks: cases over years, hospitals, experts and users with a
// mostly-published status mix. It is a tool (telepath bench-data), not a
// test; it expects the demo organisations and users to exist (app.New with
// TELEPATH_DEMO=1 seeds them) and adds to them.
package benchdata

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"telepath/internal/platform/db"
)

// Options sizes the load.
type Options struct {
	Cases, Users, Hospitals, Experts int
	Years                            int
	Now                              time.Time
	// Triggers loads with the triggers on, each row counted into the
	// tallies, rollups and search as the server would: ten times slower,
	// the reference the fast load is tested against. Off (the default),
	// the triggers do not run during the load and everything they keep is
	// counted again from the rows at the end (see rebuild).
	Triggers bool
}

// Defaults is the size of a center that has run for a few years.
func Defaults(now time.Time) Options {
	return Options{Cases: 1_000_000, Users: 100_000, Hospitals: 50, Experts: 40, Years: 3, Now: now}
}

const batchRows = 500

func insertAll(ctx context.Context, tx *db.Tx, table string, cols []string, n int, row func(i int) []any) error {
	ph := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	for b := 0; b < n; b += batchRows {
		end := min(b+batchRows, n)
		var sb strings.Builder
		sb.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
		args := make([]any, 0, (end-b)*len(cols))
		for i := b; i < end; i++ {
			if i > b {
				sb.WriteString(", ")
			}
			sb.WriteString(ph)
			args = append(args, row(i)...)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(sb.String()), args...); err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
	}
	return nil
}

var (
	surnames = []rune("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
	given    = []rune("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建国志文斌辉海波宁鹏飞云峰晨雪梅琳婷欣怡浩宇子涵若曦思远佳豪")
	places   = []string{"明州", "临江", "青山", "东湖", "西岭", "南港", "北川", "云台", "金沙", "石门", "长宁", "安平", "清河", "永和", "新安", "凤城", "龙泉", "玉溪", "白石", "兰亭"}
	kinds    = []string{"市第一人民医院", "县人民医院", "中心医院", "妇幼保健院", "中医院", "肿瘤医院", "第二人民医院", "人民医院"}
)

// analyzeLoaded gives SQLite's planner the loaded tables' sizes before the
// rebuilds read them: its statistics are still those the migrations took of
// an empty database, with which it planned the rollups' join of a million
// cases to 1.5M activity rows as a nested scan (more than 40 minutes, never
// finishing). PostgreSQL estimates from the tables' current size itself.
func analyzeLoaded(ctx context.Context, tx *db.Tx, log *slog.Logger) error {
	if tx.Dialect != db.SQLite {
		return nil
	}
	t0 := time.Now()
	if _, err := tx.ExecContext(ctx, "ANALYZE"); err != nil {
		return err
	}
	log.Info("analyzed before the rebuilds", "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

func personName(r *rand.Rand) string {
	n := string(surnames[r.IntN(len(surnames))]) + string(given[r.IntN(len(given))])
	if r.IntN(3) > 0 {
		n += string(given[r.IntN(len(given))])
	}
	return n
}

// Load adds the hospitals, experts, users and cases, in one transaction:
// a load that fails leaves the database as it was.
func Load(ctx context.Context, d *db.DB, o Options, log *slog.Logger) error {
	t0 := time.Now()
	err := d.InTx(ctx, func(tx *db.Tx) error {
		if o.Triggers {
			return load(ctx, tx, o, log)
		}
		restore, err := triggersOff(ctx, tx)
		if err != nil {
			return err
		}
		if err := load(ctx, tx, o, log); err != nil {
			return err
		}
		if err := restore(); err != nil {
			return err
		}
		if err := analyzeLoaded(ctx, tx, log); err != nil {
			return err
		}
		return rebuild(ctx, tx, log)
	})
	if err != nil {
		return err
	}
	// PostgreSQL also marks the pages all-visible (what autovacuum does in
	// time on a live database), so that index-only scans need not visit the
	// rows: the statistics and lists are measured as they run there.
	analyze := "ANALYZE"
	if d.Dialect == db.Postgres {
		analyze = "VACUUM (ANALYZE)"
	}
	t1 := time.Now()
	if _, err := d.ExecContext(ctx, analyze); err != nil {
		return err
	}
	log.Info("analyzed", "how", analyze, "took", time.Since(t1).Round(time.Millisecond))
	log.Info("bench data loaded", "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

func load(ctx context.Context, d *db.Tx, o Options, log *slog.Logger) error {
	t0 := time.Now()
	var center, library, owner, siteHospital int64
	for q, dest := range map[string]*int64{
		"SELECT id FROM centers WHERE code = 'EC'":     &center,
		"SELECT MIN(id) FROM libraries":                &library,
		"SELECT id FROM users WHERE username = 'site'": &owner,
		"SELECT id FROM hospitals WHERE code = 'H001'": &siteHospital,
	} {
		if err := d.GetContext(ctx, dest, q); err != nil {
			return fmt.Errorf("demo data missing (%s): %w", q, err)
		}
	}
	now := o.Now.UTC().Truncate(time.Second)
	r := rand.New(rand.NewPCG(17, 1))

	// Hospitals: the demo's, then more up to o.Hospitals, all sending to the center.
	var hospitals []int64
	if err := d.SelectContext(ctx, &hospitals, "SELECT id FROM hospitals ORDER BY id"); err != nil {
		return err
	}
	for i := len(hospitals); i < o.Hospitals; i++ {
		name := places[i%len(places)] + kinds[i%len(kinds)] + fmt.Sprintf("%d", i)
		var id int64
		q := d.Rebind(`INSERT INTO hospitals (name, abbreviation, code, site_info, created_at, updated_at) VALUES (?, ?, ?, '{}', ?, ?) RETURNING id`)
		if err := d.GetContext(ctx, &id, q, name, name[:6], fmt.Sprintf("HB%03d", i), now, now); err != nil {
			return err
		}
		if _, err := d.ExecContext(ctx, d.Rebind("INSERT INTO hospital_centers (hospital_id, center_id) VALUES (?, ?)"), id, center); err != nil {
			return err
		}
		hospitals = append(hospitals, id)
	}

	// Users: experts first (members of the center), then site users of the hospitals.
	var pwHash string
	if err := d.GetContext(ctx, &pwHash, "SELECT password_hash FROM users WHERE username = 'site'"); err != nil {
		return err
	}
	var firstUser int64
	d.GetContext(ctx, &firstUser, "SELECT COALESCE(MAX(id), 0) + 1 FROM users")
	err := insertAll(ctx, d, "users", []string{"username", "name", "password_hash", "phone", "email", "work_no", "status", "created_at", "updated_at"}, o.Users,
		func(i int) []any {
			st := 1
			if i%10 == 9 {
				st = 0
			}
			return []any{fmt.Sprintf("bench%06d", i), personName(r), pwHash, fmt.Sprintf("139%08d", i), fmt.Sprintf("b%d@example.org", i),
				fmt.Sprintf("B%06d", i), st, now.Add(-time.Duration(o.Users-i) * 15 * time.Minute), now}
		})
	if err != nil {
		return err
	}
	nExperts := max(o.Experts-2, 0)
	stmts := []string{
		fmt.Sprintf(`INSERT INTO user_roles (user_id, role, config) SELECT id, CASE WHEN id < %d THEN 'expert' ELSE 'site' END, '{}' FROM users WHERE username LIKE 'bench%%'`, firstUser+int64(nExperts)),
		fmt.Sprintf(`INSERT INTO user_centers (user_id, center_id) SELECT id, %d FROM users WHERE username LIKE 'bench%%' AND id < %d`, center, firstUser+int64(nExperts)),
	}
	for _, s := range stmts {
		if _, err := d.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	// Each site user belongs to one hospital.
	err = insertAll(ctx, d, "user_hospitals", []string{"user_id", "hospital_id"}, o.Users-nExperts, func(i int) []any {
		return []any{firstUser + int64(nExperts+i), hospitals[i%len(hospitals)]}
	})
	if err != nil {
		return err
	}
	var experts []int64
	if err := d.SelectContext(ctx, &experts, "SELECT user_id FROM user_roles WHERE role = 'expert' ORDER BY user_id"); err != nil {
		return err
	}
	log.Info("users loaded", "users", o.Users, "experts", len(experts), "took", time.Since(t0).Round(time.Millisecond))

	// Cases, oldest first, evenly over the years; the demo hospital H001 (the
	// "site" user's) gets its fair share like any other.
	span := time.Duration(o.Years) * 365 * 24 * time.Hour
	cols := []string{"consult_no", "hospital_id", "center_id", "user_id", "library_id", "status", "is_draft", "is_recall", "is_return", "is_lock",
		"expert_id", "reviewer_id", "charge_status", "slide_count", "expedite", "submitted_at", "assigned_at", "timeout_at", "remind_at", "published_at",
		"release_at", "print_deliver_status", "pathology_number", "patient_name", "gender", "age", "inspection_date", "case_data", "created_at", "updated_at"}
	t1 := time.Now()
	err = insertAll(ctx, d, "consultations", cols, o.Cases, func(i int) []any {
		created := now.Add(-span + time.Duration(int64(span)/int64(o.Cases)*int64(i)))
		age := now.Sub(created)
		h := hospitals[r.IntN(len(hospitals))]
		status, draft, recall, ret, lock, charge, print := 4, 0, 0, 0, 0, 2, 3
		var expert, reviewer any
		var submitted, assigned, timeout, remind, published, release any
		x := r.IntN(1000)
		recent := age < 30*24*time.Hour
		switch {
		case !recent || x < 700:
			status = 4
		case x < 780:
			status, draft, charge, print = 0, r.IntN(2), 1, 0
		case x < 830:
			status, print = 1, 0 // to allot
		case x < 930:
			status, lock, print = 1, r.IntN(2), 0 // assigned
		default:
			status, print = 2, 0
		}
		if !recent && r.IntN(200) == 0 { // an old case still open, recalled or returned
			status, print = 0, 0
			if r.IntN(2) == 0 {
				recall = 2
			} else {
				ret = -1
			}
		}
		if status == 4 && recent {
			print = 1 + r.IntN(3)
		}
		sub := created.Add(time.Duration(10+r.IntN(120)) * time.Minute)
		if status > 0 {
			submitted = sub
			timeout = sub.Add(72 * time.Hour)
			remind = sub.Add(48 * time.Hour)
		}
		if status == 2 || status == 4 || (status == 1 && x >= 830) {
			e := experts[r.IntN(len(experts))]
			expert, assigned = e, sub.Add(time.Hour)
			if status == 2 {
				reviewer = experts[r.IntN(len(experts))]
			}
		}
		if status == 4 {
			p := sub.Add(time.Duration(24+r.IntN(72)) * time.Hour)
			published, release = p, p.Add(3*time.Hour)
			timeout, remind = nil, nil
		}
		id := fmt.Sprintf("3302%02d%04d%02d%02d%04d", r.IntN(100), 1940+r.IntN(80), 1+r.IntN(12), 1+r.IntN(28), r.IntN(10000))
		return []any{fmt.Sprintf("TP%s%07d", created.Format("0601"), i), h, center, owner, library, status, draft, recall, ret, lock,
			expert, reviewer, charge, 1 + r.IntN(6), b2i(r.IntN(10) == 0), submitted, assigned, timeout, remind, published,
			release, print, fmt.Sprintf("BL%s-%06d", created.Format("2006"), i%1_000_000), personName(r), []string{"male", "female"}[r.IntN(2)],
			1 + r.IntN(90), created.Truncate(24 * time.Hour), `{"id_number":"` + id + `"}`, created, created.Add(time.Hour)}
	})
	if err != nil {
		return err
	}
	log.Info("cases loaded", "cases", o.Cases, "took", time.Since(t1).Round(time.Millisecond))
	// The diagnosis of every case an expert has reported on.
	t2 := time.Now()
	if _, err := d.ExecContext(ctx, d.Rebind(`INSERT INTO diagnoses (consult_id, type, version, status, opinion, doctor_id, reviewer_id, published_at, release_at, created_at, updated_at)
		SELECT id, 0, 1, CASE WHEN status = 4 THEN 'published' ELSE 'to_review' END, '慢性炎症', expert_id, reviewer_id, published_at, release_at, created_at, updated_at
		FROM consultations WHERE status IN (2, 4) AND expert_id IS NOT NULL AND id NOT IN (SELECT consult_id FROM diagnoses)`)); err != nil {
		return err
	}
	log.Info("diagnoses loaded", "took", time.Since(t2).Round(time.Millisecond))
	if err := loadActivity(ctx, d, owner, log); err != nil {
		return err
	}
	// The reminders and report notices of the past were sent at the time: a
	// live server would not catch up on them all at its first start.
	for _, k := range []struct{ kind, col, where string }{{"release", "release_at", "status = 4"}, {"remind", "remind_at", "status IN (1, 2)"}, {"due", "timeout_at", "status IN (1, 2)"}} {
		if _, err := d.ExecContext(ctx, d.Rebind(`INSERT INTO timeout_notices (consult_id, kind, due_at, sent_at) SELECT id, ?, `+k.col+`, `+k.col+
			` FROM consultations WHERE `+k.col+` IS NOT NULL AND `+k.where+` AND `+k.col+` > ? ON CONFLICT DO NOTHING`), k.kind, now.Add(-7*24*time.Hour)); err != nil {
			return err
		}
	}
	log.Info("rows loaded", "took", time.Since(t0).Round(time.Millisecond))
	_ = siteHospital
	return nil
}

// activity is what happens around the cases that the statistics count, in
// the proportions of a busy center, dated at the cases' own instants: the
// log (returns, recalls, reviews, referrals, counter-audits, amendments),
// one charge per submitted case (1% refunded), invitations, special exams,
// slide quality judgements and frozen sections with their paraffin
// concordance. One INSERT … SELECT each, so the load stays fast.
var activity = []struct{ name, sql string }{
	{"log", `INSERT INTO case_logs (consult_id, user_id, role, action, detail, created_at)
		SELECT id, expert_id, 'expert', 'review_approve', '', published_at FROM consultations WHERE status = 4 AND id % 10 = 0
		UNION ALL SELECT id, expert_id, 'expert', 'reviewreturn', '', assigned_at FROM consultations WHERE status = 4 AND id % 100 = 1
		UNION ALL SELECT id, expert_id, 'expert', 'expert_return', '', assigned_at FROM consultations WHERE status = 4 AND id % 20 = 2
		UNION ALL SELECT id, expert_id, 'expert', 'expert_referral', '', assigned_at FROM consultations WHERE status = 4 AND id % 40 = 3
		UNION ALL SELECT id, NULL, 'allocator', 'recall_agree', '', submitted_at FROM consultations WHERE submitted_at IS NOT NULL AND id % 50 = 4
		UNION ALL SELECT id, expert_id, 'expert', 'counter_audit', '', published_at FROM consultations WHERE status = 4 AND id % 30 = 5
		UNION ALL SELECT id, expert_id, 'expert', 'diagnosis_amend', CASE WHEN id % 3 = 0 THEN '补充免疫组化结果' ELSE '修正部位描述' END, release_at
			FROM consultations WHERE status = 4 AND id % 60 = 6`},
	{"charges", `INSERT INTO charges (consult_id, order_no, total_fen, status, charged_at, refunded_at, created_at)
		SELECT id, 'BO' || id, 20000 + (id % 5) * 5000, CASE WHEN id % 100 = 7 THEN 3 ELSE 2 END, submitted_at,
			CASE WHEN id % 100 = 7 THEN COALESCE(published_at, submitted_at) END, submitted_at
		FROM consultations WHERE submitted_at IS NOT NULL`},
	{"invitations", `INSERT INTO invitations (consult_id, inviter_id, invitee_id, message, reply, status, created_at, replied_at)
		SELECT c.id, c.expert_id, COALESCE((SELECT MIN(user_id) FROM user_roles WHERE role = 'expert' AND user_id > c.expert_id), (SELECT MIN(user_id) FROM user_roles WHERE role = 'expert')),
			'请会诊', '同意', 1, c.assigned_at, c.published_at
		FROM consultations c WHERE c.status = 4 AND c.id % 25 = 8`},
	{"advices", `INSERT INTO advices (consult_id, kind, item, status, created_by, created_at, result, done_by, done_at, updated_at)
		SELECT id, 'ihc', 'Ki-67', 'done', expert_id, assigned_at, '阳性', expert_id, published_at, published_at
		FROM consultations WHERE status = 4 AND id % 15 = 9`},
	{"slides", `INSERT INTO slides (consult_id, owner_id, hospital_id, filename, status, viewable, created_at, updated_at)
		SELECT id, user_id, hospital_id, 'bench-' || id || '.svs', 1, 1, created_at, created_at
		FROM consultations WHERE status = 4 AND id % 5 = 0`},
	{"judgements", `INSERT INTO slide_judgements (consult_id, slide_id, grade, reason, judged_by, created_at, updated_at)
		SELECT s.consult_id, s.id, CASE WHEN s.id % 20 = 0 THEN 'D' WHEN s.id % 7 = 0 THEN 'C' WHEN s.id % 3 = 0 THEN 'B' ELSE 'A' END,
			CASE WHEN s.id % 20 = 0 THEN CASE WHEN s.id % 40 = 0 THEN '切片过厚' ELSE '染色不均' END ELSE '' END, c.expert_id, c.assigned_at, c.assigned_at
		FROM slides s JOIN consultations c ON c.id = s.consult_id WHERE s.filename LIKE 'bench-%' AND c.expert_id IS NOT NULL`},
	{"frozen", `INSERT INTO frozen_appointments (center_id, hospital_id, user_id, status, patient_name, operation_at, consultation_id, expert_id,
			arrived_at, assigned_at, reported_at, paraffin_case_id, concordance, concordance_by, concordance_at, created_at, updated_at)
		SELECT center_id, hospital_id, ?, 100, patient_name, created_at, id, expert_id, created_at, created_at, submitted_at,
			id, CASE WHEN id % 50 = 10 THEN 'discordant' WHEN id % 50 = 11 THEN 'deferred' ELSE 'concordant' END, expert_id, published_at, created_at, updated_at
		FROM consultations WHERE status = 4 AND id % 30 = 10`},
}

func loadActivity(ctx context.Context, d *db.Tx, owner int64, log *slog.Logger) error {
	for _, a := range activity {
		t0 := time.Now()
		var args []any
		if a.name == "frozen" {
			args = append(args, owner)
		}
		res, err := d.ExecContext(ctx, d.Rebind(a.sql), args...)
		if err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		n, _ := res.RowsAffected()
		log.Info("activity loaded", "kind", a.name, "rows", n, "took", time.Since(t0).Round(time.Millisecond))
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
