// Package tables checks objects read out of a table that keeps them
// reachable while the entry stays, as a global does: a package-level map
// or sync.Map, and the cgo handle table in a callback (runtime/cgo's
// documentation: the caller holds the handle across the C call).
package tables

import (
	"finalizer/img"
	"runtime"
	"runtime/cgo"
	"sync"
)

var (
	mu       sync.Mutex
	registry = map[int]*img.Image{}
	images   sync.Map
)

// Registry: the map holds the image.
func Registry(id int) int {
	mu.Lock()
	im, ok := registry[id]
	mu.Unlock()
	if !ok {
		return 0
	}
	return img.Use(im.P)
}

// Stored: so does the sync.Map.
func Stored(id int) int {
	v, _ := images.Load(id)
	return img.Use(v.(*img.Image).P)
}

// Taken out of the sync.Map: nothing holds it any more.
func Taken(id int) int {
	v, _ := images.LoadAndDelete(id)
	im := v.(*img.Image)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

// Callback: the handle table holds the image for the callback.
func Callback(h cgo.Handle) int {
	im := h.Value().(*img.Image)
	return img.Use(im.P)
}

// Local: a map the function was handed holds nothing it can count on.
func Local(m map[int]*img.Image, id int) int {
	im := m[id]
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

// MapKept: the map, kept alive past the call, holds the image.
func MapKept(m map[string]*img.Image) int {
	n := img.Use(m["a"].P)
	runtime.KeepAlive(m)
	return n
}

// OtherMapKept: another map holds nothing of it.
func OtherMapKept(m, o map[string]*img.Image) int {
	n := img.Use(m["a"].P) // want `m\["a"\] may be collected while Use runs with m\["a"\].P`
	runtime.KeepAlive(o)
	return n
}

func lookup(id int) *img.Image {
	mu.Lock()
	defer mu.Unlock()
	return registry[id]
}

// ViaLookup: the package's lookup reads the map: the map holds the image.
func ViaLookup(id int) int {
	im := lookup(id)
	if im == nil {
		return 0
	}
	return img.Use(im.P)
}

// Deleted: the entry is gone before the call; nothing holds the image.
func Deleted(id int) int {
	im := registry[id]
	delete(registry, id)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

// DeletedAfter: the entry is removed only after the call.
func DeletedAfter(id int) int {
	im := registry[id]
	n := img.Use(im.P)
	delete(registry, id)
	return n
}

// HandleDeleted: the handle is deleted before the call.
func HandleDeleted(h cgo.Handle) int {
	im := h.Value().(*img.Image)
	h.Delete()
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

// StoredThenDeleted: the sync.Map entry is deleted before the call.
func StoredThenDeleted(id int) int {
	v, _ := images.Load(id)
	images.Delete(id)
	return img.Use(v.(*img.Image).P) // want `may be collected while Use runs with`
}

func unregister(id int) { delete(registry, id) }

// HelperDeleted: a helper of the package deletes the entry first.
func HelperDeleted(id int) int {
	im := registry[id]
	unregister(id)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

func take(id int) *img.Image {
	mu.Lock()
	defer mu.Unlock()
	im := registry[id]
	delete(registry, id)
	return im
}

// Taken: take reads the entry and removes it: nothing holds the image.
func TakenOut(id int) int {
	im := take(id)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

var (
	lookups  int
	lastUsed = map[int]int64{}
)

// counted reads the entry under the lock and counts the lookup: the
// counter and the last-use map hold no pointer, and the entry stays.
func counted(id int) *img.Image {
	mu.Lock()
	defer mu.Unlock()
	lookups++
	lastUsed[id]++
	return registry[id]
}

func Counted(id int) int {
	im := counted(id)
	return img.Use(im.P)
}

// takeDeferred removes the entry in a deferred call, which runs before
// it returns: nothing holds the image it returns.
func takeDeferred(id int) *img.Image {
	mu.Lock()
	defer mu.Unlock()
	defer delete(registry, id)
	return registry[id]
}

func TakenDeferred(id int) int {
	im := takeDeferred(id)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

// takeClosure removes it in a deferred literal.
func takeClosure(id int) *img.Image {
	defer func() { delete(registry, id) }()
	return registry[id]
}

func TakenClosure(id int) int {
	im := takeClosure(id)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}

// takeDeep removes it three calls down.
func takeDeep(id int) *img.Image {
	im := registry[id]
	forget1(id)
	return im
}

func forget1(id int) { forget2(id) }
func forget2(id int) { forget3(id) }
func forget3(id int) { delete(registry, id) }

func TakenDeep(id int) int {
	im := takeDeep(id)
	return img.Use(im.P) // want `im may be collected while Use runs with im.P`
}
