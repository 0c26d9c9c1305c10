package semaphore

// #include <stdlib.h>
import "C"

// libTok is the library's lock in the token form: filled by init, a
// receive takes the token and a send gives it back.
var libTok = make(chan struct{}, 1)

var tokCalls int

func init() { libTok <- struct{}{} }

func TokCall() {
	<-libTok
	tokCalls++
	libTok <- struct{}{}
	C.free(nil)
}

// TokLate updates the count after giving the token back.
func TokLate() {
	<-libTok
	libTok <- struct{}{}
	tokCalls++ // want `TokLate updates the package-level variable tokCalls \(read-modify-write\) without a lock`
}

// acquireOn and releaseOn are helpers of a channel parameter: the lock
// they take is the semaphore their caller passes.
func acquireOn(ch chan struct{}) { ch <- struct{}{} }
func releaseOn(ch chan struct{}) { <-ch }

var fileSem = make(chan struct{}, 1)

var fileOpens int

func OpenFile() {
	acquireOn(fileSem)
	defer releaseOn(fileSem)
	fileOpens++
}

var wideOpens int

// OpenWide passes them a channel of two slots, which excludes nothing.
func OpenWide() {
	acquireOn(wide)
	wideOpens++ // want `OpenWide updates the package-level variable wideOpens \(read-modify-write\) without a lock`
	releaseOn(wide)
}

func SpawnTok() {
	for range 4 {
		go TokCall()
		go TokLate()
		go OpenFile()
		go OpenWide()
	}
}
