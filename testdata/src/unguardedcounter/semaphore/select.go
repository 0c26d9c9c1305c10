package semaphore

import "context"

// Handle takes its slot in a select, so that a caller can give up.
type Handle struct {
	sem   chan struct{}
	calls int
	drops int
}

func NewHandle() *Handle { return &Handle{sem: make(chan struct{}, 1)} }

func (h *Handle) Run(ctx context.Context) error {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		h.drops++ // want `Run increments h.drops without atomics or a lock`
		return ctx.Err()
	}
	defer func() { <-h.sem }()
	h.calls++
	return nil
}

func (h *Handle) Spawn(ctx context.Context) {
	for range 4 {
		go h.Run(ctx)
	}
}
