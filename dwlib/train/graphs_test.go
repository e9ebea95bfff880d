package train

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// mamba128 is the paper's forecaster: Mamba-128, L = 4, S = 16, conv 4, expand 2, window 32.
func mamba128(t *testing.T) *model.Forecaster {
	t.Helper()
	f, err := model.New(model.Config{Kind: "mamba", StateDim: 1, Hidden: 128, Layers: 4, SSMState: 16, ConvWidth: 4, Expand: 2, Window: 32, BurnIn: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestStepGraphsAreSmallAndIndependentOfK pins what the step engine compiles for a DW run at
// Mamba-128: at most 3 000 nodes in its largest graph, the same graphs at K = 8 and K = 64, and
// five executables (forward, backward, probe, optimizer step, evaluation forward). The unrolled
// graphs grow with K (the reason for the step engine on XLA).
func TestStepGraphsAreSmallAndIndependentOfK(t *testing.T) {
	spec := GraphSpec{Batch: 64, EvalBatch: 64, Eval: [][2]int{{32, 64}, {16, 96}}}
	graphs := func(K int, engine string) []GraphInfo {
		cfg := Config{Method: "dw", K: K, BatchSize: 64, Engine: engine}
		infos, err := Graphs(backend.MustShared(), mamba128(t), cfg, spec)
		if err != nil {
			t.Fatal(err)
		}
		return infos
	}
	k8, k64 := graphs(8, EngineSteps), graphs(64, EngineSteps)
	names := []string{"step-forward", "step-backward", "step-probe", "optimizer-step"}
	if len(k64) != len(names) {
		t.Fatalf("step engine at K = 64 builds %d graphs (%v), want %v (evaluation shares the forward step at its batch)", len(k64), k64, names)
	}
	for i, g := range k64 {
		t.Logf("K = 64: %v", g)
		if g.Name != names[i] {
			t.Errorf("graph %d is %q, want %q", i, g.Name, names[i])
		}
		if g.Nodes != k8[i].Nodes {
			t.Errorf("%s: %d nodes at K = 64, %d at K = 8: the step graphs must not grow with K", g.Name, g.Nodes, k8[i].Nodes)
		}
	}
	if n := Largest(k64); n > 3000 || n < 100 {
		t.Errorf("largest step graph: %d nodes, want at most 3000 (and a real graph)", n)
	}
	u8, u64 := graphs(8, EngineUnrolled), graphs(64, EngineUnrolled)
	t.Logf("unrolled: largest %d nodes at K = 8, %d at K = 64", Largest(u8), Largest(u64))
	if Largest(u64) < 3*Largest(u8) {
		t.Errorf("unrolled graphs: %d nodes at K = 64, %d at K = 8: they should grow with K", Largest(u64), Largest(u8))
	}
}
