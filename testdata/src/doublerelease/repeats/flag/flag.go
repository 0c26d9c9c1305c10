// Package flag is a helper of another package: a claim that tests a flag,
// and one that tests and sets it.
package flag

import "sync/atomic"

type Closed struct{ closed atomic.Bool }

// Open reports whether the flag is still clear; it sets nothing.
func (c *Closed) Open() bool { return !c.closed.Load() }

// Claim sets the flag and reports whether this call set it.
func (c *Closed) Claim() bool { return c.closed.CompareAndSwap(false, true) }
