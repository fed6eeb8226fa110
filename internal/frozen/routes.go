package frozen

import (
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the attendance, duty schedule and frozen appointment
// endpoints (spec 1 §2: /schedule/duty, /frozen-case/*, /frozen-distribute/*,
// /frozen-expert/manage, /admin/appointment-manage).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Duty schedule", []httpx.Route{
		{Method: "GET", Path: "/api/schedule/groups", Roles: access.Allocators, Handler: httpx.Result(s.Groups), ID: "attendance-group-list", Summary: "Attendance groups of the caller's centers with members and shifts"},
		{Method: "GET", Path: "/api/schedule/group/{id}", Roles: access.Allocators, Handler: httpx.ByID(s.Group), ID: "attendance-group-get", Summary: "Get an attendance group"},
		{Method: "POST", Path: "/api/schedule/group", Roles: access.Allocators, Handler: httpx.WithBody(s.CreateGroup), ID: "attendance-group-create", Summary: "Create an attendance group (name, participants, period name, shifts of 1 to 3 sessions)", MaxBody: 64 << 10},
		{Method: "PUT", Path: "/api/schedule/group/{id}", Roles: access.Allocators, Handler: httpx.ByIDWithBody(s.UpdateGroup), ID: "attendance-group-update", Summary: "Change an attendance group (version check)", MaxBody: 64 << 10},
		{Method: "DELETE", Path: "/api/schedule/group/{id}", Roles: access.Allocators, Handler: httpx.ActionByID(s.DeleteGroup), ID: "attendance-group-delete", Summary: "Retire an attendance group and its future duty"},
		{Method: "PUT", Path: "/api/schedule/duty", Roles: access.Allocators, Handler: httpx.WithBody(s.Schedule), ID: "duty-schedule", Summary: "Replace a group's duty over a scheduling cycle of at most 31 days (version check)", MaxBody: 256 << 10},
		{Method: "GET", Path: "/api/schedule/duty", Roles: access.Allocators, Handler: httpx.Value(s.Duty), ID: "duty-list", Summary: "Who is on duty between two days (month calendar)"},
	})
	api.Mount("Frozen sections", []httpx.Route{
		{Method: "POST", Path: "/api/frozen/appointment", Roles: access.FrozenBookers, Handler: httpx.WithBody(s.Book), ID: "frozen-book", Summary: "Book a frozen section for a planned operation", MaxBody: 32 << 10},
		{Method: "GET", Path: "/api/frozen/appointment/lists", Roles: access.FrozenReaders, Handler: httpx.ListOf(s.Appointments), ID: "frozen-list", Summary: "Appointments and frozen cases the caller sees (tabs)"},
		{Method: "GET", Path: "/api/frozen/appointment/count", Roles: access.FrozenReaders, Handler: httpx.CountsOf(s.CountAppointments), ID: "frozen-count", Summary: "Tab counts of the appointment list"},
		{Method: "GET", Path: "/api/frozen/appointment/export", Roles: access.FrozenReaders, Handler: httpx.Raw(s.export), ID: "frozen-export", Summary: "Excel export of the filtered appointments with turnaround"},
		{Method: "GET", Path: "/api/frozen/appointment/{id}", Roles: access.FrozenReaders, Handler: httpx.ByID(s.Appointment), ID: "frozen-get", Summary: "Get an appointment with the caller's actions"},
		{Method: "PUT", Path: "/api/frozen/appointment/{id}", Roles: access.FrozenBookers, Handler: httpx.ByIDWithBody(s.Resubmit), ID: "frozen-resubmit", Summary: "Change a returned appointment and send it again (applying)", MaxBody: 32 << 10},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/accept", Roles: access.Allocators, Handler: httpx.ByID(s.Accept), ID: "frozen-accept", Summary: "Accept an appointment (pending)"},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/return", Roles: access.Allocators, Handler: httpx.ByIDWithBody(s.Return), ID: "frozen-return", Summary: "Return an appointment with a reason", MaxBody: 8 << 10},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/ignore", Roles: access.Allocators, Handler: httpx.ByID(s.Ignore), ID: "frozen-ignore", Summary: "Ignore an application"},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/unignore", Roles: access.Allocators, Handler: httpx.ByID(s.Unignore), ID: "frozen-unignore", Summary: "Take back an ignored application"},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/recall", Roles: access.FrozenBookers, Handler: httpx.ByIDWithBody(s.Recall), ID: "frozen-recall", Summary: "Ask to withdraw an appointment", MaxBody: 8 << 10},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/recall/agree", Roles: access.Allocators, Handler: httpx.ByID(s.RecallAgree), ID: "frozen-recall-agree", Summary: "Confirm a withdrawal"},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/recall/reject", Roles: access.Allocators, Handler: httpx.ByID(s.RecallReject), ID: "frozen-recall-reject", Summary: "Refuse a withdrawal"},
		{Method: "GET", Path: "/api/frozen/appointment/{id}/case", Roles: access.FrozenBookers, Handler: httpx.ByID(s.Prefill), ID: "frozen-prefill", Summary: "The frozen case's registration as the appointment fills it"},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/arrive", Roles: access.FrozenBookers, Handler: httpx.ByIDWithBody(s.Arrive), ID: "frozen-arrive", Summary: "Turn the appointment into a frozen case: register, attach slides, submit and assign to the expert on duty", MaxBody: 256 << 10},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/assign", Roles: access.Allocators, Handler: httpx.ByIDWithBody(s.Assign), ID: "frozen-assign", Summary: "Assign the frozen case (an expert of the center, or the next on duty)", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/paraffin", Roles: access.FrozenBookers, Handler: httpx.ByID(s.Paraffin), ID: "frozen-paraffin", Summary: "Register the paraffin case that follows the reported frozen case (a draft prefilled from it, linked for concordance)"},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/concordance", Roles: access.ConcordanceJudges, Handler: httpx.ByIDWithBody(s.Judge), ID: "frozen-concordance", Summary: "Record how the published paraffin diagnosis compares with the frozen one", MaxBody: 4 << 10},
		{Method: "POST", Path: "/api/frozen/appointment/{id}/open", Roles: access.Experts, Handler: httpx.ByID(s.Open), ID: "frozen-open", Summary: "Record the expert's first look at the frozen case"},
	})
}
