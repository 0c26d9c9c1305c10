package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } tex;
static void tex_free(tex* t) { free(t); }
static int tex_bind(tex* t) { return 0; }
*/
import "C"

import "sync"

// Texture must not be used from multiple goroutines: its mutex serializes
// uploads with the renderer's callbacks only. Confined: silent.
type Texture struct {
	mu sync.Mutex
	t  *C.tex
}

func (t *Texture) Bind() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int(C.tex_bind(t.t))
}

func (t *Texture) Close() {
	if t.t != nil {
		C.tex_free(t.t)
		t.t = nil
	}
}

// Sampler has the same shape without that sentence: its mutex is its
// contract, and Close forgets it.
type Sampler struct {
	mu sync.Mutex
	t  *C.tex
}

func (s *Sampler) Bind() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(C.tex_bind(s.t))
}

func (s *Sampler) Close() {
	if s.t != nil { // want `Close checks s.t and then releases it \(line \d+\) without a guard: two goroutines \(Sampler has a mutex, which guards t elsewhere\)`
		C.tex_free(s.t)
		s.t = nil
	}
}
