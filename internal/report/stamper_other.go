//go:build !linux

package report

import "syscall"

// childAttr: elsewhere than on Linux there is no parent-death signal; the
// child is killed at its timeout or when its request ends, but outlives a
// crash of this process.
func childAttr() *syscall.SysProcAttr { return nil }

// limitSelf: no limits elsewhere than on Linux but the Stamper's timeout.
func limitSelf(mem, cpu uint64) error { return nil }
