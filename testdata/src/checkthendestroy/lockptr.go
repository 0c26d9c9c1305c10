package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } pipe_t;
static void pipe_close(pipe_t* p) { free(p); }
static int pipe_send(pipe_t* p) { return 0; }
*/
import "C"

import "sync"

// Pipe shares one *sync.RWMutex with its clones (a mutex reached through a
// pointer field): Close changes the handle under it.
type Pipe struct {
	mu *sync.RWMutex
	p  *C.pipe_t
}

func (p *Pipe) Clone() *Pipe {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return &Pipe{mu: p.mu, p: p.p}
}

func (p *Pipe) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.p != nil {
		C.pipe_close(p.p)
		p.p = nil
	}
}

// Send holds the same mutex through the pointer: guarded.
func (p *Pipe) Send() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return int(C.pipe_send(p.p))
}

// SendFast does not.
func (p *Pipe) SendFast() int {
	return int(C.pipe_send(p.p)) // want `SendFast passes C.pipe_send the handle in p.p without p.mu, which Close holds when it changes it`
}

// Port embeds a *sync.Mutex: the promoted Lock loads it from the field.
type Port struct {
	*sync.Mutex
	p *C.pipe_t
}

func (t *Port) Close() {
	t.Lock()
	defer t.Unlock()
	if t.p != nil {
		C.pipe_close(t.p)
		t.p = nil
	}
}

// Send locks through a helper that the unexported send's only caller
// calls first.
func (t *Port) Send() int {
	t.Lock()
	defer t.Unlock()
	return t.send()
}

func (t *Port) send() int { return int(C.pipe_send(t.p)) }

func (t *Port) SendFast() int {
	return int(C.pipe_send(t.p)) // want `SendFast passes C.pipe_send the handle in t.p without t.Mutex, which Close holds when it changes it`
}
