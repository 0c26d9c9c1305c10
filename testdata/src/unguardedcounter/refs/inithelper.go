package refs

import "sync/atomic"

// An init helper that writes the count of an object its callers have just
// made is part of their constructors: no other goroutine can reach the
// object before they hand it on.

type Stream struct {
	refs int32
	id   int
}

func (s *Stream) Retain() { atomic.AddInt32(&s.refs, 1) }

func (s *Stream) Release() bool { return atomic.AddInt32(&s.refs, -1) == 0 }

func (s *Stream) init(id int) { s.refs = 1; s.id = id }

func initStream(s *Stream, id int) { s.init(id) } // a helper of a helper

func setup(s *Stream) { s.refs = 1 } // want `setup writes s.refs plainly, but Retain accesses it with atomic Add`

func NewStream(id int) *Stream {
	s := &Stream{}
	s.init(id)
	return s
}

func NewStreamNew(id int) *Stream {
	s := new(Stream)
	initStream(s, id)
	return s
}

func NewStreamVar(id int) *Stream {
	var s Stream
	s.init(id)
	return &s
}

// streams holds every stream published.
var streams []*Stream

// Pub publishes the stream before setup counts it: another goroutine can
// take a reference first.
func Pub() *Stream {
	var s Stream
	streams = append(streams, &s)
	setup(&s)
	return &s
}

// Redo is an exported entry into setup with any stream.
type Redo struct {
	refs int32
}

func (r *Redo) Retain() { atomic.AddInt32(&r.refs, 1) }

func (r *Redo) reset() { r.refs = 1 } // want `reset writes r.refs plainly, but Retain accesses it with atomic Add`

func NewRedo() *Redo {
	r := &Redo{}
	r.reset()
	return r
}

// Reuse gives an existing Redo a count of one again.
func (r *Redo) Reuse() { r.reset() }
