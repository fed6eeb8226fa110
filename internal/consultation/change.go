package consultation

import "time"

// Change is what a transition made by another domain changes on the case
// beyond its state: each field is left as it is (the zero Field), set to a
// value (Set) or emptied (Clear). The consultation domain alone turns it
// into its columns.
type Change struct {
	LockedBy     Field[int64]     // the expert editing the case
	ReviewerID   Field[int64]     // the second expert reviewing the diagnosis
	ExpertID     Field[int64]     // the assigned expert
	HandoverFrom Field[int64]     // the expert who handed the case over, while pending
	ReturnedBy   Field[int64]     // the expert who returned the case to the center
	ReturnReason Field[string]    // why the case was returned
	AssignedAt   Field[time.Time] // when the expert was assigned
	TimeoutAt    Field[time.Time] // when the expert's time runs out
	RemindAt     Field[time.Time] // when the expert is reminded
	DelayDays    Field[int]       // days the expert's time was extended by
	DelayReason  Field[string]    // why it was extended
	PublishedAt  Field[time.Time] // when the report was signed
	ReleaseAt    Field[time.Time] // when the report is released to the site
	PrintDeliver Field[int]       // the printed report's state (ToPrint, …; 0 none)
	// TimeoutReason is why the report was signed after the deadline.
	TimeoutReason Field[string]
}

// Field is one column of a Change: unset, a value, or emptied (NULL).
type Field[T any] struct {
	set, null bool
	v         T
}

// Set is a Field holding v.
func Set[T any](v T) Field[T] { return Field[T]{set: true, v: v} }

// Clear is a Field that empties its column.
func Clear[T any]() Field[T] { return Field[T]{set: true, null: true} }

func (f Field[T]) put(vals map[string]any, column string) {
	switch {
	case !f.set:
	case f.null:
		vals[column] = nil
	default:
		vals[column] = f.v
	}
}

// values are the columns c sets.
func (c Change) values() map[string]any {
	vals := map[string]any{}
	c.LockedBy.put(vals, "locked_by")
	c.ReviewerID.put(vals, "reviewer_id")
	c.ExpertID.put(vals, "expert_id")
	c.HandoverFrom.put(vals, "handover_from")
	c.ReturnedBy.put(vals, "returned_by")
	c.ReturnReason.put(vals, "return_reason")
	c.AssignedAt.put(vals, "assigned_at")
	c.TimeoutAt.put(vals, "timeout_at")
	c.RemindAt.put(vals, "remind_at")
	c.DelayDays.put(vals, "delay_days")
	c.DelayReason.put(vals, "delay_reason")
	c.PublishedAt.put(vals, "published_at")
	c.ReleaseAt.put(vals, "release_at")
	c.PrintDeliver.put(vals, "print_deliver_status")
	c.TimeoutReason.put(vals, "timeout_reason")
	return vals
}
