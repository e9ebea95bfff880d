package route

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// Router applies the gains of a K-step, L-layer rollout and records every routed merge so the route
// probes can find them. Build one per graph.
type Router struct {
	// Gains is the [K, L, 2] graph input of (α, m) per rollout step k and layer ℓ.
	Gains *Node
	// K and L are the rollout steps and routed layers the gains cover.
	K, L int

	records [][]Record
	alpha   [][]*Node
	m       [][]*Node
}

// NewRouter returns a Router for gains of shape [K, L, 2].
func NewRouter(gains *Node) *Router {
	if gains.Rank() != 3 || gains.Shape().Dimensions[2] != 2 {
		panicf("route.NewRouter: gains must have shape [K, L, 2], got %s", gains.Shape())
	}
	K, L := gains.Shape().Dimensions[0], gains.Shape().Dimensions[1]
	r := &Router{Gains: gains, K: K, L: L, records: make([][]Record, K), alpha: make([][]*Node, K), m: make([][]*Node, K)}
	for k := range K {
		r.records[k] = make([]Record, L)
		r.alpha[k] = make([]*Node, L)
		r.m[k] = make([]*Node, L)
	}
	return r
}

// Gain returns the scalar nodes (α, m) for rollout step k and layer l.
func (r *Router) Gain(k, l int) (alpha, m *Node) {
	r.check(k, l)
	if r.alpha[k][l] == nil {
		pair := Reshape(Slice(r.Gains, AxisElem(k), AxisElem(l), AxisRange()), 2)
		r.alpha[k][l] = Reshape(Slice(pair, AxisElem(0)))
		r.m[k][l] = Reshape(Slice(pair, AxisElem(1)))
	}
	return r.alpha[k][l], r.m[k][l]
}

func (r *Router) check(k, l int) {
	if k < 0 || k >= r.K || l < 0 || l >= r.L {
		panicf("route: merge (k=%d, l=%d) outside the gains' [K=%d, L=%d]", k, l, r.K, r.L)
	}
}

// Block is route.Block with the gains of (k, l), recorded for the probes.
func (r *Router) Block(k, l int, x *Node, F func(*Node) *Node) *Node {
	alpha, m := r.Gain(k, l)
	y, rec := BlockRecorded(x, F, alpha, m)
	r.record(k, l, rec)
	return y
}

// Merge is route.Merge with the gains of (k, l), recorded for the probes.
func (r *Router) Merge(k, l int, x *Node, skip, branch func(*Node) *Node) *Node {
	alpha, m := r.Gain(k, l)
	y, rec := MergeRecorded(x, skip, branch, alpha, m)
	r.record(k, l, rec)
	return y
}

// BlockWithState is route.BlockWithState with the gains of (k, l), recorded for the probes.
func (r *Router) BlockWithState(k, l int, x *Node, h []*Node, F func(x *Node, h []*Node) (*Node, []*Node)) (*Node, []*Node) {
	alpha, m := r.Gain(k, l)
	y, hNext, rec := BlockWithState(x, h, F, alpha, m)
	r.record(k, l, rec)
	return y, hNext
}

func (r *Router) record(k, l int, rec Record) {
	if r.records[k][l].Y != nil {
		panicf("route: merge (k=%d, l=%d) was built twice in one graph", k, l)
	}
	r.records[k][l] = rec
}

// Record returns the recorded merge (k, l); Y is nil if it was not built.
func (r *Router) Record(k, l int) Record {
	r.check(k, l)
	return r.records[k][l]
}

// Messages returns the fully open route messages d_I = dq/dy and d_F = J_Fᵀ dq/dy of every recorded
// merge for the scalar probe q, laid out [k][l]. Merges that were not built get nil.
func (r *Router) Messages(q *Node) (dI, dF [][]*Node) {
	dI, dF, _ = r.MessagesWith(q)
	return dI, dF
}

// MessagesWith is Messages that also returns the fully open gradients of q with respect to the
// extra nodes, from the same backward pass: the step engine of dwlib/train differentiates one
// rollout step at a time and carries these gradients (of the step's input state) to the step
// before.
func (r *Router) MessagesWith(q *Node, extra ...*Node) (dI, dF [][]*Node, extraGrads []*Node) {
	var wrt []*Node
	for k := range r.K {
		for l := range r.L {
			if rec := r.records[k][l]; rec.Y != nil {
				wrt = append(wrt, rec.identityNode(), rec.FIn)
			}
		}
	}
	if len(wrt) == 0 {
		panicf("route: Messages called before any routed merge was built")
	}
	nRoutes := len(wrt)
	grads := OpenGradient(q, append(wrt, extra...)...)
	extraGrads = grads[nRoutes:]
	dI, dF = make([][]*Node, r.K), make([][]*Node, r.K)
	i := 0
	for k := range r.K {
		dI[k], dF[k] = make([]*Node, r.L), make([]*Node, r.L)
		for l := range r.L {
			if r.records[k][l].Y != nil {
				dI[k][l], dF[k][l] = grads[i], grads[i+1]
				i += 2
			}
		}
	}
	return dI, dF, extraGrads
}

// ProbeMoments differentiates the scalar probe q with every route open and reduces the two-route
// messages of each merge to the moments (1/D_ℓ)·(d_I·d_I, d_I·d_F, d_F·d_F), summed over the batch,
// where D_ℓ is the feature dimension of the block input (paper, App. C.3). The result has shape
// [K, L, 3] in float64; merges that were not built are zero.
//
// The probes. Internal-DW's calibration (Algorithm 1, App. C.3) calls ProbeMoments on two scalar
// probes of one routed rollout over a batch of N windows and K steps, with predictions x̂_{i,k},
// targets x*_{i,k} and probe noise ε_{i,k} (drawn by the noise sampler, dwlib/noise):
//
//	q_tot   = (1/(NK)) · ½ Σ_{i,k} ‖x̂_{i,k} − x*_{i,k}‖²   (the task error: its moments estimate T)
//	q_noise = (1/(NK)) · Σ_{i,k} x̂_{i,k}ᵀ ε_{i,k}          (the noise share: its moments estimate R)
//
// Both carry the same scale 1/(NK): the Wiener solve of each (k, ℓ) (dwlib/wiener) compares the two
// moment tables entry by entry, so a different scale on one probe would bias every gain. A check:
// with ε the window's own residual x* − x̂, ∂q_noise/∂x̂ = −∂q_tot/∂x̂ and the two tables are equal
// (diag.ResidualShares reports this "own" share as 1). dwlib/train builds both probes for any
// train.Model; a hand-written loop passes the two results to calib.Controller.Stage.
//
// Messages of equal shape are stacked and reduced together: a handful of large ops instead of a few
// per merge, which matters on the pure-Go backend where every op has a fixed cost. The sums run in
// the model's dtype and are converted to float64 at the end.
func (r *Router) ProbeMoments(q *Node) *Node {
	m, _ := r.ProbeMomentsWith(q)
	return m
}

// ProbeMomentsWith is ProbeMoments that also returns the open gradients of q with respect to the
// extra nodes (see MessagesWith).
func (r *Router) ProbeMomentsWith(q *Node, extra ...*Node) (moments *Node, extraGrads []*Node) {
	dI, dF, extraGrads := r.MessagesWith(q, extra...)
	return r.momentsOf(q.Graph(), dI, dF), extraGrads
}

// momentsOf reduces the route messages to the [K, L, 3] moment table (see ProbeMoments).
func (r *Router) momentsOf(g *Graph, dI, dF [][]*Node) *Node {
	var built []int // flat (k, l) indices of built merges
	var stackI, stackF []*Node
	sameShape := true
	for k := range r.K {
		for l := range r.L {
			if dI[k][l] == nil {
				continue
			}
			if len(stackI) > 0 && !dI[k][l].Shape().Equal(stackI[0].Shape()) {
				sameShape = false
			}
			built = append(built, k*r.L+l)
			stackI, stackF = append(stackI, dI[k][l]), append(stackF, dF[k][l])
		}
	}
	moments := func(a, b *Node, axes ...int) *Node {
		d := a.Shape().Dimensions[a.Rank()-1]
		m := Stack([]*Node{
			ReduceSum(Mul(a, a), axes...),
			ReduceSum(Mul(a, b), axes...),
			ReduceSum(Mul(b, b), axes...),
		}, -1)
		return MulScalar(ConvertDType(m, dtypes.Float64), 1/float64(d))
	}
	var perMerge *Node // [len(built), 3]
	if sameShape {
		a, b := Stack(stackI, 0), Stack(stackF, 0)
		axes := make([]int, a.Rank()-1)
		for i := range axes {
			axes[i] = i + 1
		}
		perMerge = moments(a, b, axes...)
	} else {
		rows := make([]*Node, len(stackI))
		for i := range stackI {
			rows[i] = moments(stackI[i], stackF[i])
		}
		perMerge = Stack(rows, 0)
	}
	if len(built) == r.K*r.L {
		return Reshape(perMerge, r.K, r.L, 3)
	}
	// Scatter the built merges into a zero [K·L, 3] table.
	rows := make([]*Node, r.K*r.L)
	for i, idx := range built {
		rows[idx] = Reshape(Slice(perMerge, AxisElem(i)), 3)
	}
	for i := range rows {
		if rows[i] == nil {
			rows[i] = Zeros(g, shapes.Make(dtypes.Float64, 3))
		}
	}
	return Reshape(Stack(rows, 0), r.K, r.L, 3)
}

// String describes the router for debugging.
func (r *Router) String() string { return fmt.Sprintf("route.Router[K=%d, L=%d]", r.K, r.L) }

// panicf reports a graph-construction error the way GoMLX does: by panicking with an error, which
// graph.Exec turns back into an error for its caller.
func panicf(format string, args ...any) { panic(fmt.Errorf(format, args...)) }
