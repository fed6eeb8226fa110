package app

import (
	"context"

	"telepath/internal/billing"
	"telepath/internal/consultation"
	"telepath/internal/diagnosis"
	"telepath/internal/files"
	"telepath/internal/library"
	"telepath/internal/org"
	"telepath/internal/platform/access"
	"telepath/internal/report"
	"telepath/internal/settings"
	"telepath/internal/user"
)

// diagnosisDeps connects the diagnosis domain to the services it calls.
func diagnosisDeps(c *consultation.Service, u *user.Service, l *library.Service, st *settings.Service) diagnosis.Deps {
	return diagnosis.Deps{
		Cases: c,
		Experts: func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error) {
			return members(ctx, u, centerID, access.Expert)
		},
		Thirds: func(ctx context.Context, centerID int64) ([]consultation.PersonRef, error) {
			return members(ctx, u, centerID, access.Third)
		},
		DelayHours: func(ctx context.Context, libraryID int64) (int, error) {
			lib, err := l.Get(ctx, libraryID)
			if err != nil {
				return 0, err
			}
			return lib.DelayHours, nil
		},
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
	}
}

func members(ctx context.Context, u *user.Service, centerID int64, role string) ([]consultation.PersonRef, error) {
	ms, err := u.Members(ctx, centerID, role)
	out := make([]consultation.PersonRef, len(ms))
	for i, m := range ms {
		out[i] = consultation.PersonRef{ID: m.ID, Name: m.Name}
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
		ChargeItems: func(ctx context.Context, ids []int64) (map[int64]consultation.ChargeItem, error) {
			items, err := b.Items(ctx, ids)
			out := make(map[int64]consultation.ChargeItem, len(items))
			for id, it := range items {
				out[id] = consultation.ChargeItem{Name: it.Name, PriceFen: int64(it.Price), Unit: it.Unit}
			}
			return out, err
		},
		Files:      f,
		NeedSlides: func(ctx context.Context) bool { return st.System(ctx).NeedUploadSlide },
	}
}
