// Package demo seeds an empty database: the demo organisations and one user
// per role (TELEPATH_DEMO=1), or else a first administrator with a random
// password printed once.
package demo

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"time"

	sq "github.com/Masterminds/squirrel"

	"telepath/internal/auth"
	"telepath/internal/billing"
	"telepath/internal/diagnosis/structured"
	"telepath/internal/library"
	"telepath/internal/platform/access"
	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Password is every demo user's password.
const Password = "Telepath@2026"

func empty(ctx context.Context, d *db.DB) (bool, error) {
	var n int
	err := db.Get(ctx, d, &n, d.Builder().Select("COUNT(*)").From("users"))
	return n == 0, err
}

// FirstAdmin creates "admin" with a random password when there is no user.
func FirstAdmin(ctx context.Context, d *db.DB, log *slog.Logger, clk clock.Clock) error {
	if ok, err := empty(ctx, d); err != nil || !ok {
		return err
	}
	b := make([]byte, 12)
	rand.Read(b)
	pw := base64.RawURLEncoding.EncodeToString(b) + "a1!"
	err := d.InTx(ctx, func(tx *db.Tx) error {
		id, err := addUser(ctx, tx, person{"admin", "系统管理员", []string{access.Admin}, nil, nil}, pw, clk.Now())
		if err != nil {
			return err
		}
		// The password went through the log: the administrator must replace it.
		_, err = db.Exec(ctx, tx, tx.Builder().Update("users").Set("must_change_password", 1).Where("id = ?", id))
		return err
	})
	if err == nil {
		log.Warn("created the first administrator; sign in and choose a new password", "username", "admin", "password", pw)
	}
	return err
}

type person struct {
	username, name string
	roles          []string
	centers        []int64
	hospitals      []int64
}

// Seed adds the demo organisations and users when the database has no user.
func Seed(ctx context.Context, d *db.DB, log *slog.Logger, clk clock.Clock) error {
	if ok, err := empty(ctx, d); err != nil || !ok {
		return err
	}
	now := clk.Now()
	err := d.InTx(ctx, func(tx *db.Tx) error {
		center, err := addCenter(ctx, tx, "华东远程病理会诊中心", "EC", nil, now)
		if err != nil {
			return err
		}
		if _, err := addCenter(ctx, tx, "华东中心·细胞病理分中心", "EC-CY", &center, now); err != nil {
			return err
		}
		west, err := addCenter(ctx, tx, "西部远程病理会诊中心", "WC", nil, now)
		if err != nil {
			return err
		}
		h1, err := addHospital(ctx, tx, "明州市第一人民医院", "明州一院", "H001", "10.10.1.20", []int64{center}, now)
		if err != nil {
			return err
		}
		h2, err := addHospital(ctx, tx, "临江县人民医院", "临江县院", "H002", "10.10.2.20", []int64{center}, now)
		if err != nil {
			return err
		}
		if _, err := addHospital(ctx, tx, "青山市中心医院", "青山中心", "H003", "10.20.1.20", []int64{west}, now); err != nil {
			return err
		}
		c, h, hh := []int64{center}, []int64{h1}, []int64{h2}
		people := []person{
			{"admin", "系统管理员", []string{access.Admin}, nil, nil},
			{"center_admin", "周敏（中心管理员）", []string{access.CenterAdmin}, c, nil},
			{"site", "李娜（明州一院）", []string{access.Site}, nil, h},
			{"site2", "王强（临江县院）", []string{access.Site}, nil, hh},
			{"allocator", "陈静（分配员）", []string{access.Allocator}, c, nil},
			{"expert", "张建国 主任医师", []string{access.Expert}, c, nil},
			{"expert2", "刘芳 副主任医师", []string{access.Expert}, c, nil},
			{"qc_expert", "赵磊（质控专家）", []string{access.QCExpert}, c, nil},
			{"staff", "孙丽（技术员）", []string{access.Staff}, c, nil},
			{"publisher", "黄海（发布员）", []string{access.Publisher}, c, nil},
			{"third", "吴越（第三方）", []string{access.Third}, c, nil},
			{"clinical", "郑伟（临床医生）", []string{access.Clinical}, nil, h},
			{"uploader", "钱程（上传员）", []string{access.Uploader}, nil, h},
			{"root", "超级用户", []string{access.Root}, nil, nil},
		}
		if err := library.SeedDemo(ctx, tx, now); err != nil {
			return err
		}
		if err := billing.SeedDemo(ctx, tx, now); err != nil {
			return err
		}
		if err := structured.SeedDemo(ctx, tx, now); err != nil {
			return err
		}
		hash, err := auth.HashPassword(Password)
		if err != nil {
			return err
		}
		for _, p := range people {
			if _, err := addUserHash(ctx, tx, p, hash, now); err != nil {
				return err
			}
		}
		return bindSubspecialties(ctx, tx)
	})
	if err == nil {
		log.Info("seeded demo data", "password", Password)
	}
	return err
}

// bindSubspecialties gives the demo experts their subspecialties (spec 2
// §8; the role configuration of internal/user): the chief reads routine
// cases, the associate cytology (the cell library and its sub-library);
// frozen cases go to whoever is on duty.
func bindSubspecialties(ctx context.Context, tx *db.Tx) error {
	for _, b := range []struct {
		username string
		prefixes []string
	}{{"expert", []string{"BL"}}, {"expert2", []string{"XB"}}} {
		var libs []int64
		if err := db.Select(ctx, tx, &libs, tx.Builder().Select("id").From("libraries").
			Where(sq.Eq{"prefix": b.prefixes}).Where("parent_id IS NULL").OrderBy("id")); err != nil {
			return err
		}
		cfg, err := json.Marshal(map[string]any{"subspecialties": libs, "takes_cases": true})
		if err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, tx.Builder().Update("user_roles").Set("config", string(cfg)).
			Where("role = ? AND user_id = (SELECT id FROM users WHERE username = ?)", access.Expert, b.username)); err != nil {
			return err
		}
	}
	return nil
}

func addCenter(ctx context.Context, tx *db.Tx, name, code string, parent *int64, now time.Time) (int64, error) {
	return db.InsertID(ctx, tx, tx.Builder().Insert("centers").
		Columns("name", "code", "parent_id", "address", "phone", "contact", "created_at", "updated_at").
		Values(name, code, parent, "明州市健康路 88 号", "0574-88880000", "周敏", now, now))
}

func addHospital(ctx context.Context, tx *db.Tx, name, abbr, code, ip string, centers []int64, now time.Time) (int64, error) {
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("hospitals").
		Columns("name", "abbreviation", "code", "public_ip", "port", "address", "phone", "contact", "site_info", "created_at", "updated_at").
		Values(name, abbr, code, ip, 8001, "明州市", "0574-87000000", "李娜",
			`{"network_protocol":"http","upload_protocol":"http","upload_host":"localhost","upload_port":8001}`, now, now))
	if err != nil {
		return 0, err
	}
	for _, c := range centers {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("hospital_centers").Columns("hospital_id", "center_id").Values(id, c)); err != nil {
			return 0, err
		}
	}
	return id, nil
}

func addUser(ctx context.Context, tx *db.Tx, p person, password string, now time.Time) (int64, error) {
	hash, err := auth.HashPassword(password)
	if err != nil {
		return 0, err
	}
	return addUserHash(ctx, tx, p, hash, now)
}

func addUserHash(ctx context.Context, tx *db.Tx, p person, hash string, now time.Time) (int64, error) {
	id, err := db.InsertID(ctx, tx, tx.Builder().Insert("users").
		Columns("username", "name", "password_hash", "status", "password_changed_at", "created_at", "updated_at").
		Values(p.username, p.name, hash, 1, now, now, now))
	if err != nil {
		return 0, err
	}
	for _, r := range p.roles {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("user_roles").Columns("user_id", "role", "config").Values(id, r, "{}")); err != nil {
			return 0, err
		}
	}
	for _, c := range p.centers {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("user_centers").Columns("user_id", "center_id").Values(id, c)); err != nil {
			return 0, err
		}
	}
	for _, h := range p.hospitals {
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("user_hospitals").Columns("user_id", "hospital_id").Values(id, h)); err != nil {
			return 0, err
		}
	}
	return id, nil
}
