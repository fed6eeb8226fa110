package meeting

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the meeting calls (spec 2 §7 POST /consultation/meeting,
// PATCH /consultation/meeting/{id}, GET /user/meeting, POST
// /user/meeting/quit/{id}) and the live ones: join, and the signals the
// participants' streams receive (event "meeting").
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Meetings", []httpx.Route{
		{Method: "POST", Path: "/api/consultation/meeting", Roles: access.Experts, Handler: httpx.WithBody(s.Start), ID: "meeting-start", Summary: "Start a meeting on a case and invite experts who may see it (show_meeting on); the caller presents", MaxBody: 8 << 10},
		{Method: "PATCH", Path: "/api/consultation/meeting/{id}", Roles: access.Experts, Handler: httpx.ByIDWithBody(s.Update), ID: "meeting-update", Summary: "End a meeting, or hand its lead to a present participant", MaxBody: 1 << 10},
		{Method: "GET", Path: "/api/consultation/meeting/{id}", Roles: access.Experts, Handler: httpx.ByID(s.Get), ID: "meeting-get", Summary: "A meeting the caller was invited to: presenter, participants, last view, the case's slides"},
		{Method: "POST", Path: "/api/consultation/meeting/{id}/join", Roles: access.Experts, Handler: httpx.ByID(s.Join), ID: "meeting-join", Summary: "Join a meeting the caller was invited to"},
		{Method: "POST", Path: "/api/consultation/meeting/{id}/signal", Roles: access.Experts, Handler: httpx.ActionByIDWithBody(s.Signal), ID: "meeting-signal", Summary: "Send the presenter's viewer state or one's pointer to the participants' live streams", MaxBody: 2 << 10},
		{Method: "GET", Path: "/api/user/meeting", Roles: access.Experts, Handler: httpx.Result(s.Mine), ID: "meeting-mine", Summary: "The meetings going on that the caller was invited to"},
		{Method: "POST", Path: "/api/user/meeting/quit/{id}", Roles: access.Experts, Handler: httpx.ActionByID(s.Quit), ID: "meeting-quit", Summary: "Leave a meeting (the presenter leaving ends it)"},
	})
}
