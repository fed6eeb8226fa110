package notify

import (
	"encoding/json"
	"time"

	"telepath/internal/platform/i18n"
)

// Notification is one user's notification as the message centre shows it.
type Notification struct {
	ID int64 `json:"id" db:"id"`
	// Pos is its place in commit order: the id of the live event that
	// carries it, and what a reconnecting stream replays after.
	Pos       int64      `json:"-" db:"pos"`
	UserID    int64      `json:"-" db:"user_id"`
	Kind      string     `json:"kind" db:"kind" enum:"case,notice,timeout"`
	KindText  string     `json:"kind_text" db:"-"`
	Level     string     `json:"level" db:"level" enum:"normal,important,very_important"`
	LevelText string     `json:"level_text" db:"-"`
	Event     string     `json:"event" db:"event" doc:"What happened, e.g. case.assigned"`
	CaseID    *int64     `json:"case_id" db:"consult_id"`
	NoticeID  *int64     `json:"notice_id" db:"notice_id"`
	Link      string     `json:"link" db:"link" doc:"The screen where the reader acts"`
	Key       string     `json:"-" db:"msg_key"`
	Params    string     `json:"-" db:"params"`
	Title     string     `json:"title" db:"-" doc:"What happened, in the reader's language"`
	Urgent    bool       `json:"urgent" db:"-" doc:"An urgent case or a task-urgent notice: the browser may sound"`
	CreatedAt time.Time  `json:"created_at" db:"created_at"`
	ReadAt    *time.Time `json:"read_at" db:"read_at"`
	AckedAt   *time.Time `json:"acked_at" db:"acked_at"`
}

const notificationColumns = "n.id, n.pos, n.user_id, n.kind, n.level, n.event, n.consult_id, n.notice_id, n.link, n.msg_key, n.params, n.created_at, n.read_at, n.acked_at"

// localize renders n in lang.
func (n *Notification) localize(lang i18n.Lang) {
	var params map[string]any
	_ = json.Unmarshal([]byte(n.Params), &params)
	args := map[string]any{}
	for k, v := range params {
		if s, ok := v.(string); ok && len(s) > 4 && s[:4] == "key:" {
			v = i18n.T(lang, s[4:], nil)
		}
		args[k] = v
	}
	n.Title = i18n.T(lang, n.Key, args)
	n.KindText = i18n.T(lang, "notify.kind."+n.Kind, nil)
	n.LevelText = i18n.T(lang, "notify.level."+n.Level, nil)
	if u, ok := params["urgent"].(bool); ok {
		n.Urgent = u
	}
}
