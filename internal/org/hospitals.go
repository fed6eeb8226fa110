package org

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"strings"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/audit"
	"telepath/internal/platform/access"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
	"telepath/internal/platform/listquery"
)

var hospitalList = &listquery.Resource{
	Columns: map[string]listquery.Column{
		"id":            {Expr: "h.id", Type: listquery.Int, Sort: true, Filter: true},
		"name":          {Expr: "h.name", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"abbreviation":  {Expr: "h.abbreviation", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"code":          {Expr: "h.code", Type: listquery.String, Sort: true, Filter: true, Search: true},
		"public_ip":     {Expr: "h.public_ip", Type: listquery.String, Filter: true},
		"address":       {Expr: "h.address", Type: listquery.String, Filter: true, Search: true},
		"contact":       {Expr: "h.contact", Type: listquery.String, Filter: true, Search: true},
		"storage_mode":  {Expr: "h.storage_mode", Type: listquery.Int, Sort: true, Filter: true},
		"expert_select": {Expr: "h.expert_select", Type: listquery.Int, Sort: true, Filter: true},
		"status":        {Expr: "h.status", Type: listquery.Int, Sort: true, Filter: true},
		"created_at":    {Expr: "h.created_at", Type: listquery.Time, Sort: true, Filter: true},
		"center_id": {Type: listquery.Int, Filter: true, Where: func(d db.Dialect, op listquery.Operator, values []any) (sq.Sqlizer, error) {
			return listquery.InSet(d, "h.id", "SELECT hc.hospital_id FROM hospital_centers hc", "hc.center_id", op, values)
		}},
	},
	DefaultSort: []string{"h.id ASC"},
	TieBreak:    "h.id ASC",
}

const hospitalColumns = `h.id, h.name, h.abbreviation, h.code, h.public_ip, h.port, h.address, h.phone, h.contact,
	h.storage_mode, h.expert_select, h.default_expert_id, h.site_info, h.status, h.created_at, h.updated_at`

func (s *Service) hospitalScope(ctx context.Context, b sq.SelectBuilder) (sq.SelectBuilder, error) {
	sc, err := s.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return b, err
	}
	b = b.Where("h.deleted_at IS NULL")
	if !sc.All {
		b = b.Where(sq.Eq{"h.id": nonNil(sc.HospitalIDs)})
	}
	return b, nil
}

// ListHospitals returns a page of the hospitals the caller may see.
func (s *Service) ListHospitals(ctx context.Context, req listquery.Request) ([]Hospital, listquery.Pagination, error) {
	q, err := hospitalList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	base, err := s.hospitalScope(ctx, s.db.Builder().Select(hospitalColumns).From("hospitals h"))
	if err != nil {
		return nil, listquery.Pagination{}, err
	}
	count, _ := s.hospitalScope(ctx, s.db.Builder().Select("COUNT(*)").From("hospitals h"))
	rows, page, err := listquery.Run[Hospital](ctx, s.db, q, base, count)
	if err != nil {
		return nil, page, err
	}
	return rows, page, s.attachCenters(ctx, s.db, rows)
}

// CountHospitals returns the tab counts of the hospital list.
func (s *Service) CountHospitals(ctx context.Context, req listquery.Request) (map[string]int64, error) {
	q, err := hospitalList.Parse(s.db.Dialect, req)
	if err != nil {
		return nil, err
	}
	base, err := s.hospitalScope(ctx, s.db.Builder().Select().From("hospitals h"))
	if err != nil {
		return nil, err
	}
	return listquery.Counts(ctx, s.db, q, base, map[string]sq.Sqlizer{"all": sq.Expr("1=1")})
}

func (s *Service) attachCenters(ctx context.Context, q db.Querier, hs []Hospital) error {
	if len(hs) == 0 {
		return nil
	}
	ids := make([]int64, len(hs))
	for i := range hs {
		ids[i] = hs[i].ID
		hs[i].decode()
		hs[i].CenterIDs, hs[i].Centers = []int64{}, []Ref{}
	}
	var rows []struct {
		HospitalID int64 `db:"hospital_id"`
		Ref
	}
	err := db.Select(ctx, q, &rows, s.db.Builder().Select("hc.hospital_id", "c.id", "c.name").From("hospital_centers hc").
		Join("centers c ON c.id = hc.center_id").Where(sq.Eq{"hc.hospital_id": ids}).OrderBy("c.id"))
	if err != nil {
		return apperr.Wrap(err, "hospital centers")
	}
	byID := map[int64]*Hospital{}
	for i := range hs {
		byID[hs[i].ID] = &hs[i]
	}
	for _, r := range rows {
		h := byID[r.HospitalID]
		h.CenterIDs = append(h.CenterIDs, r.ID)
		h.Centers = append(h.Centers, r.Ref)
	}
	return nil
}

// Hospital returns one hospital the caller may see.
func (s *Service) Hospital(ctx context.Context, id int64) (*Hospital, error) {
	return s.hospital(ctx, s.db, id)
}

func (s *Service) hospital(ctx context.Context, q db.Querier, id int64) (*Hospital, error) {
	b, err := s.hospitalScope(ctx, s.db.Builder().Select(hospitalColumns).From("hospitals h").Where("h.id = ?", id))
	if err != nil {
		return nil, err
	}
	var h Hospital
	if err := db.Get(ctx, q, &h, b); errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	} else if err != nil {
		return nil, apperr.Wrap(err, "load hospital")
	}
	hs := []Hospital{h}
	if err := s.attachCenters(ctx, q, hs); err != nil {
		return nil, err
	}
	return &hs[0], nil
}

// validateHospital applies spec 2 §5: name, abbreviation, public IP, port and
// number are required; at least one center is chosen.
func (s *Service) validateHospital(ctx context.Context, q db.Querier, sc Scope, id int64, in *HospitalInput, needCenters bool) error {
	in.Name, in.Abbreviation, in.Code = strings.TrimSpace(in.Name), strings.TrimSpace(in.Abbreviation), strings.TrimSpace(in.Code)
	in.PublicIP = strings.TrimSpace(in.PublicIP)
	var v apperr.Validation
	required := map[string]string{"name": in.Name, "abbreviation": in.Abbreviation, "code": in.Code, "public_ip": in.PublicIP}
	for _, f := range []string{"name", "abbreviation", "code", "public_ip"} {
		if required[f] == "" {
			v.Add(f, "field.required")
		}
	}
	if in.PublicIP != "" && net.ParseIP(in.PublicIP) == nil && !validHost(in.PublicIP) {
		v.Add("public_ip", "org.bad_ip")
	}
	if in.Port < 1 || in.Port > 65535 {
		v.Add("port", "org.bad_port")
	}
	if in.StorageMode < 0 || in.StorageMode > 2 {
		v.Add("storage_mode", "field.invalid")
	}
	for field, val := range map[string]string{"name": in.Name, "code": in.Code} {
		if val == "" || v.Has(field) {
			continue
		}
		var n int
		if err := db.Get(ctx, q, &n, s.db.Builder().Select("COUNT(*)").From("hospitals").
			Where(field+" = ? AND id <> ? AND deleted_at IS NULL", val, id)); err != nil {
			return apperr.Wrap(err, "check %s", field)
		}
		if n > 0 {
			v.Add(field, "org."+field+"_taken")
		}
	}
	if needCenters && len(in.CenterIDs) == 0 {
		v.Add("center_ids", "org.need_center")
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.CheckCenters(ctx, sc, "center_ids", in.CenterIDs)
}

func validHost(h string) bool {
	if len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return false
			}
		}
	}
	return true
}

func (in *HospitalInput) values(before *Hospital, now time.Time) map[string]any {
	info := DefaultSiteInfo()
	if before != nil {
		info = before.SiteInfo
	}
	if in.SiteInfo != nil {
		info = *in.SiteInfo
	}
	infoJSON, _ := json.Marshal(info)
	expertSelect, status := ExpertCanSelect, 1
	if before != nil {
		expertSelect, status = before.ExpertSelect, before.Status
	}
	return map[string]any{
		"name": in.Name, "abbreviation": in.Abbreviation, "code": in.Code, "public_ip": in.PublicIP, "port": in.Port,
		"address": in.Address, "phone": in.Phone, "contact": in.Contact, "storage_mode": in.StorageMode,
		"expert_select": statusOr(in.ExpertSelect, expertSelect), "default_expert_id": in.DefaultExpertID,
		"status": statusOr(in.Status, status), "site_info": string(infoJSON), "updated_at": now,
	}
}

// CreateHospital adds a hospital bound to centers within the caller's scope.
func (s *Service) CreateHospital(ctx context.Context, in HospitalInput) (*Hospital, error) {
	sc, err := s.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return nil, err
	}
	var out *Hospital
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.validateHospital(ctx, tx, sc, 0, &in, true); err != nil {
			return err
		}
		vals := in.values(nil, s.clock.Now())
		vals["created_at"] = vals["updated_at"]
		id, err := db.InsertID(ctx, tx, tx.Builder().Insert("hospitals").SetMap(vals))
		if err != nil {
			return apperr.Wrap(err, "insert hospital")
		}
		if err := s.bind(ctx, tx, id, in.CenterIDs); err != nil {
			return err
		}
		// The new hospital is in the creator's scope from now on (a copy:
		// InTx may run this again).
		mine := sc
		mine.HospitalIDs = append(slices.Clip(sc.HospitalIDs), id)
		if out, err = s.hospitalIn(ctx, tx, mine, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "hospital.create", ObjectType: "hospital", ObjectID: id, After: out})
	})
	return out, err
}

// hospitalIn loads a hospital without re-deriving the scope (inside a write).
func (s *Service) hospitalIn(ctx context.Context, q db.Querier, sc Scope, id int64) (*Hospital, error) {
	var h Hospital
	err := db.Get(ctx, q, &h, s.db.Builder().Select(hospitalColumns).From("hospitals h").Where("h.id = ? AND h.deleted_at IS NULL", id))
	if errors.Is(err, sql.ErrNoRows) || (!sc.All && !containsID(sc.HospitalIDs, id)) {
		return nil, apperr.New(apperr.NotFound, "error.not_found")
	}
	if err != nil {
		return nil, apperr.Wrap(err, "load hospital")
	}
	hs := []Hospital{h}
	if err := s.attachCenters(ctx, q, hs); err != nil {
		return nil, err
	}
	return &hs[0], nil
}

// UpdateHospital changes a hospital; center bindings change only when given.
func (s *Service) UpdateHospital(ctx context.Context, id int64, in HospitalInput) (*Hospital, error) {
	sc, err := s.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return nil, err
	}
	var out *Hospital
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.hospitalIn(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		if err := s.validateHospital(ctx, tx, sc, id, &in, false); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("hospitals").SetMap(in.values(before, s.clock.Now())).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "update hospital")
		}
		if in.CenterIDs != nil {
			if err := s.rebind(ctx, tx, sc, id, in.CenterIDs); err != nil {
				return err
			}
		}
		if out, err = s.hospitalIn(ctx, tx, sc, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "hospital.update", ObjectType: "hospital", ObjectID: id, Before: before, After: out})
	})
	return out, err
}

// BindCenters replaces the centers a hospital sends cases to. A center
// administrator changes only the bindings to centers in their scope.
func (s *Service) BindCenters(ctx context.Context, id int64, centerIDs []int64) (*Hospital, error) {
	sc, err := s.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return nil, err
	}
	var out *Hospital
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.hospitalIn(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		if len(centerIDs) == 0 {
			return apperr.New(apperr.Invalid, "error.validation").Field("center_ids", "org.need_center")
		}
		if err := s.CheckCenters(ctx, sc, "center_ids", centerIDs); err != nil {
			return err
		}
		if err := s.rebind(ctx, tx, sc, id, centerIDs); err != nil {
			return err
		}
		if out, err = s.hospitalIn(ctx, tx, sc, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "hospital.bind_centers", ObjectType: "hospital", ObjectID: id,
			Before: before.CenterIDs, After: out.CenterIDs})
	})
	return out, err
}

func (s *Service) rebind(ctx context.Context, tx *db.Tx, sc Scope, id int64, centerIDs []int64) error {
	del := tx.Builder().Delete("hospital_centers").Where("hospital_id = ?", id)
	if !sc.All {
		del = del.Where(sq.Eq{"center_id": nonNil(sc.CenterIDs)})
	}
	if _, err := db.Exec(ctx, tx, del); err != nil {
		return apperr.Wrap(err, "unbind centers")
	}
	return s.bind(ctx, tx, id, centerIDs)
}

func (s *Service) bind(ctx context.Context, tx *db.Tx, id int64, centerIDs []int64) error {
	for _, c := range dedupe(centerIDs) {
		_, err := db.Exec(ctx, tx, tx.Builder().Insert("hospital_centers").Columns("hospital_id", "center_id").Values(id, c).
			Suffix("ON CONFLICT DO NOTHING"))
		if err != nil {
			return apperr.Wrap(err, "bind center")
		}
	}
	return nil
}

// DeleteHospital removes a hospital with no active users.
func (s *Service) DeleteHospital(ctx context.Context, id int64) error {
	sc, err := s.ScopeOf(ctx, access.FromContext(ctx))
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		before, err := s.hospitalIn(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		var users int
		if err := db.Get(ctx, tx, &users, tx.Builder().Select("COUNT(*)").From("user_hospitals uh").
			Join("users u ON u.id = uh.user_id AND u.deleted_at IS NULL").Where("uh.hospital_id = ?", id)); err != nil {
			return apperr.Wrap(err, "count users")
		}
		if users > 0 {
			return apperr.New(apperr.Conflict, "org.hospital_has_users")
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("hospitals").Set("deleted_at", s.clock.Now()).Where("id = ?", id)); err != nil {
			return apperr.Wrap(err, "delete hospital")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "hospital.delete", ObjectType: "hospital", ObjectID: id, Before: before})
	})
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
