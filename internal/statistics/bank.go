package statistics

import (
	"context"
)

// bank: the cases registered per library and sub-library and per case kind.
func (s *Service) bank(ctx context.Context, r *run, rep *Stats) error {
	byLib, err := s.count(ctx, r, measure{fig: FigRegistered, from: fromLibCases, key: "c.library_id"})
	if err != nil {
		return err
	}
	published, err := s.count(ctx, r, measure{fig: FigPublished, from: fromLibCases, key: "c.library_id"})
	if err != nil {
		return err
	}
	byKind, err := s.count(ctx, r, measure{fig: FigRegistered, from: fromLibCases, key: "lib.report_kind"})
	if err != nil {
		return err
	}
	// A sub-library is shown under its parent: "parent / child".
	var libs []struct {
		ID     string  `db:"id"`
		Name   string  `db:"name"`
		Parent *string `db:"parent"`
		Kind   string  `db:"report_kind"`
	}
	if err := s.db.SelectContext(ctx, &libs, "SELECT "+text("l.id")+" AS id, l.name, p.name AS parent, l.report_kind FROM libraries l LEFT JOIN libraries p ON p.id = l.parent_id"); err != nil {
		return err
	}
	label, kindOf := map[string]string{}, map[string]string{}
	for _, l := range libs {
		label[l.ID], kindOf[l.ID] = l.Name, l.Kind
		if l.Parent != nil {
			label[l.ID] = *l.Parent + " / " + l.Name
		}
	}
	rep.Cards = append(rep.Cards, r.figure("registered", UnitCount, num(byLib.total)))
	for _, k := range Kinds {
		rep.Cards = append(rep.Cards, r.figure("kind_"+k, UnitCount, num(byKind.byKey[k])))
	}
	rep.Cards = append(rep.Cards, r.figure("published", UnitCount, num(published.total)))

	var lines, pie []StatSeries
	pieVals := []*float64{}
	kinds := []string{}
	for _, k := range Kinds {
		lines = append(lines, r.series("kind_"+k, ptrs(cellOr(byKind, k, len(r.buckets)))))
		kinds = append(kinds, r.t("statistics.figure.kind_"+k))
		pieVals = append(pieVals, num(byKind.byKey[k]))
	}
	pie = append(pie, StatSeries{Key: "registered", Label: r.t("statistics.figure.registered"), Values: pieVals})
	rep.Charts = append(rep.Charts, r.trend("kind_trend", UnitCount, lines...), r.chart("kind_share", "pie", UnitCount, kinds, pie...))

	keys := keysOf(label, byLib, published)
	cats := labelsOf(keys, label)
	rep.Charts = append(rep.Charts, r.chart("by_library", "bar", UnitCount, cats,
		r.series("registered", byKeys(byLib, keys)), r.series("published", byKeys(published, keys))))
	tab := r.table("by_library", "library", r.column("registered", UnitCount), r.column("published", UnitCount))
	for i, k := range keys {
		tab.Rows = append(tab.Rows, StatRow{Key: k, Label: cats[i] + " · " + r.t("statistics.figure.kind_"+kindOf[k]),
			Values: []*float64{num(byLib.byKey[k]), num(published.byKey[k])}})
	}
	tab.Rows = append(tab.Rows, StatRow{Key: "total", Label: r.t("statistics.head.total"), Values: []*float64{num(byLib.total), num(published.total)}})
	rep.Tables = append(rep.Tables, tab)
	return nil
}

// cellOr is t's buckets for key k, zeros when k has none.
func cellOr(t *tally, k string, n int) []float64 {
	if c, ok := t.cell[k]; ok {
		return c
	}
	return make([]float64, n)
}
