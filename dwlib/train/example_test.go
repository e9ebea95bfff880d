package train_test

import (
	"fmt"
	"math"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// waves is the user's data: n two-channel series of length T.
func waves(n, T int, phase float64) []data.Series {
	out := make([]data.Series, n)
	for u := range out {
		out[u].X = make([][]float64, T)
		for t := range T {
			a := 0.3*float64(t) + phase + float64(u)
			out[u].X[t] = []float64{math.Sin(a), math.Cos(1.3 * a)}
		}
	}
	return out
}

// Example_ownModel trains a user-defined residual MLP with Internal-DW. The model is an ordinary
// GoMLX step function whose residual merges go through merge (route.Router.Block inside a routed
// rollout); model.FromCell makes it a train.Model, so every method, validation, evaluation
// (Session.Predictor) and checkpoints (Session.Save, Load, SaveModel, train.LoadModel) work as for
// the built-in forecasters.
func Example_ownModel() {
	// The user's model: x ↦ x + readout(merges of dense → tanh → dense over a read-in).
	cell := model.CellFunc(func(scope *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
		z := layers.DenseWithBias(scope.In("read_in"), x, 16)
		for l := range 2 {
			b := scope.In("block%d", l)
			z = merge(l, z, func(h *Node) *Node {
				return layers.Dense(b.In("out"), Tanh(layers.DenseWithBias(b.In("up"), h, 32)), false, 16)
			})
		}
		return Add(x, MulScalar(layers.DenseWithBias(scope.In("read_out"), z, 8), 0.1))
	})

	// Training it with Internal-DW.
	bk := backend.MustShared()
	m, err := model.FromCell(bk, model.Spec{Name: "my-mlp", StateDim: 8, Layers: 2, Window: 4, BurnIn: 4, Seed: 1}, cell)
	if err != nil {
		panic(err)
	}
	// The data: any []data.Series (here the paper's known-SNR process, eight AR(1) coordinates with
	// memory, from the library's generator; a CSV of your own reads the same way, data.LoadCSV).
	ds, err := data.Load("known-snr", data.Options{NoCache: true, NumTraj: 20, Length: 200})
	if err != nil {
		panic(err)
	}
	const K = 16
	cfg := train.Config{Method: "dw", K: K, BatchSize: 8, LR: 3e-3, Warmup: 2, Period: 2, Seed: 1}
	s, err := train.NewSession(bk, m, cfg, train.FitConfig{Epochs: 10, StartsPerUnit: 8, Seed: 1}, ds.Train, ds.Val, nil)
	if err != nil {
		panic(err)
	}
	if err := s.Fit(nil, nil); err != nil {
		panic(err)
	}

	h := s.History()
	fmt.Println("method:", s.Trainer().Config().Method)
	fmt.Println("validation loss decreased:", h[len(h)-1].ValLoss < h[0].ValLoss)
	calibrations := 0
	for _, r := range h {
		calibrations += r.Calibrations
	}
	fmt.Println("calibrations:", calibrations) // Algorithm 1's probe minibatches
	// The committed gains, [K][L][2] flat as (α, m) per rollout step k and merge l: open near the
	// origin, where the Jacobian route still carries signal, and closed far out, where it carries
	// mostly noise (run with fmt.Printf("%.2f", g) to see them all).
	g := s.Trainer().Gains()
	open := func(k int) (n int) {
		for l := range 2 {
			if g[(k*2+l)*2+1] > 0 {
				n++
			}
		}
		return n
	}
	fmt.Printf("open m gains at step 1: %d of 2; at step %d: %d of 2\n", open(0), K, open(K-1))
	// Output:
	// method: dw
	// validation loss decreased: true
	// calibrations: 69
	// open m gains at step 1: 2 of 2; at step 16: 0 of 2
}

// Example_ownRecurrentModel trains a user-defined recurrent cell with Internal-DW: a GRU-style
// hidden state h [N, 8] is carried from step to step (zero before the first observed step, built
// by the Window−1 context states), and only the residual merges are routed.
func Example_ownRecurrentModel() {
	cell := model.RecurrentCellFunc(func(scope *mlmodel.Scope, x, h, d *Node, merge model.Merge) (*Node, *Node) {
		xh := Concatenate([]*Node{x, h}, -1)
		gate := Logistic(layers.DenseWithBias(scope.In("gate"), xh, 8))
		hNext := Add(Mul(gate, h), Mul(OneMinus(gate), Tanh(layers.DenseWithBias(scope.In("cand"), xh, 8))))
		z := layers.DenseWithBias(scope.In("read_in"), Concatenate([]*Node{x, hNext}, -1), 16)
		for l := range 2 {
			b := scope.In("block%d", l)
			z = merge(l, z, func(v *Node) *Node {
				return layers.Dense(b.In("out"), Tanh(layers.DenseWithBias(b.In("up"), v, 32)), false, 16)
			})
		}
		return Add(x, MulScalar(layers.DenseWithBias(scope.In("read_out"), z, 2), 0.1)), hNext
	})

	bk := backend.MustShared()
	m, err := model.FromRecurrentCell(bk, model.Spec{Name: "my-gru", StateDim: 2, Layers: 2, Window: 6, BurnIn: 4, HiddenDim: 8, Seed: 1}, cell)
	if err != nil {
		panic(err)
	}
	cfg := train.Config{Method: "dw", K: 8, BatchSize: 8, LR: 3e-3, Warmup: 2, Period: 2, Seed: 1}
	s, err := train.NewSession(bk, m, cfg, train.FitConfig{Epochs: 3, StartsPerUnit: 8, Seed: 1}, waves(4, 60, 0), waves(2, 60, 0.5), nil)
	if err != nil {
		panic(err)
	}
	if err := s.Fit(nil, nil); err != nil {
		panic(err)
	}
	h := s.History()
	fmt.Println(m)
	fmt.Println("validation loss decreased:", h[len(h)-1].ValLoss < h[0].ValLoss)
	// Output:
	// my-gru (L=2, D=2, J=0, hidden 8, 2498 parameters)
	// validation loss decreased: true
}
