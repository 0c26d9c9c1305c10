package sharedglobal

import "sync"

// A package-level lock taken through helpers guards what runs between
// them: silent. A helper that unlocks before returning guards nothing.
var (
	regMu     sync.Mutex
	regCount  int
	helperReg = map[int]string{}
	stray     int
)

func lockReg()   { regMu.Lock() }
func unlockReg() { regMu.Unlock() }
func touchReg()  { regMu.Lock(); regMu.Unlock() }

func register(i int, s string) {
	lockReg()
	defer unlockReg()
	regCount++
	helperReg[i] = s
}

func unregister(i int) {
	lockReg()
	delete(helperReg, i)
	regCount--
	unlockReg()
}

func strayAdd() {
	touchReg()
	stray++ // want `strayAdd updates the package-level variable stray \(read-modify-write\) without a lock`
}

func spawnRegistry() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			register(i, "x")
			unregister(i)
			strayAdd()
		}()
	}
	wg.Wait()
}
