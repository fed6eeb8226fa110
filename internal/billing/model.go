// Package billing holds the price list and the time limits of consultation:
// charge items (what a case may be charged, priced in fen and shown in
// yuan) and timeout configurations (how long a case may wait for its
// diagnosis, spec 2 §3). The consultation domain reads them through Items
// and TimeoutFor.
package billing

import (
	"time"

	"telepath/internal/platform/clock"
	"telepath/internal/platform/db"
)

// Service manages charge items and timeout configurations.
type Service struct {
	clock clock.Clock
	db    *db.DB
}

// UseClock sets the clock the service reads the time from.
func (s *Service) UseClock(c clock.Clock) { s.clock = c }

// New returns the billing service.
func New(d *db.DB) *Service { return &Service{db: d} }

// Item is a charge item. Price is in fen in Go and yuan in JSON.
type Item struct {
	ID        int64     `json:"id" db:"id"`
	Name      string    `json:"name" db:"name"`
	InnerCode string    `json:"inner_code" db:"inner_code" doc:"Internal code of the hospital's charging system"`
	InputCode string    `json:"input_code" db:"input_code" doc:"Quick-input code, e.g. pinyin initials"`
	ItemCode  string    `json:"item_code" db:"item_code" doc:"Code in the medical service price catalogue"`
	Price     Fen       `json:"price" db:"price_fen" doc:"Price in yuan with two decimals"`
	Unit      string    `json:"unit" db:"unit" doc:"e.g. 例, 项, 张"`
	Number    int       `json:"number" db:"number" doc:"Default quantity when charged"`
	Status    int       `json:"status" db:"status" enum:"0,1"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// PriceFen is the price in fen, the unit charges are computed in.
func (i Item) PriceFen() int64 { return int64(i.Price) }

// ItemInput creates a charge item.
type ItemInput struct {
	Name      string   `json:"name,omitempty" maxLength:"100"`
	InnerCode string   `json:"inner_code,omitempty" maxLength:"50"`
	InputCode string   `json:"input_code,omitempty" maxLength:"50"`
	ItemCode  string   `json:"item_code,omitempty" maxLength:"50"`
	Price     YuanText `json:"price,omitempty"`
	Unit      string   `json:"unit,omitempty" maxLength:"20"`
	Number    *int     `json:"number,omitempty" doc:"1 to 9999 (default 1)"`
	Status    *int     `json:"status,omitempty" enum:"0,1"`
}

// ItemPatch changes the given fields of a charge item.
type ItemPatch struct {
	ID        int64     `json:"id" minimum:"1"`
	Name      *string   `json:"name,omitempty" maxLength:"100"`
	InnerCode *string   `json:"inner_code,omitempty" maxLength:"50"`
	InputCode *string   `json:"input_code,omitempty" maxLength:"50"`
	ItemCode  *string   `json:"item_code,omitempty" maxLength:"50"`
	Price     *YuanText `json:"price,omitempty"`
	Unit      *string   `json:"unit,omitempty" maxLength:"20"`
	Number    *int      `json:"number,omitempty"`
	Status    *int      `json:"status,omitempty" enum:"0,1"`
}

// Limits of a timeout configuration.
const (
	MaxTimeoutHours = 720
	MaxItemNumber   = 9999
)

// Timeout is the time limit applied to a case: Hours after submission it
// times out; RemindHours before that it counts as soon timing out. ID is
// the configuration it came from, nil for the built-in default.
type Timeout struct {
	ID          *int64 `json:"id"`
	Hours       int    `json:"hours"`
	RemindHours int    `json:"remind_hours"`
}

// BuiltinTimeout applies when no timeout is configured.
var BuiltinTimeout = Timeout{Hours: 72, RemindHours: 24}

// TimeoutConfig is a configured time limit. At most one is the default (for
// normal cases); Expedite ones apply to urgent cases.
type TimeoutConfig struct {
	ID          int64     `json:"id" db:"id"`
	Name        string    `json:"name" db:"name"`
	Hours       int       `json:"hours" db:"hours"`
	RemindHours int       `json:"remind_hours" db:"remind_hours" doc:"Hours before the timeout from which a case is soon timing out"`
	Expedite    int       `json:"expedite" db:"expedite" enum:"0,1" doc:"1: applies to urgent cases"`
	IsDefault   int       `json:"is_default" db:"is_default" enum:"0,1" doc:"1: the limit of normal cases; setting it clears the previous default"`
	CreatedAt   time.Time `json:"created_at" db:"created_at"`
	UpdatedAt   time.Time `json:"updated_at" db:"updated_at"`
}

// TimeoutInput creates a timeout configuration.
type TimeoutInput struct {
	Name        string `json:"name,omitempty" maxLength:"50"`
	Hours       int    `json:"hours,omitempty" doc:"1 to 720"`
	RemindHours *int   `json:"remind_hours,omitempty" doc:"0 to hours (default 24, at most hours)"`
	Expedite    *int   `json:"expedite,omitempty" enum:"0,1"`
	IsDefault   *int   `json:"is_default,omitempty" enum:"0,1"`
}

// TimeoutPatch changes the given fields of a timeout configuration.
type TimeoutPatch struct {
	Name        *string `json:"name,omitempty" maxLength:"50"`
	Hours       *int    `json:"hours,omitempty"`
	RemindHours *int    `json:"remind_hours,omitempty"`
	Expedite    *int    `json:"expedite,omitempty" enum:"0,1"`
	IsDefault   *int    `json:"is_default,omitempty" enum:"0,1"`
}
