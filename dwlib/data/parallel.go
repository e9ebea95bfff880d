package data

import (
	"runtime"
	"sync"
)

// parallelFor runs f(0..n-1) on up to GOMAXPROCS goroutines. Generators are
// written so that f(i) depends only on i (own random stream, own output
// slot), hence results do not depend on scheduling.
func parallelFor(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
