// Package settings holds the system configuration (spec 2 §3 System config)
// that the web app loads at start.
package settings

import (
	"context"
	"encoding/json"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Watermark is printed over reports and slide views when Flag is set.
type Watermark struct {
	Flag      bool   `json:"flag"`
	Text      string `json:"text"`
	FontSize  int    `json:"fontSize"`
	FontColor string `json:"fontColor"`
}

// System is the public system configuration.
type System struct {
	Language        string    `json:"language" enum:"zh-CN,en-US"`
	PageTitle       string    `json:"page_title"`
	PageIcon        string    `json:"page_icon"`
	Title           string    `json:"title"`
	Logo            string    `json:"logo"`
	LoginLogo       string    `json:"login_logo" doc:"Logo on the sign-in page: an image as a data: URL, or empty"`
	Copyright       string    `json:"copyright"`
	ShowMeeting     bool      `json:"show_meeting"`
	CaptchaEnable   bool      `json:"captcha_enable"`
	SMSEnable       bool      `json:"sms_enable"`
	DiskSpace       int       `json:"disk_space"`
	NeedUploadSlide bool      `json:"need_upload_slide"`
	Watermark       Watermark `json:"watermark"`
	// DelayReport: a delayed report notifies the site of the new date (spec 2 §7 delay_report).
	DelayReport bool `json:"delay_report"`
	// TimeoutReason: a report signed after its deadline asks for a reason (spec 2 §7 timeout_reason).
	TimeoutReason bool `json:"timeout_reason"`
	// BigScreen turns on the statistics wall view (spec 2 §3 big_screen).
	BigScreen bool `json:"big_screen"`
	// RollbackNeedCheck: a site's recall waits for the center's agreement;
	// off, it is agreed at once (spec 2 §3 rollback_need_check).
	RollbackNeedCheck bool `json:"rollback_need_check"`
	// SupplementReport: experts may write supplementary reports on
	// published cases (spec 2 §3 supplement_report).
	SupplementReport bool `json:"supplement_report"`
	// AllocateToThird: a special exam may be passed to a third party
	// (spec 2 §3 allocate_to_third).
	AllocateToThird bool `json:"allocate_to_third"`
}

// Defaults are the spec's defaults. PageTitle is empty so that the web app
// shows its own title in the reader's language; an operator-set title wins.
func Defaults() System {
	return System{Language: "zh-CN", PageIcon: "/favicon.svg",
		Title: "Telepath", Copyright: "Telepath", CaptchaEnable: true, DiskSpace: 1, NeedUploadSlide: true, DelayReport: true,
		RollbackNeedCheck: true, SupplementReport: true,
		Watermark: Watermark{FontSize: 16, FontColor: "rgba(0,0,0,0.12)"}}
}

// Service reads the configuration.
type Service struct {
	clock   clock.Clock
	db      *db.DB
	captcha bool
	// hospitalCenters lists the centers a hospital is bound to (org).
	hospitalCenters func(ctx context.Context, hospitalID int64) ([]int64, error)
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// UseHospitalCenters sets where the centers of a hospital are read from:
// hospital accounts read the diagnosis settings of those centers.
func (s *Service) UseHospitalCenters(f func(ctx context.Context, hospitalID int64) ([]int64, error)) {
	s.hospitalCenters = f
}

// New returns the service; captcha reflects the operator's TELEPATH_CAPTCHA.
func New(d *db.DB, captcha bool) *Service { return &Service{db: d, captcha: captcha} }

const systemKey = "system"

// System returns the configuration in force: the stored one, with the
// captcha off when the operator switched it off.
func (s *Service) System(ctx context.Context) System {
	cfg := s.stored(ctx)
	cfg.CaptchaEnable = cfg.CaptchaEnable && s.captcha
	return cfg
}

// stored returns the stored configuration, or the defaults when there is
// none or it is corrupt (spec 2 §3).
func (s *Service) stored(ctx context.Context) System {
	var text string
	if err := db.Get(ctx, s.db, &text, s.db.Builder().Select("value").From("settings").Where("key = ?", systemKey)); err == nil {
		cfg := Defaults() // keys stored before they existed keep their defaults
		if json.Unmarshal([]byte(text), &cfg) == nil {
			return cfg
		}
	}
	return Defaults()
}
