package diagnosis

import (
	"context"
	"encoding/json"
	"time"

	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// SameCase is an earlier consultation of the same patient, with its
// published diagnosis (spec 2 §7 same_case).
type SameCase struct {
	ID              int64      `json:"id" db:"id"`
	ConsultNo       string     `json:"consult_no" db:"consult_no"`
	PathologyNumber string     `json:"pathology_number" db:"pathology_number"`
	HospitalName    string     `json:"hospital_name" db:"hospital_name"`
	SubmittedAt     *time.Time `json:"submitted_at" db:"submitted_at"`
	Opinion         string     `json:"opinion" db:"opinion" doc:"Diagnosis of the published report; empty while there is none"`
	ExpertName      string     `json:"expert_name" db:"expert_name"`
	PublishedAt     *time.Time `json:"published_at" db:"published_at"`
	CaseData        string     `json:"-" db:"case_data"`
}

// maxSameCases bounds the list; a patient with more consultations than
// this sees the most recent ones.
const maxSameCases = 20

// SameCases lists the other consultations of the case's patient at the same
// hospital and center: the same name, and the same ID number whenever both
// cases have one. Drafts and deleted cases are left out.
func (s *Service) SameCases(ctx context.Context, id int64) ([]SameCase, error) {
	c, err := s.deps.Cases.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	var mine struct {
		CaseData string `db:"case_data"`
	}
	if err := db.Get(ctx, s.db, &mine, s.db.Builder().Select("case_data").From("consultations").Where("id = ?", id)); err != nil {
		return nil, apperr.Wrap(err, "load case")
	}
	b := s.db.Builder().Select("c.id, c.consult_no, c.pathology_number, h.name AS hospital_name, c.submitted_at, c.case_data",
		"COALESCE(d.opinion, '') AS opinion, COALESCE(u.name, '') AS expert_name, d.published_at").
		From("consultations c").Join("hospitals h ON h.id = c.hospital_id").
		LeftJoin("diagnoses d ON d.consult_id = c.id AND d.type = 0 AND d.status = 'published' AND d.version = (SELECT MAX(x.version) FROM diagnoses x WHERE x.consult_id = c.id AND x.type = 0 AND x.status = 'published')").
		LeftJoin("users u ON u.id = d.doctor_id").
		Where("c.patient_name = ? AND c.hospital_id = ? AND c.id <> ? AND c.status > 0 AND c.deleted_at IS NULL", c.PatientName, c.HospitalID, id).
		OrderBy("c.id DESC").Limit(maxSameCases * 5)
	if c.CenterID != nil {
		b = b.Where("c.center_id = ?", *c.CenterID)
	}
	var rows []SameCase
	if err := db.Select(ctx, s.db, &rows, b); err != nil {
		return nil, apperr.Wrap(err, "load same cases")
	}
	want := idNumber(mine.CaseData)
	out := []SameCase{}
	for _, r := range rows {
		if other := idNumber(r.CaseData); want != "" && other != "" && other != want {
			continue
		}
		if out = append(out, r); len(out) == maxSameCases {
			break
		}
	}
	return out, nil
}

func idNumber(caseData string) string {
	var d struct {
		IDNumber string `json:"id_number"`
	}
	json.Unmarshal([]byte(caseData), &d)
	return d.IDNumber
}
