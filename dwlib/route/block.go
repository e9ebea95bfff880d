package route

import (
	"sync"

	. "github.com/gomlx/gomlx/core/graph"
)

// openGraphs holds the graphs whose gradient is being built by OpenGradient. The switch is consulted
// when a custom VJP is built (graph-construction time), so the same forward graph can be
// differentiated both with the task gains and fully open. Keyed by graph, so concurrent graph
// construction in other goroutines is unaffected.
var openGraphs sync.Map // map[*Graph]struct{}

func isOpen(g *Graph) bool {
	_, ok := openGraphs.Load(g)
	return ok
}

// scaleGradient returns x unchanged in the forward pass; its backward multiplies the incoming
// gradient by gain (a scalar node), except inside OpenGradient where it passes it through.
func scaleGradient(x, gain *Node) *Node {
	return IdentityWithCustomGradient(x, func(x, v *Node) *Node {
		if isOpen(x.Graph()) {
			return v
		}
		return Mul(v, ConvertDType(gain, v.DType()))
	})
}

// Record holds the nodes of one routed merge that the route probes differentiate with respect to.
type Record struct {
	// Y is the block output y = x + F(x): dq/dY is the identity-route message d_I.
	Y *Node
	// FIn is the forward-identity node feeding F: dq/dFIn = J_Fᵀ dq/dy is the nonlinear-route
	// message d_F (with a recurrent state, it also carries what later steps send back through it).
	FIn *Node
	// SkipIn, set by Merge, is the forward-identity node feeding a skip path that is not the
	// identity (a projection) or a merge followed by an activation: dq/dSkipIn is then the
	// skip-route message d_I. For x + F(x) it equals dq/dY and is left nil.
	SkipIn *Node
}

// identityNode is the node whose gradient is the identity-route message.
func (r Record) identityNode() *Node {
	if r.SkipIn != nil {
		return r.SkipIn
	}
	return r.Y
}

// Block returns x + F(x): forward unchanged, backward v -> alpha*v + m*J_F^T v.
//
// alpha and m are scalar nodes (typically graph inputs). F's own parameter gradients use the
// incoming v unscaled; only the gradient transported back to x is reweighted.
func Block(x *Node, F func(*Node) *Node, alpha, m *Node) *Node {
	y, _ := BlockRecorded(x, F, alpha, m)
	return y
}

// BlockRecorded is Block that also returns the nodes the route probes need.
//
// The identity-route node is created after F's nodes, as in a plain x + F(x), so that backprop sums
// the gradients arriving at x in the same order: with unit gains the result is bit-identical to
// plain BPTT, not merely equal to rounding.
func BlockRecorded(x *Node, F func(*Node) *Node, alpha, m *Node) (*Node, Record) {
	fIn := scaleGradient(x, m)
	out := F(fIn)
	identity := scaleGradient(x, alpha)
	y := Add(identity, out)
	return y, Record{Y: y, FIn: fIn}
}

// Merge is the general routed merge skip(x) + branch(x): forward unchanged, backward
// v ↦ α·J_skipᵀ v + m·J_branchᵀ v. It covers residual blocks whose skip path is a projection (a
// 1×1 convolution where the channel count changes) and, since what follows the sum (an activation)
// is the caller's, post-activation blocks such as the U-Net's act(branch(x) + skip(x)). With
// skip the identity it is Block. The returned node is the sum.
func Merge(x *Node, skip, branch func(*Node) *Node, alpha, m *Node) *Node {
	y, _ := MergeRecorded(x, skip, branch, alpha, m)
	return y
}

// MergeRecorded is Merge that also returns the nodes the route probes need (Record.SkipIn set).
func MergeRecorded(x *Node, skip, branch func(*Node) *Node, alpha, m *Node) (*Node, Record) {
	fIn := scaleGradient(x, m)
	out := branch(fIn)
	skipIn := scaleGradient(x, alpha)
	y := Add(skip(skipIn), out)
	return y, Record{Y: y, FIn: fIn, SkipIn: skipIn}
}

// BlockWithState is Block for an F that also reads and writes recurrent state carried between
// rollout steps (Mamba's SSM state and convolution buffer). Every state entering F is routed with the
// nonlinear coefficient m, as the paper prescribes for the recurrent-state path (App. C.2): its
// backward is h̄ ↦ m·h̄.
//
// F returns (F(x, h), h'); BlockWithState returns (x + F(x, h), h', record). A nil state entry is
// passed to F as nil.
func BlockWithState(x *Node, h []*Node, F func(x *Node, h []*Node) (out *Node, hNext []*Node), alpha, m *Node) (*Node, []*Node, Record) {
	fIn := scaleGradient(x, m)
	hIn := make([]*Node, len(h))
	for i, hi := range h {
		if hi != nil {
			hIn[i] = scaleGradient(hi, m)
		}
	}
	out, hNext := F(fIn, hIn)
	identity := scaleGradient(x, alpha)
	y := Add(identity, out)
	return y, hNext, Record{Y: y, FIn: fIn}
}

// OpenGradient is graph.Gradient with every routed merge of output's graph fully open (α = m = 1):
// the plain BPTT gradient, whatever gains the graph was built with. The route probes use it.
func OpenGradient(output *Node, wrt ...*Node) []*Node {
	g := output.Graph()
	openGraphs.Store(g, struct{}{})
	defer openGraphs.Delete(g)
	return Gradient(output, wrt...)
}
