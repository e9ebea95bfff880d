// Command pool-deadlock is a minimal reproducer, for upstream, of a hang of GoMLX's pure-Go
// backend (github.com/gomlx/compute v0.0.0-20260716164435, with gomlx v0.28.0): a graph holding several independent large
// float32 matrix products, executed with the backend's default bounded worker pool and parallel
// executor, plain or GOEXPERIMENT=simd build alike.
//
// Each product is large enough (at least 4 Mi multiply-adds) for the "large" matrix-product kernel,
// which fans out over the backend's worker pool (Pool.Saturate) from inside a node task that itself
// holds one of the pool's workers. When every worker holds such a task, each waits for a worker
// that none will release. Found training Mamba-128 in the authors' geometry (environment.md,
// "The worker-pool hang").
//
//	GOMLX_BACKEND=go go run ./scripts/pool-deadlock -products 8      # hung in about half the runs on v0.28.0
//	GOMLX_BACKEND=go:parallelism=-1 go run ./scripts/pool-deadlock -products 8  # always finishes
//	GOMLX_BACKEND=go:ops_sequential go run ./scripts/pool-deadlock -products 8  # always finishes
//
// On gomlx v0.28.16 with compute v0.1.14 it no longer hangs (0 of 180 tries with GoMLX's pool;
// environment.md, "The worker-pool hang"): it stays to catch a regression.
//
// It exits 0 when the products finish, 1 when they have not finished after -timeout (with every
// goroutine's stack on stderr when -stacks is set).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func main() {
	products := flag.Int("products", 4, "independent matrix products in the graph")
	size := flag.Int("n", 256, "each product is [n, n] × [n, n] (n³ must be at least 4 Mi for the large kernel)")
	timeout := flag.Duration("timeout", 60*time.Second, "how long to wait for the result")
	stacks := flag.Bool("stacks", false, "print every goroutine's stack on a timeout")
	flag.Parse()

	config := os.Getenv(compute.ConfigEnvVar)
	if config == "" {
		config = "go" // GoMLX's own default, not this project's
	}
	backend, err := compute.NewWithConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pool-deadlock:", err)
		os.Exit(2)
	}
	n := *size
	inputs := make([]any, *products)
	for i := range inputs {
		x := make([]float32, n*n)
		for j := range x {
			x[j] = float32((i+j)%7) / 7
		}
		inputs[i] = tensors.FromFlatDataAndDimensions(x, n, n)
	}
	build := func(xs []*Node) *Node {
		var sum *Node
		for i, x := range xs { // independent products: the executor may run them at once
			y := ReduceAllSum(MatMul(x, Transpose(xs[(i+1)%len(xs)], 0, 1)))
			if sum == nil {
				sum = y
			} else {
				sum = Add(sum, y)
			}
		}
		return sum
	}
	fmt.Printf("backend %q, GOMAXPROCS %d, %d products of [%d, %d] × [%d, %d] (%d multiply-adds each)\n",
		config, runtime.GOMAXPROCS(0), *products, n, n, n, n, n*n*n)

	done := make(chan float32, 1)
	start := time.Now()
	go func() {
		out := MustExecOnceN(backend, build, inputs...)
		done <- tensors.MustCopyFlatData[float32](out[0])[0]
	}()
	select {
	case v := <-done:
		fmt.Printf("finished in %v (sum %g)\n", time.Since(start).Round(time.Millisecond), v)
	case <-time.After(*timeout):
		fmt.Printf("no result after %v: hung\n", *timeout)
		if *stacks {
			_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 2)
		}
		os.Exit(1)
	}
}
