package notify

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the message centre and the live event stream.
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Messages", []httpx.Route{
		// Public in the route table: EventSource sends no header, so the
		// stream checks its own ticket (or a bearer token) and answers 401.
		{Method: "GET", Path: "/api/events", Public: true, Handler: httpx.Raw(s.stream), ID: "events", Summary: "Live events of a signed-in user (Server-Sent Events, Accept: text/event-stream; ?ticket= from POST /api/events/ticket, or a bearer token): notification (id = the notification's position in commit order), changed {topics}, hello {unread}, end; a comment every 20 s. Last-Event-ID (or ?last_event_id=) replays what came after it"},
		{Method: "POST", Path: "/api/events/ticket", Roles: access.Any, Handler: httpx.Result(s.NewTicket), ID: "events-ticket", Summary: "A single-use ticket, good for a minute, to open the live event stream with EventSource"},
		{Method: "GET", Path: "/api/message/list", Roles: access.Any, Handler: httpx.ListOf(s.List), ID: "message-list", Summary: "The caller's notifications, unread first (params.tab: all, unread, read)"},
		{Method: "GET", Path: "/api/message/count", Roles: access.Any, Handler: httpx.CountsOf(s.Count), ID: "message-count", Summary: "The caller's notifications per tab"},
		{Method: "GET", Path: "/api/message/bell", Roles: access.Any, Handler: httpx.Result(s.Latest), ID: "message-bell", Summary: "The caller's unread count and newest unread notifications"},
		{Method: "POST", Path: "/api/message/read", Roles: access.Any, Handler: httpx.ActionWithBody(s.MarkRead), ID: "message-read", Summary: "Mark some of the caller's notifications read"},
		{Method: "POST", Path: "/api/message/read_all", Roles: access.Any, Handler: httpx.Do(s.MarkAllRead), ID: "message-read-all", Summary: "Mark all the caller's notifications read"},
		{Method: "GET", Path: "/api/message/pending", Roles: access.Any, Handler: httpx.Result(s.Pending), ID: "message-pending", Summary: "Very important notices the caller has not acknowledged (shown at sign-in)"},
		{Method: "POST", Path: "/api/message/{id}/ack", Roles: access.Any, Handler: httpx.ActionByID(s.Acknowledge), ID: "message-ack", Summary: "Acknowledge a notice"},
	})
	api.Mount("Notices", []httpx.Route{
		{Method: "GET", Path: "/api/admin/notice/list", Roles: access.Managers, Handler: httpx.ListOf(s.Notices), ID: "notice-list", Summary: "Notices the caller may manage (params.tab: all, active, withdrawn)"},
		{Method: "POST", Path: "/api/admin/notice", Roles: access.Managers, Handler: httpx.WithBody(s.Send), ID: "notice-send", Summary: "Send a notice to all users, a role, centers, hospitals or chosen users (a center administrator: within their centers)", MaxBody: 64 << 10},
		{Method: "GET", Path: "/api/admin/notice/{id}/receipts", Roles: access.Managers, Handler: httpx.ByID(s.Receipts), ID: "notice-receipts", Summary: "Who received a notice and who has read it"},
		{Method: "POST", Path: "/api/admin/notice/{id}/withdraw", Roles: access.Managers, Handler: httpx.ActionByID(s.Withdraw), ID: "notice-withdraw", Summary: "Withdraw a notice"},
	})
}
