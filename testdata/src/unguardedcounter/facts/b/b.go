// Package b reads package a's atomic counters plainly. It calls C, so the
// race detector is blind to these races and they are lifetimevet's.
package b

// static int nothing(void) { return 0; }
import "C"

import (
	"sync/atomic"

	"unguardedcounter/facts/a"
)

func Dropped(m *a.Metrics) uint64 { return m.Dropped } // want `Dropped reads m.Dropped plainly, but DroppedFixed accesses it with atomic Load \(line 19\)`

func Total() int64 { return a.Total } // want `Total reads Total plainly, but package a accesses it with atomic Add \(a.go:14\)`

// Fixed: atomic loads.
func DroppedFixed(m *a.Metrics) uint64 { return atomic.LoadUint64(&m.Dropped) }

func Ping() int { return int(C.nothing()) }
