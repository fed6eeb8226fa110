package demo

import (
	"context"
	"fmt"
	"time"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// SlideMaker adds an uploaded slide of a hospital and returns its id.
type SlideMaker func(ctx context.Context, hospitalID, ownerID int64, name string) (int64, error)

type patient struct {
	name, gender, birth, specimen, part, diagnosis string
}

var patients = []patient{
	{"王芳", "female", "1979-03-12", "胃窦活检", "胃窦", "胃窦溃疡，待排恶性"},
	{"李建国", "male", "1958-07-30", "结肠息肉", "乙状结肠", "结肠多发息肉"},
	{"张丽华", "female", "1985-11-02", "乳腺肿物", "左乳外上象限", "左乳肿物，BI-RADS 4b"},
	{"陈志强", "male", "1966-01-19", "肺穿刺组织", "右肺上叶", "右肺占位，性质待定"},
	{"刘敏", "female", "1990-05-25", "甲状腺结节", "甲状腺右叶", "甲状腺结节，TI-RADS 4a"},
	{"赵伟", "male", "1972-09-08", "前列腺穿刺", "前列腺", "PSA 升高"},
	{"孙秀英", "female", "1950-12-16", "宫颈活检", "宫颈 3 点", "宫颈上皮内病变？"},
	{"周磊", "male", "1981-04-04", "淋巴结", "左颈部", "颈部淋巴结肿大"},
	{"吴静", "female", "1995-08-21", "卵巢肿物", "右侧卵巢", "盆腔包块"},
	{"郑海", "male", "1963-02-27", "胃体活检", "胃体小弯", "萎缩性胃炎伴肠化"},
}

// step names what happens to a demo case after registration.
type step string

const (
	stepDraft    step = "draft"
	stepRegister step = "register"
	stepCharge   step = "charge"
	stepSubmit   step = "submit"
	stepAssign   step = "assign"
	stepTimeout  step = "timeout"
	stepRecall   step = "recall"
	stepRecalled step = "recalled"
	stepReturned step = "returned"
)

var plan = []step{stepDraft, stepRegister, stepCharge, stepSubmit, stepSubmit, stepAssign, stepTimeout, stepRecall, stepRecalled, stepReturned}

// SeedCases registers demo cases in every status the workflow reaches, for
// both demo hospitals, through the consultation service and its rules.
func SeedCases(ctx context.Context, d *db.DB, svc *consultation.Service, makeSlide SlideMaker, clk clock.Clock) error {
	var n int
	if err := d.Get(&n, "SELECT COUNT(*) FROM consultations"); err != nil || n > 0 {
		return err
	}
	alloc, err := principal(ctx, d, "allocator")
	if err != nil {
		return err
	}
	admin, err := principal(ctx, d, "admin")
	if err != nil {
		return err
	}
	var lib, center, item, expert, expert2 int64
	for dst, q := range map[*int64]string{
		&lib:     "SELECT id FROM libraries WHERE prefix = 'BL' AND parent_id IS NULL",
		&center:  "SELECT id FROM centers WHERE code = 'EC'",
		&item:    "SELECT MIN(id) FROM charge_items",
		&expert:  "SELECT id FROM users WHERE username = 'expert'",
		&expert2: "SELECT id FROM users WHERE username = 'expert2'",
	} {
		if err := d.Get(dst, q); err != nil {
			return fmt.Errorf("demo cases: %s: %w", q, err)
		}
	}
	seq := 0
	for _, siteUser := range []string{"site", "site2"} {
		site, err := principal(ctx, d, siteUser)
		if err != nil {
			return err
		}
		sctx := access.WithPrincipal(ctx, site)
		var hospitalName string
		if err := d.GetContext(ctx, &hospitalName, d.Rebind("SELECT name FROM hospitals WHERE id = ?"), site.HospitalIDs[0]); err != nil {
			return err
		}
		for i, st := range plan {
			seq++
			p := patients[(seq-1)%len(patients)]
			in := demoCase(p, seq, lib, center, clk.Local(clk.Now()))
			in.InspectionHospital = hospitalName
			if i%4 == 1 {
				in.Expedite = true
			}
			slide, err := makeSlide(ctx, site.HospitalIDs[0], site.UserID, fmt.Sprintf("%s-HE-%d.svs", in.PathologyNumber, 1))
			if err != nil {
				return err
			}
			in.SlideIDs = []int64{slide}
			c, err := svc.Save(sctx, 0, in, st == stepDraft)
			if err != nil {
				return fmt.Errorf("demo case %d: %w", seq, err)
			}
			if err := advance(ctx, d, clk.Now(), svc, sctx, access.WithPrincipal(ctx, alloc), access.WithPrincipal(ctx, admin), c.ID, st, item, []int64{expert, expert2}[seq%2]); err != nil {
				return fmt.Errorf("demo case %d (%s): %w", seq, st, err)
			}
		}
	}
	return nil
}

func advance(ctx context.Context, d *db.DB, now time.Time, svc *consultation.Service, site, alloc, admin context.Context, id int64, st step, item, expert int64) error {
	if st == stepDraft || st == stepRegister {
		return nil
	}
	if err := svc.Charge(site, id, []consultation.ChargeLineInput{{ItemID: item, Quantity: 1}}); err != nil {
		return err
	}
	if st == stepCharge {
		return nil
	}
	if err := svc.Submit(site, id); err != nil {
		return err
	}
	switch st {
	case stepAssign, stepTimeout:
		if err := svc.BindExpert(alloc, id, expert); err != nil {
			return err
		}
		if st == stepAssign {
			// An urgent case whose deadline is near: past its reminder time.
			_, err := d.Exec(d.Rebind("UPDATE consultations SET assigned_at = ?, timeout_at = ?, remind_at = ? WHERE id = ?"),
				now.Add(-19*time.Hour), now.Add(5*time.Hour), now.Add(-time.Hour), id)
			return err
		}
		if st == stepTimeout {
			// A case assigned four days ago, now past its 72-hour limit.
			past := now.Add(-96 * time.Hour)
			_, err := d.Exec(d.Rebind("UPDATE consultations SET assigned_at = ?, timeout_at = ?, remind_at = ? WHERE id = ?"),
				past, past.Add(72*time.Hour), past.Add(48*time.Hour), id)
			return err
		}
	case stepRecall, stepRecalled:
		if err := svc.Recall(site, id, "临床资料填写有误，需要修改后重新提交"); err != nil {
			return err
		}
		if st == stepRecalled {
			return svc.RecallDecision(admin, id, "agree", "")
		}
	case stepReturned:
		return svc.ReturnToSite(alloc, id, "切片不清晰，请重新扫描后再提交")
	}
	return nil
}

func demoCase(p patient, seq int, lib, center int64, today time.Time) consultation.CaseInput {
	birth, _ := time.Parse("2006-01-02", p.birth)
	age := today.Year() - birth.Year()
	l, c := lib, center
	return consultation.CaseInput{
		PathologyNumber: fmt.Sprintf("BL%d-%05d", today.Year(), seq), OriginalPathologyNumber: fmt.Sprintf("Y%d-%04d", today.Year(), 300+seq),
		LibraryID: &l, Name: p.name, Age: fmt.Sprint(age), AgeUnit: "year", Gender: p.gender, Birthday: p.birth,
		IDType: "id_card", IDNumber: IDNumber("330203", birth, seq, p.gender == "male"), Phone: fmt.Sprintf("1390574%04d", 1000+seq),
		InspectionHospital: "", InspectionDepartment: "普外科", InspectionDoctor: "何医生",
		InspectionDate: today.AddDate(0, 0, -seq%7).Format("2006-01-02"), TreatType: "hospital", FeeType: "self_pay",
		ClinicalDiagnosis: p.diagnosis, MedicalHistory: "患者自述症状两月余，门诊检查后收治入院。", ConsultPurpose: "请协助明确诊断及分型。",
		CenterID: &c,
		Specimens: []consultation.SpecimenInput{{Name: p.specimen, Part: p.part, Fixative: "10% 中性福尔马林", Count: 1,
			Blocks: []consultation.BlockInput{{Name: "A1", GrossDescription: "灰白组织一块，大小约 0.8×0.6×0.3 cm。"}, {Name: "A2"}}}},
	}
}

// IDNumber builds a valid resident ID number (GB 11643) for demo patients.
func IDNumber(area string, birth time.Time, seq int, male bool) string {
	order := 100 + seq%400
	if male != (order%2 == 1) {
		order++
	}
	base := fmt.Sprintf("%s%s%03d", area, birth.Format("20060102"), order)
	weights := []int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	sum := 0
	for i, w := range weights {
		sum += int(base[i]-'0') * w
	}
	return base + string("10X98765432"[sum%11])
}

// principal loads a demo user as the signed-in principal of seed calls.
func principal(ctx context.Context, d *db.DB, username string) (*access.Principal, error) {
	p := &access.Principal{Username: username}
	if err := d.GetContext(ctx, &p.UserID, d.Rebind("SELECT id FROM users WHERE username = ?"), username); err != nil {
		return nil, fmt.Errorf("demo user %s: %w", username, err)
	}
	d.GetContext(ctx, &p.Name, d.Rebind("SELECT name FROM users WHERE id = ?"), p.UserID)
	if err := d.SelectContext(ctx, &p.Roles, d.Rebind("SELECT role FROM user_roles WHERE user_id = ?"), p.UserID); err != nil {
		return nil, err
	}
	if err := d.SelectContext(ctx, &p.CenterIDs, d.Rebind("SELECT center_id FROM user_centers WHERE user_id = ?"), p.UserID); err != nil {
		return nil, err
	}
	if err := d.SelectContext(ctx, &p.HospitalIDs, d.Rebind("SELECT hospital_id FROM user_hospitals WHERE user_id = ?"), p.UserID); err != nil {
		return nil, err
	}
	return p, nil
}
