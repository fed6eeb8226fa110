package statistics

import (
	"context"

	"github.com/danielgtaylor/huma/v2"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Routes registers the statistics screens, their exports, the wall view and
// the QC targets (spec 1 §2 /statistical/*, spec 2 §7 /config/qc).
func (s *Service) Routes(api *httpx.API) {
	var rs []httpx.Route
	for _, sc := range []Screen{Consultation, Bank, Expert, ExpertConsultation, Quality, HE, Outside, Diagnosis, Wall} {
		sc := sc
		roles := screens[sc].roles
		rs = append(rs,
			httpx.Route{Method: "GET", Path: "/api/statistical/" + string(sc), Roles: roles, ID: "statistics-" + string(sc),
				Handler: httpx.Value(func(ctx context.Context, q *StatQuery) (*Stats, error) { return s.Stats(ctx, sc, *q) }),
				Summary: "Statistics: " + summaries[sc]},
			httpx.Route{Method: "GET", Path: "/api/statistical/" + string(sc) + "/export", Roles: roles, ID: "statistics-" + string(sc) + "-export",
				Handler: httpx.Raw(func(ctx context.Context, q *StatQuery) (*huma.StreamResponse, error) { return s.export(ctx, sc, *q) }),
				Summary: "Excel export of exactly what the " + string(sc) + " statistics screen shows"})
	}
	rs = append(rs, httpx.Route{Method: "GET", Path: "/api/statistical/options", Roles: StatReaders, Handler: httpx.Result(s.Options), ID: "statistics-options",
		Summary: "Filter choices of the statistics screens within the caller's scope"})
	api.Mount("Statistics", rs)
	api.Mount("QC targets", []httpx.Route{
		{Method: "GET", Path: "/api/config/qc", Roles: access.StatQC, Handler: httpx.Value(s.Targets), ID: "qc-target-list", Summary: "QC indicator targets (qc value and goal value, 0–100), defaults 90 and 95"},
		{Method: "POST", Path: "/api/config/qc/store_many", Roles: access.Admins, Handler: httpx.WithBody(s.StoreMany), ID: "qc-target-store-many", Summary: "Set the targets of rate keys (0 ≤ qc value ≤ goal value ≤ 100)", MaxBody: 16 << 10},
		{Method: "PATCH", Path: "/api/config/qc/update_many", Roles: access.Admins, Handler: httpx.WithBody(s.UpdateMany), ID: "qc-target-update-many", Summary: "Change stored targets by id (0 ≤ qc value ≤ goal value ≤ 100)", MaxBody: 16 << 10},
	})
}

var summaries = map[Screen]string{
	Consultation:       "cases registered, submitted, assigned, diagnosed, published, returned, recalled and timed out per period and hospital; turnaround; charges and refunds",
	Bank:               "cases per library, sub-library and case kind",
	Expert:             "per expert: assigned, finished, in progress, late (with reasons), turnaround, invitations, reviews, referrals and returns",
	ExpertConsultation: "which experts read the caller's cases and how fast",
	Quality:            "timeliness of frozen, histology and cytology reports against their targets; counter-audit, supplementary and amended report rates; special-exam turnaround",
	HE:                 "HE slide quality grades A–D per hospital and period, the excellent rate (A+B) against its target, the reasons for grade D",
	Outside:            "cases from hospitals outside the center's own network",
	Diagnosis:          "frozen–paraffin concordance (deferred verdicts left out), review disagreement, amended reports and their reasons",
	Wall:               "today's numbers for the wall view (system config big_screen)",
}
