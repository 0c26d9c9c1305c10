package refs

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A new object is no longer its constructor's alone once its address is
// published: stored where others read it, or handed to a goroutine.

type Entry struct {
	refs int32
}

func (e *Entry) Retain() { atomic.AddInt32(&e.refs, 1) }

func (e *Entry) init() { e.refs = 1 } // want `init writes e.refs plainly, but Retain accesses it with atomic Add`

var (
	entriesMu sync.Mutex
	entries   = map[int]*Entry{}
)

// Lookup hands out a reference to a published entry.
func Lookup(id int) *Entry {
	entriesMu.Lock()
	e := entries[id]
	entriesMu.Unlock()
	if e != nil {
		e.Retain()
	}
	return e
}

// Publish registers the entry before it counts its reference.
func Publish(id int) *Entry {
	e := &Entry{}
	entriesMu.Lock()
	entries[id] = e
	entriesMu.Unlock()
	e.refs = 1 // want `Publish writes e.refs plainly, but Retain accesses it with atomic Add`
	return e
}

// PublishInit does the same through its init helper.
func PublishInit(id int) *Entry {
	e := new(Entry)
	entriesMu.Lock()
	entries[id] = e
	entriesMu.Unlock()
	e.init()
	return e
}

// Watched hands the entry to a goroutine first.
func Watched() *Entry {
	e := &Entry{}
	go func() { e.Retain() }()
	e.refs = 1 // want `Watched writes e.refs plainly, but Retain accesses it with atomic Add`
	return e
}

// Registered counts first, then publishes: fresh.
func Registered(id int) *Entry {
	e := &Entry{}
	e.refs = 1
	entriesMu.Lock()
	entries[id] = e
	entriesMu.Unlock()
	return e
}

// Finalized passes the entry to a call first: still its own.
func Finalized() *Entry {
	e := &Entry{}
	runtime.SetFinalizer(e, func(*Entry) {})
	e.refs = 1
	return e
}

// UnderLock publishes and counts under the registry's lock.
func UnderLock(id int) *Entry {
	e := &Entry{}
	entriesMu.Lock()
	entries[id] = e
	e.refs = 1
	entriesMu.Unlock()
	return e
}

var live sync.Map

// Stored publishes the entry in a sync.Map first.
func Stored(id int) *Entry {
	e := &Entry{}
	live.Store(id, e)
	e.refs = 1 // want `Stored writes e.refs plainly, but Retain accesses it with atomic Add`
	return e
}

// arm sets a finalizer on the entry: no publication.
func arm(e *Entry) { runtime.SetFinalizer(e, func(*Entry) {}) }

func Armed() *Entry {
	e := &Entry{}
	arm(e)
	e.refs = 1
	return e
}
