package regime

import (
	"container/heap"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// DefaultNeighbors is the paper's neighbour count q for every testbed this project has (the
// settings table uses 24 only for WeatherBench-2).
const DefaultNeighbors = 32

// KNN is the nonlinear (local-analog) probe: it standardises the features with the fitting rows'
// statistics, finds the q fitting rows nearest to a query in Euclidean distance and averages
// their targets with equal weights (all rows when there are fewer than q). There is no penalty;
// q alone sets how much it averages. Although each prediction is an average, the neighbours change
// with the query, so the predictor is a nonlinear function of its input: it can use history that a
// linear read-out cannot (the Mackey–Glass delay nonlinearity).
//
// Equal distances are broken by the lower fitting index, so predictions are deterministic.
type KNN struct {
	scaler Scaler
	fit    *mat.Dense // n×p standardised fitting features; nil without features
	norms  []float64  // squared row norms of fit
	y      [][]float64
	yMean  []float64
	q      int
}

// FitKNN stores the fitting rows. Zero-width features give the fitting mean of y, like [Ridge].
func FitKNN(x, y [][]float64, q int) (*KNN, error) {
	n := len(y)
	if n == 0 || len(x) != n {
		return nil, fmt.Errorf("regime: knn: %d feature rows and %d target rows", len(x), n)
	}
	if q < 1 {
		return nil, fmt.Errorf("regime: knn: q = %d, want >= 1", q)
	}
	k := &KNN{y: y, yMean: columnMeans(y), q: min(q, n)}
	p := len(x[0])
	if p == 0 {
		return k, nil
	}
	k.scaler = FitScaler(x)
	z := k.scaler.Apply(x)
	k.fit = mat.NewDense(n, p, nil)
	k.norms = make([]float64, n)
	for i, r := range z {
		k.fit.SetRow(i, r)
		for _, v := range r {
			k.norms[i] += v * v
		}
	}
	return k, nil
}

// knnChunk is the number of queries whose distances are computed in one matrix product.
const knnChunk = 256

// Predict returns one prediction row per query row.
func (k *KNN) Predict(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	if k.fit == nil {
		for i := range out {
			out[i] = append([]float64(nil), k.yMean...)
		}
		return out
	}
	z := k.scaler.Apply(x)
	n, p := k.fit.Dims()
	m := len(k.yMean)
	h := &maxHeap{}
	for lo := 0; lo < len(z); lo += knnChunk {
		hi := min(lo+knnChunk, len(z))
		qm := mat.NewDense(hi-lo, p, nil)
		qn := make([]float64, hi-lo)
		for i := lo; i < hi; i++ {
			qm.SetRow(i-lo, z[i])
			for _, v := range z[i] {
				qn[i-lo] += v * v
			}
		}
		var dot mat.Dense
		dot.Mul(qm, k.fit.T())
		for i := lo; i < hi; i++ {
			row := dot.RawRowView(i - lo)
			h.items = h.items[:0]
			for j := range n {
				d := qn[i-lo] + k.norms[j] - 2*row[j]
				if len(h.items) < k.q {
					heap.Push(h, neighbour{d, j})
				} else if top := h.items[0]; d < top.dist || (d == top.dist && j < top.index) {
					h.items[0] = neighbour{d, j}
					heap.Fix(h, 0)
				}
			}
			o := make([]float64, m)
			for _, nb := range h.items {
				for c, v := range k.y[nb.index] {
					o[c] += v
				}
			}
			for c := range o {
				o[c] /= float64(len(h.items))
			}
			out[i] = o
		}
	}
	return out
}

// neighbour is a fitting row and its squared distance to the query.
type neighbour struct {
	dist  float64
	index int
}

// maxHeap keeps the q nearest rows seen so far with the farthest (then highest index) on top.
type maxHeap struct{ items []neighbour }

func (h *maxHeap) Len() int { return len(h.items) }
func (h *maxHeap) Less(a, b int) bool {
	x, y := h.items[a], h.items[b]
	return x.dist > y.dist || (x.dist == y.dist && x.index > y.index)
}
func (h *maxHeap) Swap(a, b int) { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *maxHeap) Push(v any)    { h.items = append(h.items, v.(neighbour)) }
func (h *maxHeap) Pop() any {
	v := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return v
}
