package backend

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// StockDotGeneralVJP is GoMLX's own VJP for DotGeneral, kept so tests and benchmarks can compare
// against it.
var StockDotGeneralVJP = VJPRegistration[NodeTypeDotGeneral]

func init() { RegisterGradients() }

// RegisterGradients installs the project's DotGeneral VJP into graph.VJPRegistration. It is
// idempotent and runs when this package is imported.
func RegisterGradients() {
	VJPRegistration[NodeTypeDotGeneral] = dotGeneralVJP
}

// dotGeneralVJP is the VJP of DotGeneral written for the pure-Go backend's matrix products. Each
// operand's gradient is a DotGeneral of the cotangent v with the other operand, as in GoMLX's own
// rule, with two differences:
//
//   - Operand order. The backend multiplies [batch, cross, contracting] by [batch, contracting,
//     cross] (or [batch, cross, contracting]) and copies operands in any other layout into the
//     second one first (copyCost). GoMLX always puts v first, which for the SSM's C in y = h'·C
//     copies the whole [N, E, S] state at every step. Here the order with the fewer copied
//     elements is chosen.
//   - No identity transposes. GoMLX transposes each gradient back to its operand's axis order
//     even when the order is already right; the backend executes that as a full copy.
//
// The products are the same, so gradients agree with GoMLX's to rounding (TestDotGeneralVJP). A
// DotGeneral whose axes cannot be read, or with a non-default config, keeps GoMLX's rule.
func dotGeneralVJP(node *Node, vjps []*Node, outputShape shapes.Shape) []*Node {
	spec, ok := readDotSpec(node)
	if !ok {
		return StockDotGeneralVJP(node, vjps, outputShape)
	}
	v := vjps[0]
	lhs, rhs := node.Inputs()[0], node.Inputs()[1]
	lCross, rCross := crossAxes(lhs.Rank(), spec.lc, spec.lb), crossAxes(rhs.Rank(), spec.rc, spec.rb)
	nb := len(spec.lb)
	vBatch := iota(0, nb)
	vL, vR := iota(nb, len(lCross)), iota(nb+len(lCross), len(rCross))
	return []*Node{
		operandGradient(lhs, spec.lb, spec.lc, lCross, v, vBatch, vL, vR, rhs, spec.rb, spec.rc, rCross),
		operandGradient(rhs, spec.rb, spec.rc, rCross, v, vBatch, vR, vL, lhs, spec.lb, spec.lc, lCross),
	}
}

// operandGradient is ∂/∂x for the operand x (its batch, contracting and cross axes) of a
// DotGeneral with the other operand o, given the cotangent v whose axes vThis and vOther hold x's
// and o's cross axes.
func operandGradient(x *Node, xBatch, xContract, xCross []int, v *Node, vBatch, vThis, vOther []int,
	o *Node, oBatch, oContract, oCross []int) *Node {
	// o's free axes in the product are its contracting axes, in o's axis order: each stands for
	// the x axis it was contracted with.
	var oFree []int
	for axis := range o.Rank() {
		if i := slices.Index(oContract, axis); i >= 0 {
			oFree = append(oFree, xContract[i])
		}
	}
	vFree := make([]int, len(vThis))
	copy(vFree, xCross)
	type order struct {
		vFirst bool
		axes   []int // x's axis of each axis of the product
		cost   int
	}
	var best *order
	for _, vFirst := range []bool{true, false} {
		od := &order{vFirst: vFirst}
		od.axes = append(od.axes, xBatch...)
		if vFirst {
			od.axes = append(append(od.axes, vFree...), oFree...)
			od.cost = copyCost(v.Shape(), vOther, vBatch, o.Shape(), oCross, oBatch)
		} else {
			od.axes = append(append(od.axes, oFree...), vFree...)
			od.cost = copyCost(o.Shape(), oCross, oBatch, v.Shape(), vOther, vBatch)
		}
		if !isIota(od.axes) {
			od.cost += x.Shape().Size()
		}
		if best == nil || od.cost < best.cost {
			best = od
		}
	}
	var g *Node
	if best.vFirst {
		g = DotGeneral(v, vOther, vBatch, o, oCross, oBatch)
	} else {
		g = DotGeneral(o, oCross, oBatch, v, vOther, vBatch)
	}
	if !isIota(best.axes) {
		perm := make([]int, len(best.axes))
		for pos, axis := range best.axes {
			perm[axis] = pos
		}
		g = TransposeAllAxes(g, perm...)
	}
	return g
}

// copyCost is how many elements the pure-Go backend copies to bring the operands of a DotGeneral
// into a layout it multiplies: lhs [batch, cross, contracting] with rhs [batch, contracting,
// cross] or [batch, cross, contracting]. When the pair is in neither, it copies both operands that
// are not already in the second one. (A conservative reading: the backend also merges adjacent
// axes of the same kind first, which this ignores.)
func copyCost(lhs shapes.Shape, lc, lb []int, rhs shapes.Shape, rc, rb []int) int {
	nb, nc := len(lb), len(lc)
	lhsOK := isIota(lb) && slices.Equal(lc, iota(lhs.Rank()-nc, nc))
	rhsTransposed := isIota(rb) && slices.Equal(rc, iota(rhs.Rank()-nc, nc))
	rhsOK := rhsTransposed || (isIota(rb) && slices.Equal(rc, iota(nb, nc)))
	if nb <= 1 && nc == 1 && lhsOK && rhsOK {
		return 0
	}
	cost := 0
	if !lhsOK {
		cost += lhs.Size()
	}
	if !rhsTransposed {
		cost += rhs.Size()
	}
	return cost
}

// dotSpec holds a DotGeneral node's axes.
type dotSpec struct{ lc, lb, rc, rb []int }

var (
	dotPattern = regexp.MustCompile(`DotGeneral\(lhs=\[#\d+\], lhsContractingAxes=\[([0-9 ]*)\], lhsBatchAxes=\[([0-9 ]*)\], ` +
		`rhs=\[#\d+\], rhsContractingAxes=\[([0-9 ]*)\], rhsBatchAxes=\[([0-9 ]*)\], config=(\{[^}]*\})\)`)
	defaultConfig = fmt.Sprintf("%+v", compute.DotGeneralConfig{})
)

// readDotSpec reads the axes of a DotGeneral node from its description: GoMLX does not export
// them. It fails (and the caller keeps GoMLX's rule) on any other description or config.
func readDotSpec(node *Node) (dotSpec, bool) {
	m := dotPattern.FindStringSubmatch(node.String())
	if m == nil || m[5] != defaultConfig {
		return dotSpec{}, false
	}
	var lists [4][]int
	for i := range lists {
		for _, f := range strings.Fields(m[i+1]) {
			a, err := strconv.Atoi(f)
			if err != nil {
				return dotSpec{}, false
			}
			lists[i] = append(lists[i], a)
		}
	}
	return dotSpec{lc: lists[0], lb: lists[1], rc: lists[2], rb: lists[3]}, true
}

// crossAxes lists the axes of a rank-r operand that are neither contracting nor batch.
func crossAxes(r int, contract, batch []int) []int {
	var cross []int
	for axis := range r {
		if !slices.Contains(contract, axis) && !slices.Contains(batch, axis) {
			cross = append(cross, axis)
		}
	}
	return cross
}

func iota(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

func isIota(axes []int) bool { return slices.Equal(axes, iota(0, len(axes))) }
