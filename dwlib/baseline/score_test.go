package baseline

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

func series(xs ...[][]float64) []data.Series {
	out := make([]data.Series, len(xs))
	for i, x := range xs {
		out[i] = data.Series{X: x}
	}
	return out
}

func drivenSeries(seeds ...uint64) []data.Series {
	out := make([]data.Series, len(seeds))
	for i, s := range seeds {
		u := drivenAR1(.5, 120, s)
		out[i] = data.Series{X: u.X, Drive: u.Drive}
	}
	return out
}

// Score must report, for each baseline, exactly what eval.Evaluate gives
// for its forecaster on the protocol's units (burn-in dropped), and the
// ridge must find the exact recurrence of noiseless data, with the drive
// when the testbed has one.
func TestScore(t *testing.T) {
	p := Protocol{BurnIn: 4, History: 8, H: 12, MaxOrigins: 16}
	sine, err := data.NewDataset("sine",
		series(sinusoid(1, 2, .4, 0, 100), sinusoid(1, 1, .4, 1, 100), sinusoid(1, 3, .4, 2, 100)),
		series(sinusoid(1, 2, .4, 3, 90)), series(sinusoid(1, 1.5, .4, 4, 80), sinusoid(1, 2.5, .4, 5, 80)), false)
	if err != nil {
		t.Fatal(err)
	}
	driven, err := data.NewDataset("driven", drivenSeries(1, 2, 3), drivenSeries(4), drivenSeries(5, 6), false)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ds        *data.Dataset
		wantDrive bool
	}{{sine, false}, {driven, true}}
	for _, tc := range tests {
		t.Run(tc.ds.Name, func(t *testing.T) {
			rs, err := Score(tc.ds, p, Grid{})
			if err != nil {
				t.Fatal(err)
			}
			names := []string{NameZero, NameDamped, NameRidge}
			if len(rs) != len(names) {
				t.Fatalf("%d results, want %d", len(rs), len(names))
			}
			test, err := p.Units("test", tc.ds.Test)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rs {
				if r.Name != names[i] {
					t.Errorf("result %d is %q, want %q", i, r.Name, names[i])
				}
				want, err := eval.Evaluate(r.Forecaster, test, p.History, p.H, p.MaxOrigins)
				if err != nil {
					t.Fatal(err)
				}
				if r.Test.RelL2 != want.RelL2 || len(r.Test.PerHorizon) != p.H || len(r.Val.PerUnit) != len(tc.ds.Val) {
					t.Errorf("%s: test rel-L2 %v (%d horizons, %d val units), eval.Evaluate gives %v",
						r.Name, r.Test.RelL2, len(r.Test.PerHorizon), len(r.Val.PerUnit), want.RelL2)
				}
				if len(r.Test.Origins[0]) == 0 || r.Test.Origins[0][0] != p.History {
					t.Errorf("%s: first test origin %v, want history %d", r.Name, r.Test.Origins[0], p.History)
				}
			}
			ridge := rs[2]
			if ridge.Test.RelL2 > 1e-6 || ridge.Drive != tc.wantDrive || ridge.W > p.History {
				t.Errorf("ridge: %s, test rel-L2 %g; want ~0 with drive=%v", ridge.Params(), ridge.Test.RelL2, tc.wantDrive)
			}
			if !(rs[0].Test.RelL2 > .9) || !(rs[1].Phi >= -1 && rs[1].Phi <= 1) {
				t.Errorf("zero rel-L2 %g (want ~1), phi %g (want in [-1, 1])", rs[0].Test.RelL2, rs[1].Phi)
			}
		})
	}
}

// TestBuiltinTestbeds scores the baselines on the project's synthetic
// testbeds (seed 0, K = 32 so H = 48, burn-in 32, 64 origins per unit) for
// history windows 16 and 32. It takes seconds per seed once the testbeds
// are cached, but generates them into the data cache on first use, so it
// runs only when DW_BASELINE_TESTBEDS=1; DW_BASELINE_SEEDS (e.g. "0,1,2")
// picks the split seeds:
//
//	DW_BASELINE_TESTBEDS=1 go test ./dwlib/baseline -run BuiltinTestbeds -v
func TestBuiltinTestbeds(t *testing.T) {
	if os.Getenv("DW_BASELINE_TESTBEDS") == "" {
		t.Skip("set DW_BASELINE_TESTBEDS=1 to score the built-in testbeds")
	}
	seeds := []uint64{0}
	if env := os.Getenv("DW_BASELINE_SEEDS"); env != "" {
		seeds = nil
		for _, f := range strings.Split(env, ",") {
			s, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("DW_BASELINE_SEEDS=%q: %v", env, err)
			}
			seeds = append(seeds, s)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| testbed | seed | history | baseline | hyper-parameters | val rel-L2 | test rel-L2 |\n|---|---|---|---|---|---|---|\n")
	for _, name := range []string{"mackey-glass", "narma5", "driven-mg"} {
		for _, seed := range seeds {
			ds, err := data.Load(name, data.Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			scoreTestbed(t, &b, ds, seed)
		}
	}
	t.Log(b.String())
}

// scoreTestbed appends one dataset's rows to the table: every baseline for
// history 16 and 32, then the ridge's best validation score per W.
func scoreTestbed(t *testing.T, b *strings.Builder, ds *data.Dataset, seed uint64) {
	t.Helper()
	for _, history := range []int{16, 32} {
		rs, err := Score(ds, StandardProtocol(32, history), Grid{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %.4f | %.4f |\n", ds.Name, seed, history, r.Name, r.Params(), r.Val.RelL2, r.Test.RelL2)
		}
		bestW := map[int]float64{}
		var ws []int
		for _, c := range rs[2].Candidates {
			v, ok := bestW[c.W]
			if !ok {
				ws = append(ws, c.W)
			}
			if !ok || c.ValRelL2 < v {
				bestW[c.W] = c.ValRelL2
			}
		}
		fmt.Fprintf(b, "|  |  |  | ridge val by W |")
		for _, w := range ws {
			fmt.Fprintf(b, " W=%d: %.4f", w, bestW[w])
		}
		fmt.Fprintf(b, " |  |  |\n")
	}
}
