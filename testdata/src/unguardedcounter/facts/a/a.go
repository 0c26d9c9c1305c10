// Package a counts atomically.
package a

import "sync/atomic"

type Metrics struct {
	Dropped uint64 // want Dropped:"atomic Add at a.go:10"
}

func (m *Metrics) Drop() { atomic.AddUint64(&m.Dropped, 1) }

var Total int64 // want Total:"atomic Add at a.go:14"

func Count() { atomic.AddInt64(&Total, 1) }
