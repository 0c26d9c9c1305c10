// Package semaphore holds package-level state updated while a one-slot
// channel is held: the channel is the library's lock.
package semaphore

// #include <stdlib.h>
import "C"

// libSem serialises calls into a library that is not thread-safe.
var libSem = make(chan struct{}, 1)

var libCalls int

func Call() {
	libSem <- struct{}{}
	defer func() { <-libSem }()
	libCalls++
	C.free(nil)
}

// Bare updates the count without the slot.
func Bare() {
	libCalls++ // want `Bare updates the package-level variable libCalls \(read-modify-write\) without a lock`
}

// wide has two slots: two holders at once.
var wide = make(chan struct{}, 2)

var wideCalls int

func Wide() {
	wide <- struct{}{}
	wideCalls++ // want `Wide updates the package-level variable wideCalls \(read-modify-write\) without a lock`
	<-wide
}

func Spawn() {
	for range 4 {
		go Call()
		go Bare()
		go Wide()
	}
}
