package train

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

func newUNet(t *testing.T, dt dtypes.DType) *model.UNet {
	t.Helper()
	u, err := model.NewUNet(model.UNetConfig{Channels: 2, Height: 8, Width: 8, Base: 4, Depth: 2, Groups: 2, Window: 3, Seed: 2, DType: dt})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUNetEveryMethod: the field U-Net trains with every method on both engines (finite losses,
// Full's falls, DW calibrates).
func TestUNetEveryMethod(t *testing.T) {
	batch := benchBatch(4, 3, 3, 2*8*8, 5)
	for _, engine := range []string{EngineUnrolled, EngineSteps} {
		t.Run(engine, func(t *testing.T) {
			trainEveryMethodOn(t, func() Model { return newUNet(t, dtypes.Float32) }, batch, 4, engine)
		})
	}
}

// TestUNetEnginesAgree: on the U-Net (projection skips, post-activation merges) the step engine's
// loss, accumulated gradient and probe moments equal the unrolled graphs' in float64.
func TestUNetEnginesAgree(t *testing.T) {
	const D, K = 2 * 8 * 8, 3
	batch := benchBatch(3, 3, K, D, 6)
	run := func(engine string) (losses, accums, moments []float64) {
		u := newUNet(t, dtypes.Float64)
		tr, err := NewTrainer(backend.MustShared(), u, Config{Method: "dw", K: K, BatchSize: 3, LR: 1e-2, Warmup: 1, Period: 1, Seed: 4, Engine: engine})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			r, err := tr.Accumulate(batch, 1)
			if err != nil {
				t.Fatal(err)
			}
			losses = append(losses, r.Loss)
			accums = append(accums, accumValues(t, u)...)
			if r.Probes != nil {
				for i := range r.Probes.Tot {
					p, q := r.Probes.Tot[i], r.Probes.Noise[i]
					moments = append(moments, p.II, p.IJ, p.JJ, q.II, q.IJ, q.JJ)
				}
			}
			if _, err := tr.Apply(); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	lu, au, mu := run(EngineUnrolled)
	ls, as, ms := run(EngineSteps)
	if len(mu) == 0 || len(mu) != len(ms) {
		t.Fatalf("probe moments: %d unrolled, %d stepped", len(mu), len(ms))
	}
	for _, c := range []struct {
		what string
		a, b []float64
	}{{"loss", lu, ls}, {"accumulated gradient", au, as}, {"probe moments", mu, ms}} {
		if d := relDiff(c.a, c.b); d > 1e-11 {
			t.Errorf("%s: the engines differ by %.3g", c.what, d)
		}
	}
}
