package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } chan_t;
static void chan_close(chan_t* p) { free(p); }
static int chan_send(chan_t* p) { return 0; }
*/
import "C"

import "sync"

// Channel shares one *sync.RWMutex with its clones (a mutex reached through a
// pointer field): Close changes the handle under it.
type Channel struct {
	mu *sync.RWMutex
	p  *C.chan_t
}

func (p *Channel) Clone() *Channel {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return &Channel{mu: p.mu, p: p.p}
}

func (p *Channel) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.p != nil {
		C.chan_close(p.p)
		p.p = nil
	}
}

// Send holds the same mutex through the pointer: guarded.
func (p *Channel) Send() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return int(C.chan_send(p.p))
}

// SendFast does not.
func (p *Channel) SendFast() int {
	return int(C.chan_send(p.p)) // want `SendFast passes C.chan_send the handle in p.p without p.mu, which Close holds when it changes it`
}

// Jack embeds a *sync.Mutex: the promoted Lock loads it from the field.
type Jack struct {
	*sync.Mutex
	p *C.chan_t
}

func (t *Jack) Close() {
	t.Lock()
	defer t.Unlock()
	if t.p != nil {
		C.chan_close(t.p)
		t.p = nil
	}
}

// Send locks through a helper that the unexported send's only caller
// calls first.
func (t *Jack) Send() int {
	t.Lock()
	defer t.Unlock()
	return t.send()
}

func (t *Jack) send() int { return int(C.chan_send(t.p)) }

func (t *Jack) SendFast() int {
	return int(C.chan_send(t.p)) // want `SendFast passes C.chan_send the handle in t.p without t.Mutex, which Close holds when it changes it`
}
