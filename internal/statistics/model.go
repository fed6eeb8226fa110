// Package statistics computes the figures of the statistics screens (spec 1
// §2 /statistical/*): workload, turnaround, timeliness and slide quality,
// each counted in SQL over the real tables for the caller's scope and a
// period of local days; and it keeps the QC indicator targets (spec 2 §7
// /config/qc, §9). It owns the table qc_targets and only reads the tables of
// the other domains; the counts of cases by their instants are also kept
// per day in the rollup table stat_daily, by triggers on the cases (see
// rollup.go).
package statistics

import (
	"context"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Screen names one statistics screen (and its route).
type Screen string

// The screens of spec 1 §2.
const (
	Consultation       Screen = "consultation"
	Bank               Screen = "bank"
	Expert             Screen = "expert"
	ExpertConsultation Screen = "expert-consultation"
	Quality            Screen = "quality"
	HE                 Screen = "he"
	Outside            Screen = "outside"
	Diagnosis          Screen = "diagnosis"
	Wall               Screen = "big-screen"
)

// Units of a figure: how the web app and the export format it.
const (
	UnitCount   = "count"
	UnitPercent = "percent"
	UnitHours   = "hours"
	UnitMinutes = "minutes"
	UnitYuan    = "yuan"
)

// Deps are the questions the statistics domain asks other domains.
type Deps struct {
	// BigScreen reports whether the system configuration turns the wall view on.
	BigScreen func(ctx context.Context) bool
}

// Service computes statistics and keeps the QC targets.
type Service struct {
	db    *db.DB
	deps  Deps
	clock clock.Clock
	// rollups: the daily rollups hold the local days of the clock's zone
	// (set by Start); otherwise every figure reads the cases.
	rollups bool
}

// New returns the statistics service.
func New(d *db.DB, deps Deps) *Service { return &Service{db: d, deps: deps} }

// UseClock sets the clock the service reads the time and the zone from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// StatQuery asks for the figures of a period with filters. Days are local days
// of the operator's time zone, both ends included.
type StatQuery struct {
	Start       string `query:"start" doc:"First local day (YYYY-MM-DD); default the first of this month" example:"2026-11-01"`
	End         string `query:"end" doc:"Last local day (YYYY-MM-DD), included; default today" example:"2026-11-30"`
	Granularity string `query:"granularity" doc:"Trend buckets: day, week or month; empty chooses by the period's length"`
	CenterID    int64  `query:"center_id" doc:"Only cases of this center"`
	HospitalID  int64  `query:"hospital_id" doc:"Only cases sent by this hospital"`
	LibraryID   int64  `query:"library_id" doc:"Only cases of this library and its sub-libraries"`
	ExpertID    int64  `query:"expert_id" doc:"Only this expert's work"`
	Kind        string `query:"kind" doc:"Case kind: routine, frozen or cell (cytology)"`
}

// StatFigure is one number of a screen, with its name and definition in the
// reader's language. Value is null when there is nothing to measure.
type StatFigure struct {
	Key   string   `json:"key"`
	Label string   `json:"label"`
	Help  string   `json:"help"`
	Unit  string   `json:"unit" enum:"count,percent,hours,minutes,yuan"`
	Value *float64 `json:"value"`
}

// StatSeries is one line, bar set or pie of a chart.
type StatSeries struct {
	Key    string     `json:"key"`
	Label  string     `json:"label"`
	Stack  string     `json:"stack,omitempty" doc:"StatSeries with the same stack are stacked"`
	Values []*float64 `json:"values"`
}

// StatMark is a horizontal target line of a chart.
type StatMark struct {
	Label string  `json:"label"`
	Value float64 `json:"value"`
}

// StatChart is one chart of a screen: its categories (buckets of time,
// hospitals, experts…) and series over them.
type StatChart struct {
	Key        string       `json:"key"`
	Title      string       `json:"title"`
	Kind       string       `json:"kind" enum:"line,bar,pie"`
	Unit       string       `json:"unit"`
	Categories []string     `json:"categories"`
	StatSeries []StatSeries `json:"series"`
	Marks      []StatMark   `json:"marks"`
}

// StatColumn is one column of a table.
type StatColumn struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Help  string `json:"help"`
	Unit  string `json:"unit"`
}

// StatRow is one row of a table: a label (hospital, expert, indicator…)
// and one value per column.
type StatRow struct {
	Key    string     `json:"key"`
	Label  string     `json:"label"`
	Values []*float64 `json:"values"`
}

// StatTable is one table of a screen; its numbers are those of the charts.
type StatTable struct {
	Key     string       `json:"key"`
	Title   string       `json:"title"`
	Head    string       `json:"head" doc:"Label of the row-label column"`
	Columns []StatColumn `json:"columns"`
	Rows    []StatRow    `json:"rows"`
}

// Stats is what a statistics screen shows, and what its export holds.
type Stats struct {
	Screen      Screen       `json:"screen"`
	Start       string       `json:"start"`
	End         string       `json:"end"`
	Granularity string       `json:"granularity"`
	Zone        string       `json:"zone" doc:"Time zone of the local days"`
	Cards       []StatFigure `json:"cards"`
	Charts      []StatChart  `json:"charts"`
	Tables      []StatTable  `json:"tables"`
	Notes       []string     `json:"notes" doc:"What the screen cannot measure yet, in the reader's language"`
}

func num(v float64) *float64 { return &v }
