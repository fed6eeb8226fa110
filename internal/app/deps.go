package app

import (
	"context"

	"telepath/internal/auth"
	"telepath/internal/notify"

	"telepath/internal/billing"
	"telepath/internal/borrow"
	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/diagnosis/advice"
	"telepath/internal/diagnosis/publication"
	"telepath/internal/diagnosis/shots"
	"telepath/internal/files"
	"telepath/internal/frozen"
	"telepath/internal/gallery"
	"telepath/internal/library"
	"telepath/internal/meeting"
	"telepath/internal/org"
	"telepath/internal/platform/access"
	"telepath/internal/report"
	"telepath/internal/settings"
	"telepath/internal/share"
	"telepath/internal/slideserver"
	"telepath/internal/user"
)

// diagnosisDeps connects the diagnosis domain to the services it calls.
func diagnosisDeps(c *consultation.Service, u *user.Service, l *library.Service, st *settings.Service) diagnosis.Deps {
	return diagnosis.Deps{
		Cases: c,
		Experts: func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error) {
			return members(ctx, u, centerID, access.Expert)
		},
		TimeoutReason:    func(ctx context.Context) bool { return st.System(ctx).TimeoutReason },
		SupplementReport: func(ctx context.Context) bool { return st.System(ctx).SupplementReport },
		ReportClasses:    func(ctx context.Context, center int64) []string { return st.DiagnosisFor(ctx, center).ReportClass },
		DelayHours: func(ctx context.Context, libraryID int64) (int, error) {
			lib, err := l.Get(ctx, libraryID)
			if err != nil {
				return 0, err
			}
			return lib.DelayHours, nil
		},
	}
}

// publicationDeps connects the report flow to the services it calls.
func publicationDeps(c *consultation.Service, d *diagnosis.Service, a *advice.Service, images func(context.Context, int64) []report.Image, u *user.Service,
	l *library.Service, st *settings.Service, t *report.Templates) publication.Deps {
	return publication.Deps{
		Cases:     c,
		Diagnoses: d,
		ReportKind: func(ctx context.Context, libraryID int64) (string, error) {
			lib, err := l.Get(ctx, libraryID)
			if err != nil {
				return "", err
			}
			return lib.ReportKind, nil
		},
		Watermark: func(ctx context.Context) *report.Watermark {
			w := st.System(ctx).Watermark
			if !w.Flag || w.Text == "" {
				return nil
			}
			return &report.Watermark{Text: w.Text, FontSize: w.FontSize, Color: w.FontColor}
		},
		ReportLayout: t.InUse,
		Signature: func(ctx context.Context, userID int64) []byte {
			b, _, _ := u.Signature(ctx, userID) // a report prints without one rather than fail
			return b
		},
		Images:        images,
		MarkerResults: a.WithMarkerResults,
	}
}

// adviceDeps connects the advice domain to the services it calls.
func adviceDeps(c *consultation.Service, u *user.Service, st *settings.Service) advice.Deps {
	return advice.Deps{
		Cases:           c,
		AllocateToThird: func(ctx context.Context) bool { return st.System(ctx).AllocateToThird },
		Thirds: func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error) {
			return members(ctx, u, centerID, access.Third)
		},
	}
}

func members(ctx context.Context, u *user.Service, centerID int64, role string) ([]consultation.PersonRef, error) {
	ms, err := u.Members(ctx, centerID, role)
	out := make([]consultation.PersonRef, len(ms))
	for i, m := range ms {
		out[i] = consultation.PersonRef{ID: m.ID, Name: m.Name, Away: m.Away, AwayNote: m.AwayNote, AwayUntil: m.AwayUntil,
			TakesCases: m.TakesCases, Subspecialties: m.Subspecialties}
	}
	return out, err
}

// consultationDeps connects the consultation domain to the services it calls.
func consultationDeps(o *org.Service, u *user.Service, l *library.Service, b *billing.Service, f *files.Service, st *settings.Service) consultation.Deps {
	return consultation.Deps{
		Org:         o,
		CheckNumber: l.CheckNumber,
		TimeoutFor: func(ctx context.Context, expedite bool) (consultation.Timeout, error) {
			t, err := b.TimeoutFor(ctx, expedite)
			return consultation.Timeout{ID: t.ID, Hours: t.Hours, RemindHours: t.RemindHours}, err
		},
		Members: func(ctx context.Context, centerID int64, role string) ([]consultation.PersonRef, error) {
			return members(ctx, u, centerID, role)
		},
		Lineage: l.Lineage,
		ChargeItems: func(ctx context.Context, ids []int64) (map[int64]consultation.ChargeItem, error) {
			items, err := b.Items(ctx, ids)
			out := make(map[int64]consultation.ChargeItem, len(items))
			for id, it := range items {
				out[id] = consultation.ChargeItem{Name: it.Name, PriceFen: int64(it.Price), Unit: it.Unit}
			}
			return out, err
		},
		Files:            f,
		NeedSlides:       func(ctx context.Context) bool { return st.System(ctx).NeedUploadSlide },
		RecallNeedsCheck: func(ctx context.Context) bool { return st.System(ctx).RollbackNeedCheck },
		Filed:            borrow.Filed,
		DefaultFixative: func(ctx context.Context, center, lib int64) string {
			cfg := st.DiagnosisFor(ctx, center)
			if lib != 0 {
				if x, err := l.Get(ctx, lib); err == nil && x.ReportKind == library.KindCell {
					return cfg.CellFixed
				}
			}
			return cfg.RoutineFixed
		},
		FormSettings: func(ctx context.Context, center int64) consultation.FormSettings {
			cfg := st.DiagnosisFor(ctx, center)
			return consultation.FormSettings{RoutineFixed: cfg.RoutineFixed, CellFixed: cfg.CellFixed, Infectious: cfg.InfectiousSpecimen}
		},
	}
}

// frozenDeps connects the frozen domain to the services it calls.
func frozenDeps(o *org.Service, u *user.Service, l *library.Service, c *consultation.Service, n *notify.Service) frozen.Deps {
	return frozen.Deps{
		Experts: func(ctx context.Context, centerID int64) ([]frozen.DutyExpert, error) {
			ms, err := u.Members(ctx, centerID, access.Expert)
			out := make([]frozen.DutyExpert, len(ms))
			for i, m := range ms {
				out[i] = frozen.DutyExpert{ID: m.ID, Name: m.Name, TakesCases: m.TakesCases, Subspecialties: m.Subspecialties}
			}
			return out, err
		},
		HospitalCenters: o.CentersOfHospital,
		HospitalName: func(ctx context.Context, id int64) (string, error) {
			refs, err := o.HospitalRefs(ctx, []int64{id})
			if err != nil || len(refs) == 0 {
				return "", err
			}
			return refs[0].Name, nil
		},
		FrozenLibrary: func(ctx context.Context) (int64, string, error) {
			lib, err := l.OfKind(ctx, library.KindFrozen)
			if err != nil || lib == nil {
				return 0, "", err
			}
			next, err := l.NextNumber(ctx, lib.ID, "")
			if err != nil {
				next = ""
			}
			return lib.ID, next, nil
		},
		Cases: c,
		Allocators: func(ctx context.Context, centerID int64) ([]int64, error) {
			return u.Audience(ctx, user.Audience{Roles: []string{access.Allocator}, CenterIDs: []int64{centerID}})
		},
		Notify: n,
	}
}

// notifyDeps connects the message centre to the services it asks.
func notifyDeps(a *auth.Service, o *org.Service, u *user.Service, st *settings.Service) notify.Deps {
	return notify.Deps{
		Audience: func(ctx context.Context, au notify.Audience) ([]int64, error) {
			return u.Audience(ctx, user.Audience(au))
		},
		Principal: a.SessionPrincipal,
		Names: func(ctx context.Context, ids []int64) (map[int64]notify.Person, error) {
			ns, err := u.Names(ctx, ids)
			out := make(map[int64]notify.Person, len(ns))
			for id, n := range ns {
				out[id] = notify.Person{Name: n.Name, Username: n.Username}
			}
			return out, err
		},
		Authenticate: func(ctx context.Context, token string) (*access.Principal, error) {
			return a.Authenticate(ctx, token, access.MetaFrom(ctx))
		},
		Scope: func(ctx context.Context, p *access.Principal) (notify.Scope, error) {
			sc, err := o.ScopeOf(ctx, p)
			return notify.Scope{All: sc.All, CenterIDs: sc.CenterIDs, HospitalIDs: sc.HospitalIDs}, err
		},
		Setting: func(ctx context.Context, key string) bool {
			sys := st.System(ctx)
			switch key {
			case "delay_report":
				return sys.DelayReport
			case "timeout_reason":
				return sys.TimeoutReason
			}
			return false
		},
	}
}

// shareDeps connects shared links to the services they read through.
func shareDeps(c *consultation.Service, a *auth.Service, sl *slideserver.Server, p *publication.Service, f *files.Service, st *settings.Service) share.Deps {
	return share.Deps{
		Cases:  c,
		Owner:  a.UserPrincipal,
		Slides: sl,
		Report: p.Redacted,
		File:   f.Bytes,
		Watermark: func(ctx context.Context) string {
			if w := st.System(ctx).Watermark; w.Flag {
				return w.Text
			}
			return ""
		},
	}
}

// meetingDeps connects meetings to the services they ask.
func meetingDeps(c *consultation.Service, a *auth.Service, n *notify.Service, st *settings.Service) meeting.Deps {
	return meeting.Deps{
		Enabled: func(ctx context.Context) bool { return st.System(ctx).ShowMeeting },
		Cases:   c,
		Person:  a.UserPrincipal,
		Notify:  n,
	}
}

// reportImages are the images a case's report prints: the checked gallery
// images (with their labels), then the selected screenshots, four at most.
func reportImages(sh *shots.Service, g *gallery.Service) func(context.Context, int64) []report.Image {
	return func(ctx context.Context, id int64) []report.Image {
		out := append(g.ReportImages(ctx, id), sh.ReportImages(ctx, id)...)
		return out[:min(len(out), report.MaxImages)]
	}
}
