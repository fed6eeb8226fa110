package settings

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"telepath/internal/audit"
	"telepath/internal/platform/apperr"
	"telepath/internal/platform/db"
)

// SystemInput is what an administrator may change (spec 2 §3 System config).
type SystemInput struct {
	Language        string    `json:"language" enum:"zh-CN,en-US" doc:"Interface language of users who have not chosen one"`
	PageTitle       string    `json:"page_title" maxLength:"200" doc:"Browser and login title; empty for the built-in title in the reader's language"`
	PageIcon        string    `json:"page_icon" maxLength:"500" doc:"Favicon: a path on this server or an https URL"`
	Title           string    `json:"title" maxLength:"200" doc:"Short name in the sidebar"`
	Copyright       string    `json:"copyright" maxLength:"500"`
	CaptchaEnable   bool      `json:"captcha_enable"`
	NeedUploadSlide bool      `json:"need_upload_slide" doc:"A case needs at least one slide to be submitted"`
	Watermark       Watermark `json:"watermark"`
	// Left out, these keep their values (clients that predate them).
	DelayReport   *bool `json:"delay_report,omitempty" doc:"A delayed report notifies the site"`
	TimeoutReason *bool `json:"timeout_reason,omitempty" doc:"A report signed after its deadline needs a reason"`
	BigScreen     *bool `json:"big_screen,omitempty" doc:"The statistics wall view is on"`
	ShowMeeting   *bool `json:"show_meeting,omitempty" doc:"Experts may hold live meetings on cases"`
	// RollbackNeedCheck, SupplementReport, AllocateToThird: see System.
	RollbackNeedCheck *bool   `json:"rollback_need_check,omitempty" doc:"A site's recall waits for the center's agreement (off: agreed at once)"`
	SupplementReport  *bool   `json:"supplement_report,omitempty" doc:"Experts may write supplementary reports on published cases"`
	AllocateToThird   *bool   `json:"allocate_to_third,omitempty" doc:"Special exams may be passed to a third party"`
	LoginLogo         *string `json:"login_logo,omitempty" maxLength:"90000" doc:"Logo on the sign-in page: a PNG, JPEG, WebP or SVG image of at most 64 KB as a data: URL; empty removes it"`
}

var (
	cssColor = regexp.MustCompile(`^(#[0-9a-fA-F]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\))$`)
	iconURL  = regexp.MustCompile(`^(/[^/\s][^\s]*|https://[^\s]+)$`)
	logoURL  = regexp.MustCompile(`^data:image/(png|jpeg|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$`)
)

// Field limits, in characters.
const (
	maxTitle     = 60
	maxShort     = 30
	maxCopyright = 100
	maxWatermark = 50
	maxLogoBytes = 64 << 10
)

func (in *SystemInput) validate() error {
	in.PageTitle, in.Title = strings.TrimSpace(in.PageTitle), strings.TrimSpace(in.Title)
	in.Copyright, in.PageIcon = strings.TrimSpace(in.Copyright), strings.TrimSpace(in.PageIcon)
	in.Watermark.Text = strings.TrimSpace(in.Watermark.Text)
	var v apperr.Validation
	long := func(field, s string, max int) {
		if utf8.RuneCountInString(s) > max {
			v.Add(field, "field.too_long", "max", max)
		}
	}
	long("page_title", in.PageTitle, maxTitle)
	long("title", in.Title, maxShort)
	long("copyright", in.Copyright, maxCopyright)
	long("watermark.text", in.Watermark.Text, maxWatermark)
	if in.PageIcon != "" && !iconURL.MatchString(in.PageIcon) {
		v.Add("page_icon", "settings.bad_icon")
	}
	if in.LoginLogo != nil && !goodLogo(*in.LoginLogo) {
		v.Add("login_logo", "settings.bad_logo")
	}
	if in.Watermark.FontSize < 8 || in.Watermark.FontSize > 72 {
		v.Add("watermark.fontSize", "field.range", "min", 8, "max", 72)
	}
	if !cssColor.MatchString(strings.TrimSpace(in.Watermark.FontColor)) {
		v.Add("watermark.fontColor", "settings.bad_color")
	}
	if in.Watermark.Flag && in.Watermark.Text == "" {
		v.Add("watermark.text", "field.required")
	}
	return v.Err()
}

// Update stores the administrator's settings over the current ones, with
// the audit record, in one transaction.
func (s *Service) Update(ctx context.Context, in SystemInput) (System, error) {
	if err := in.validate(); err != nil {
		return System{}, err
	}
	before := s.stored(ctx)
	after := before
	after.Language, after.PageTitle, after.PageIcon, after.Title, after.Copyright = in.Language, in.PageTitle, in.PageIcon, in.Title, in.Copyright
	after.CaptchaEnable, after.NeedUploadSlide, after.Watermark = in.CaptchaEnable, in.NeedUploadSlide, in.Watermark
	if in.DelayReport != nil {
		after.DelayReport = *in.DelayReport
	}
	if in.TimeoutReason != nil {
		after.TimeoutReason = *in.TimeoutReason
	}
	if in.BigScreen != nil {
		after.BigScreen = *in.BigScreen
	}
	if in.ShowMeeting != nil {
		after.ShowMeeting = *in.ShowMeeting
	}
	if in.LoginLogo != nil {
		after.LoginLogo = *in.LoginLogo
	}
	for dst, v := range map[*bool]*bool{&after.RollbackNeedCheck: in.RollbackNeedCheck, &after.SupplementReport: in.SupplementReport, &after.AllocateToThird: in.AllocateToThird} {
		if v != nil {
			*dst = *v
		}
	}
	after.Watermark.FontColor = strings.TrimSpace(after.Watermark.FontColor)
	if err := s.store(ctx, before, after); err != nil {
		return System{}, err
	}
	return s.System(ctx), nil
}

// DiskSpaceInput is the low disk space threshold alone, so the storage screen
// changes it without rewriting settings it does not show.
type DiskSpaceInput struct {
	DiskSpace int `json:"disk_space" minimum:"1" maximum:"100000" doc:"GB: below this much free space in the data directory the low disk space warning shows"`
}

// UpdateDiskSpace stores the threshold, audited, in one transaction.
func (s *Service) UpdateDiskSpace(ctx context.Context, in DiskSpaceInput) (System, error) {
	if in.DiskSpace < 1 || in.DiskSpace > 100000 {
		var v apperr.Validation
		v.Add("disk_space", "field.range", "min", 1, "max", 100000)
		return System{}, v.Err()
	}
	before := s.stored(ctx)
	after := before
	after.DiskSpace = in.DiskSpace
	if err := s.store(ctx, before, after); err != nil {
		return System{}, err
	}
	return s.System(ctx), nil
}

// store writes after over before with the audit record, in one transaction.
func (s *Service) store(ctx context.Context, before, after System) error {
	value, err := json.Marshal(after)
	if err != nil {
		return apperr.Wrap(err, "encode settings")
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := db.Exec(ctx, tx, tx.Builder().Insert("settings").Columns("key", "value", "updated_at").
			Values(systemKey, string(value), now).
			Suffix("ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at")); err != nil {
			return apperr.Wrap(err, "store settings")
		}
		return audit.Write(ctx, tx, tx.Dialect, audit.Entry{Action: "settings.update", ObjectType: "settings", ObjectID: systemKey, Before: before, After: after})
	})
}

// goodLogo accepts no logo, or an image data: URL of at most maxLogoBytes that
// decodes. It is shown by an <img>, where an SVG's scripts do not run.
func goodLogo(s string) bool {
	if s == "" {
		return true
	}
	m := logoURL.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(m[2])
	return err == nil && len(b) > 0 && len(b) <= maxLogoBytes
}
