package backend

import (
	"testing"
	"time"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// poolTestConfig is the configuration TestDefaultConfigRunsConcurrentLargeProducts checks;
// set it to "go" (GoMLX's own default) to see the test fail.
var poolTestConfig = DefaultConfig

// TestDefaultConfigRunsConcurrentLargeProducts runs a graph of eight independent float32
// [256, 256] products, each large enough for the pure-Go backend's parallel matrix-product
// kernel, ten times on a fresh backend of the default configuration. With GoMLX's bounded default
// pool such a graph hung in 3 to 6 of 10 executions on 2 cores (DefaultConfig's comment); a hang
// here fails after a minute instead of stalling the suite.
func TestDefaultConfigRunsConcurrentLargeProducts(t *testing.T) {
	b, err := NewWithConfig(poolTestConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	const products, n = 8, 256
	inputs := make([]any, products)
	for i := range inputs {
		x := make([]float32, n*n)
		for j := range x {
			x[j] = float32((i+j)%7) / 7
		}
		inputs[i] = tensors.FromFlatDataAndDimensions(x, n, n)
	}
	exec := MustNewExec(b, func(xs []*Node) *Node {
		sum := ScalarZero(xs[0].Graph(), xs[0].DType())
		for i, x := range xs { // independent products: the executor may run them at once
			sum = Add(sum, ReduceAllSum(MatMul(x, Transpose(xs[(i+1)%len(xs)], 0, 1))))
		}
		return sum
	})
	defer exec.Finalize()
	var want float32
	for run := range 10 {
		done := make(chan float32, 1)
		go func() { done <- tensors.MustCopyFlatData[float32](exec.MustExec(inputs...)[0])[0] }()
		select {
		case got := <-done:
			if run == 0 {
				want = got
			} else if got != want {
				t.Fatalf("run %d: sum %g, run 0 gave %g", run, got, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("backend %q: run %d of %d independent [%d, %d] products did not finish in a minute (a worker-pool deadlock)", poolTestConfig, run, products, n, n)
		}
	}
}
