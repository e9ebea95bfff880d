package appdiag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// windowRoutes is a prober whose routes see each window through its own weights: at step k and
// layer l, II = Σ_i w[i][k·L+l]·‖c_ik‖² and JJ = IJ = 0, with c = ∂q/∂x̂ as in linearRoutes.
type windowRoutes struct {
	N, K, D, L int
	pred       []float64
	w          [][]float64 // [N][K·L]
}

func (p *windowRoutes) moments(cov []float64) []wiener.Sym2 {
	out := make([]wiener.Sym2, p.K*p.L)
	for k := range p.K {
		for l := range p.L {
			for i := range p.N {
				for d := range p.D {
					c := cov[(i*p.K+k)*p.D+d]
					out[k*p.L+l].II += p.w[i][k*p.L+l] * c * c
				}
			}
		}
	}
	return out
}

func (p *windowRoutes) probe(targets, eps []float64) (tot, nz []wiener.Sym2, err error) {
	s := 1 / float64(p.N*p.K)
	ct, cn := make([]float64, len(targets)), make([]float64, len(eps))
	for j := range targets {
		ct[j] = (p.pred[j] - targets[j]) * s
		cn[j] = eps[j] * s
	}
	return p.moments(ct), p.moments(cn), nil
}

// TestAttributionHandWorked checks every probe of Attribution on two cases worked by hand (K·L
// routes, c = 1/(N·K)): one where only the sizes of the residuals differ between windows, one where
// only their patterns do.
func TestAttributionHandWorked(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		N, K                    int
		resid                   []float64 // e = x* − x̂, [N][K], D = L = 1
		w                       [][]float64
		total, centered         []float64
		rescaled, foreign, fcen []float64
		templates               []float64
	}{
		{
			// e = (1, 3), ē = 2; window 0 weighs its route 4, window 1 weighs it 1; c² = 1/4.
			name: "sizes", N: 2, K: 1, resid: []float64{1, 3}, w: [][]float64{{4}, {1}},
			total:    []float64{(4*1 + 1*9) / 4.0},
			centered: []float64{(4*1 + 1*1) / 4.0},
			rescaled: []float64{(4*1 + 1*9) / 4.0}, // one step: a pattern is its sign
			foreign:  []float64{(4*9 + 1*1) / 4.0},
			fcen:     []float64{(4*1 + 1*1) / 4.0},
			// template j = 0: both windows get −1; j = 1: both get +1.
			templates: []float64{(4 + 1) / 4.0, (4 + 1) / 4.0},
		},
		{
			// e = (−1, 2, 5), ē = 2, centered (−3, 0, 3); weights 1, 2, 3; c² = 1/9. The largest
			// residual sits on the strongest route, so a foreign one carries less (48 < 84).
			name: "aligned", N: 3, K: 1, resid: []float64{-1, 2, 5}, w: [][]float64{{1}, {2}, {3}},
			total:     []float64{(1*1 + 2*4 + 3*25) / 9.0},
			centered:  []float64{(1*9 + 2*0 + 3*9) / 9.0},
			rescaled:  []float64{(1*1 + 2*4 + 3*25) / 9.0},
			foreign:   []float64{((1*4 + 2*25 + 3*1) + (1*25 + 2*1 + 3*4)) / 2 / 9.0},
			fcen:      []float64{((1*0 + 2*9 + 3*9) + (1*9 + 2*9 + 3*0)) / 2 / 9.0},
			templates: []float64{9 * 6 / 9.0, 0, 9 * 6 / 9.0},
		},
		{
			// e_0 = (1, 0), e_1 = (0, 1), equal norms; window 0 weighs steps (1, 2), window 1 (2, 1);
			// c² = 1/16. Each window's own residual lies where its route is weak.
			name: "patterns", N: 2, K: 2, resid: []float64{1, 0, 0, 1}, w: [][]float64{{1, 2}, {2, 1}},
			total:    []float64{1 / 16.0, 1 / 16.0},
			centered: []float64{(1*0.25 + 2*0.25) / 16, (2*0.25 + 1*0.25) / 16},
			rescaled: []float64{2 / 16.0, 2 / 16.0},
			foreign:  []float64{2 / 16.0, 2 / 16.0},
			fcen:     []float64{(1*0.25 + 2*0.25) / 16, (2*0.25 + 1*0.25) / 16},
			// ē = (½, ½); template 0 is (½, −½), template 1 (−½, ½): each gives ¼·(1+2+2+1)/16.
			templates: []float64{1.5 / 16, 1.5 / 16},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pred := make([]float64, len(tc.resid))
			target := make([]float64, len(tc.resid))
			for i, e := range tc.resid {
				pred[i] = 0.5 * float64(i) // any predictions: only e = target − pred matters
				target[i] = pred[i] + e
			}
			pr := &windowRoutes{N: tc.N, K: tc.K, D: 1, L: 1, pred: pred, w: tc.w}
			a, err := attribute(pr, pred, target, tc.N, tc.K, 1, 1, tc.N-1, progress.Nop())
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				name      string
				got, want []float64
			}{{"Total", a.Total, tc.total}, {"Centered", a.Centered, tc.centered}, {"Rescaled", a.Rescaled, tc.rescaled},
				{"Foreign", a.Foreign, tc.foreign}, {"ForeignCentered", a.ForeignCentered, tc.fcen},
				{"Templates", a.Templates, tc.templates}} {
				for r := range f.want {
					if math.Abs(f.got[r]-f.want[r]) > 1e-14*math.Abs(f.want[r]) {
						t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
						break
					}
				}
			}
			if got, want := a.Pooled(a.Foreign), a.Pooled(a.Rescaled)*sum(a.Foreign)/sum(a.Rescaled); math.Abs(got-want) > 1e-12 {
				t.Errorf("Foreign/Total = %v, not (Rescaled/Total)·(Foreign/Rescaled) = %v", got, want)
			}
		})
	}
}

// TestAttributionRatios checks the summaries on a hand-made Attribution.
func TestAttributionRatios(t *testing.T) {
	a := &Attribution{Total: []float64{1, 2, 0, 4}}
	x := []float64{2, 1, 5, 4}
	if got, want := a.Pooled(x), 12.0/7; math.Abs(got-want) > 1e-15 {
		t.Errorf("Pooled = %v, want %v", got, want)
	}
	if got, want := a.MeanRatio(x), (2+0.5+1)/3.0; math.Abs(got-want) > 1e-15 {
		t.Errorf("MeanRatio = %v, want %v (routes with tr T = 0 skipped)", got, want)
	}
	if got := a.FractionAbove(x); got != 1.0/3 {
		t.Errorf("FractionAbove = %v, want 1/3 (equal is not above)", got)
	}
	empty := &Attribution{Total: []float64{0}}
	if !math.IsNaN(empty.MeanRatio([]float64{1})) || !math.IsNaN(empty.FractionAbove([]float64{1})) {
		t.Error("no route with tr T > 0 must give NaN")
	}
}

func TestAttributionConfigValidate(t *testing.T) {
	if err := (AttributionConfig{}).Defaults().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	if c := (AttributionConfig{Windows: 5}).Defaults(); c.Shifts != 4 {
		t.Errorf("default shifts %d, want Windows−1 = 4", c.Shifts)
	}
	for _, bad := range []AttributionConfig{{Windows: 1}, {Windows: 4, Shifts: 4}, {Windows: 4, Shifts: -1}} {
		if err := bad.Defaults().Validate(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestNoiseAttributionGraph runs the real probe graph of a small forecaster. The noise probe fed a
// window's own residual must give the total probe's moments; when every window is the same window
// a foreign residual is the own one (every ratio 1) and the centered residual is zero.
func TestNoiseAttributionGraph(t *testing.T) {
	f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, Hidden: 6, Layers: 2, SSMState: 2, ConvWidth: 2,
		Window: 3, DType: dtypes.Float64, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	series := func(n int) data.Series {
		x := make([][]float64, n)
		for t := range x {
			x[t] = []float64{rng.NormFloat64(), rng.NormFloat64()}
		}
		return data.Series{X: x}
	}
	g := train.Geometry{Window: 3, K: 4}
	bk := testBackend(t)

	// One unit with exactly one admissible origin: every window is the same.
	same := []data.Series{series(g.Window + g.K)}
	a, err := NoiseAttribution(bk, f, same, g, false, AttributionConfig{Windows: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Total) != g.K*2 || a.Shifts != 2 || len(a.Windows) != 3 || a.Seconds <= 0 {
		t.Fatalf("attribution %+v", a)
	}
	for r, tot := range a.Total {
		if !(tot > 0) {
			t.Fatalf("route %d: tr T = %v", r, tot)
		}
		for _, x := range [][]float64{a.Rescaled, a.Foreign} {
			if math.Abs(x[r]-tot) > 1e-12*tot {
				t.Errorf("route %d: identical windows give %v, want tr T = %v", r, x[r], tot)
			}
		}
		if a.Centered[r] > 1e-20*tot || a.ForeignCentered[r] > 1e-20*tot {
			t.Errorf("route %d: centered %v, %v, want 0", r, a.Centered[r], a.ForeignCentered[r])
		}
	}
	for j, x := range a.Templates {
		if x > 1e-20*sum(a.Total) {
			t.Errorf("template %d carries %v, want 0", j, x)
		}
	}

	// Distinct windows: the own-residual noise probe is the total probe.
	units := []data.Series{series(20), series(25)}
	picks := []train.Pick{{Unit: 0, Origin: 2}, {Unit: 1, Origin: 9}, {Unit: 1, Origin: 15}}
	b, err := train.MakeBatch(units, picks, g)
	if err != nil {
		t.Fatal(err)
	}
	gp, err := newGraphProber(bk, f, b, false)
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := gp.predictions()
	e := make([]float64, len(pred))
	for j := range e {
		e[j] = b.Targets[j] - pred[j]
	}
	tot, nz, err := gp.probe(b.Targets, e)
	if err != nil {
		t.Fatal(err)
	}
	for r := range tot {
		for _, p := range [][2]float64{{tot[r].II, nz[r].II}, {tot[r].IJ, nz[r].IJ}, {tot[r].JJ, nz[r].JJ}} {
			if math.Abs(p[0]-p[1]) > 1e-12*math.Abs(p[0]) {
				t.Errorf("route %d: total probe %+v, noise probe with the own residual %+v", r, tot[r], nz[r])
				break
			}
		}
	}
	// The same seed draws the same windows and numbers.
	a1, err := NoiseAttribution(bk, f, units, g, false, AttributionConfig{Windows: 4, Seed: 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := NoiseAttribution(bk, f, units, g, false, AttributionConfig{Windows: 4, Seed: 7}, nil)
	if !slices.Equal(a1.Windows, a2.Windows) || !slices.Equal(a1.ForeignCentered, a2.ForeignCentered) {
		t.Errorf("seed 7 twice: windows %v and %v", a1.Windows, a2.Windows)
	}
	if _, err := NoiseAttribution(bk, f, []data.Series{series(5)}, g, false, AttributionConfig{}, nil); err == nil {
		t.Error("a unit too short for the geometry was accepted")
	}
}
