package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } sock;
static sock* sock_open(void) { return malloc(sizeof(sock)); }
static void sock_close(sock* s) { free(s); }
static int sock_send(sock* s) { return 0; }
*/
import "C"

import "sync"

// Socket releases its handle before taking the lock under which it clears
// it: two calls of Close both release it.
type Socket struct {
	mu sync.Mutex
	s  *C.sock
}

func (k *Socket) Send() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return int(C.sock_send(k.s))
}

func (k *Socket) Close() {
	C.sock_close(k.s) // want `Close releases k.s without k.mu and clears it under the lock only afterwards \(line \d+\): two calls can both release it before either clears it \(Socket has a mutex\); take the handle under k.mu`
	k.mu.Lock()
	k.s = nil
	k.mu.Unlock()
}

// SocketOK claims the handle under the lock and releases it after.
type SocketOK struct {
	mu sync.Mutex
	s  *C.sock
}

func (k *SocketOK) Send() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return int(C.sock_send(k.s))
}

func (k *SocketOK) Close() {
	k.mu.Lock()
	s := k.s
	k.s = nil
	k.mu.Unlock()
	if s != nil {
		C.sock_close(s)
	}
}

// Pipe2 releases through a helper, with a lifecycle lock (only Open and
// Shutdown take it): Shutdown against Shutdown.
type Pipe2 struct {
	mu sync.Mutex
	s  *C.sock
	n  int
}

func (p *Pipe2) Open() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.s = C.sock_open()
}

func (p *Pipe2) drop() { C.sock_close(p.s) }

func (p *Pipe2) Shutdown() {
	p.drop() // want `Shutdown releases p.s without p.mu and clears it under the lock only afterwards \(line \d+\): two calls can both release it before either clears it \(Shutdown holds Pipe2's mutex, which only 2 of the \d+ functions that use its state take`
	p.mu.Lock()
	p.s = nil
	p.mu.Unlock()
}

func (p *Pipe2) Send() { p.n++; C.sock_send(p.s) }
func (p *Pipe2) Ping() { p.n = 0; C.sock_send(p.s) }
func (p *Pipe2) Pong() { p.n--; C.sock_send(p.s) }

// Listener: its serving goroutine releases the handle when it stops, and
// Close releases it too; both run at once.
type Listener struct {
	s    *C.sock
	quit chan struct{}
}

func (l *Listener) Serve() {
	go l.loop()
}

func (l *Listener) loop() {
	<-l.quit
	C.sock_close(l.s)
}

func (l *Listener) Close() {
	close(l.quit)
	C.sock_close(l.s) // want `Close releases Listener.s, and loop releases it too \(line \d+\): they can run at once \(the caller of Close and the goroutine started at line \d+\), and both release it`
}

// ListenerOK: only the goroutine releases; Close tells it to.
type ListenerOK struct {
	s    *C.sock
	quit chan struct{}
}

func (l *ListenerOK) Serve() {
	go l.loop()
}

func (l *ListenerOK) loop() {
	<-l.quit
	C.sock_close(l.s)
}

func (l *ListenerOK) Close() { close(l.quit) }

// Relay: two goroutines each release on their way out, in function
// literals.
type Relay struct{ s *C.sock }

func (r *Relay) Start() {
	go func() {
		C.sock_send(r.s)
		C.sock_close(r.s)
	}()
	go func() {
		C.sock_close(r.s) // want `the function literal in Start releases Relay.s, and the function literal in Start releases it too \(line \d+\): they can run at once \(the goroutine started at line \d+ and the goroutine started at line \d+\)`
	}()
}
