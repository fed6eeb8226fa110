package slide

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// ErrBudget is returned (wrapped) when a decode would exceed the pixel
// budget of its context (see WithBudget).
var ErrBudget = errors.New("decode budget exceeded")

// A small file can claim gigapixels (every tile offset pointing at one
// tile), so the work a read may do is bounded three ways: decoded pixels
// per context (WithBudget), time and cancellation (the context itself),
// and bytes of decode buffers held at once in the whole process
// (decodeMemory), so that many concurrent requests queue instead of
// multiplying a tile's memory.
const maxDecodeBytes = 128 << 20

var decodeMemory = semaphore.NewWeighted(maxDecodeBytes)

type budgetKey struct{}

type budget struct{ left atomic.Int64 }

// WithBudget returns a context under which all decodes together may
// produce at most pixels decoded pixels; beyond it they fail with ErrBudget.
func WithBudget(ctx context.Context, pixels int64) context.Context {
	b := &budget{}
	b.left.Store(pixels)
	return context.WithValue(ctx, budgetKey{}, b)
}

// spend charges n decoded pixels to ctx's budget and fails when the
// context is done or the budget is spent.
func spend(ctx context.Context, n int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if b, ok := ctx.Value(budgetKey{}).(*budget); ok && b.left.Add(-n) < 0 {
		return fmt.Errorf("%w: decoding %d more pixels", ErrBudget, n)
	}
	return nil
}

// reserve holds n bytes of decode memory until release is called, waiting
// (as long as ctx allows) while other decodes hold it.
func reserve(ctx context.Context, n int64) (release func(), err error) {
	n = min(max(n, 1), maxDecodeBytes)
	if err := decodeMemory.Acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() { decodeMemory.Release(n) }, nil
}
