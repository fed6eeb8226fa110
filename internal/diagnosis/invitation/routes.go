package invitation

import (
	"context"

	"telepath/internal/consultation"
	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the invitation endpoints (spec 2 §7 Diagnosis invited).
func (s *Service) Routes(api *httpx.API) {
	api.Mount("Diagnosis", []httpx.Route{
		{Method: "POST", Path: "/api/diagnosis/{id}/invited", Roles: access.Experts, Handler: httpx.Action(s.invite), ID: "diagnosis-invite", Summary: "Invite experts of the center to give their opinion"},
		{Method: "GET", Path: "/api/diagnosis/{id}/invited", Roles: access.CaseReaders, Handler: httpx.ByID(s.CaseInvitations), ID: "diagnosis-invitations", Summary: "Invitations of a case with their replies", Read: &httpx.Read{Action: "read.invitations"}},
		{Method: "GET", Path: "/api/diagnosis/{id}/invited/info", Roles: access.Experts, Handler: httpx.ByID(s.InvitationInfo), ID: "diagnosis-invitation-info", Summary: "The caller's invitations to a case (to answer them in the workspace)"},
		{Method: "POST", Path: "/api/diagnosis/{id}/invited/{invite_id}", Roles: access.Experts, Handler: httpx.Action(s.replyInvitation), ID: "diagnosis-invite-reply", Summary: "Answer an invitation to a case"},
		{Method: "GET", Path: "/api/admin/invited/list", Roles: access.Managers, Handler: httpx.ListOf(s.ManageList), ID: "admin-invited-list", Summary: "Invitations on the cases of the centers the caller manages (params.tab: unanswered, answered)", Read: &httpx.Read{Action: "read.invited_list", Object: "invited_list"}},
		{Method: "GET", Path: "/api/admin/invited/count", Roles: access.Managers, Handler: httpx.CountsOf(s.ManageCount), ID: "admin-invited-count", Summary: "Tab counts of the invitation list"},
		{Method: "GET", Path: "/api/admin/invited/people", Roles: access.Managers, Handler: httpx.Value(s.managePeople), ID: "admin-invited-people", Summary: "Who invited or was invited on the caller's centers' cases (filter choices)"},
		{Method: "GET", Path: "/api/admin/invited/export", Roles: access.Managers, Handler: httpx.Raw(s.exportManage), ID: "admin-invited-export", Summary: "Excel export of the filtered invitations", Read: &httpx.Read{Action: "export.invited_list", Object: "invited_list"}},
		{Method: "GET", Path: "/api/diagnosis/invitations", Roles: access.Experts, Handler: httpx.Value(s.myInvitations), ID: "diagnosis-my-invitations", Summary: "Invitations the caller received (or sent, with sent=true)"},
	})
}

func (s *Service) invite(ctx context.Context, in *struct {
	httpx.IDPath
	Body struct {
		InviteeIDs []int64 `json:"invitee_ids,omitempty" maxItems:"10"`
		Message    string  `json:"message,omitempty" maxLength:"2000"`
	}
}) error {
	return s.Invite(ctx, in.ID, in.Body.InviteeIDs, in.Body.Message)
}

func (s *Service) replyInvitation(ctx context.Context, in *struct {
	httpx.IDPath
	InviteID int64 `path:"invite_id" minimum:"1"`
	Body     struct {
		Reply string `json:"reply,omitempty" maxLength:"10000"`
	}
}) error {
	return s.Reply(ctx, in.ID, in.InviteID, in.Body.Reply)
}

func (s *Service) myInvitations(ctx context.Context, in *struct {
	Sent bool `query:"sent"`
}) ([]Invitation, error) {
	return s.MyInvitations(ctx, in.Sent)
}

func (s *Service) managePeople(ctx context.Context, _ *struct{}) ([]consultation.PersonRef, error) {
	return s.ManagePeople(ctx)
}
