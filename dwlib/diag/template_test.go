package diag

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/internal/modeltest"
	"github.com/internal-dw/dwgo/dwlib/model"
)

func waveSeries(T int, phase float64) data.Series {
	s := data.Series{X: make([][]float64, T)}
	for t := range T {
		a := 0.4*float64(t) + phase
		s.X[t] = []float64{math.Sin(a), math.Cos(0.7 * a)}
	}
	return s
}

func TestResidualShares(t *testing.T) {
	f := modeltest.Perturbed(t, model.Config{Kind: "mamba", StateDim: 2, Hidden: 6, Layers: 2, SSMState: 3, ConvWidth: 2, Window: 3, BurnIn: 1, Seed: 4}, 0.3, 1)
	const K = 4
	var units []data.Series
	for u := range 8 {
		units = append(units, waveSeries(30, float64(u)))
	}
	got, err := MeasureResidualShares(backend.MustShared(), f, units, K, 6, 2, 9)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Own-1) > 1e-12 {
		t.Errorf("own residual share = %.15g, want exactly 1 (the two probes share one scale)", got.Own)
	}
	if !(got.Template > 0) || !(got.Shuffled > 0) || math.Abs(got.Shuffled-1) < 1e-6 {
		t.Errorf("template %v, shuffled %v: want positive, and shuffled different from own", got.Template, got.Shuffled)
	}
	again, _ := MeasureResidualShares(backend.MustShared(), f, units, K, 6, 2, 9)
	if again != got {
		t.Errorf("same seed, different shares: %+v vs %+v", again, got)
	}
	// Identical windows (one valid origin, the same series): every choice of ε is the window's own
	// residual up to sign, so every share is exactly 1.
	same := make([]data.Series, 6)
	for i := range same {
		same[i] = waveSeries(1+3+K, 0.5) // burn-in 1 + window 3 + K: a single valid origin
	}
	eq, err := MeasureResidualShares(backend.MustShared(), f, same, K, 6, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]float64{"own": eq.Own, "template": eq.Template, "shuffled": eq.Shuffled} {
		if math.Abs(v-1) > 1e-12 {
			t.Errorf("identical windows: %s share = %.15g, want 1", name, v)
		}
	}
	if _, err := MeasureResidualShares(backend.MustShared(), f, units, K, 1, 1, 1); err == nil {
		t.Error("a minibatch of one window (nothing to shuffle) was accepted")
	}
}
