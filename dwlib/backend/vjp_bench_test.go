package backend

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// benchmarkDotGradient times one gradient of a [batch,128]x[128,128] product in float32, the
// shape of a Mamba-128 projection with batch 32 x 16 rollout starts... at the project's sizes.
func benchmarkDotGradient(b *testing.B, stock bool) {
	if stock {
		VJPRegistration[NodeTypeDot] = StockDotVJP
		defer RegisterGradients()
	}
	bk := MustShared()
	rng := rand.New(rand.NewPCG(3, 4))
	mk := func(r, c int) *tensors.Tensor {
		d := make([]float32, r*c)
		for i := range d {
			d[i] = float32(rng.NormFloat64())
		}
		return tensors.FromFlatDataAndDimensions(d, r, c)
	}
	x, w := mk(512, 128), mk(128, 128)
	exec := MustNewExec(bk, func(x, w *Node) *Node {
		return Gradient(ReduceAllSum(Tanh(Dot(x, w))), w)[0]
	})
	exec.MustExec(x, w) // Compile outside the timed loop.
	b.ResetTimer()
	for range b.N {
		exec.MustExec(x, w)[0].FinalizeAll()
	}
}

// BenchmarkDotGradient compares the registered matrix-product VJP with GoMLX's stock VJP:
//
//	go test ./dwlib/backend -run '^$' -bench DotGradient
func BenchmarkDotGradient(b *testing.B) {
	b.Run("matmul", func(b *testing.B) { benchmarkDotGradient(b, false) })
	b.Run("stock", func(b *testing.B) { benchmarkDotGradient(b, true) })
}
