package calib

import (
	"math"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

func TestWarmupIsFullyOpen(t *testing.T) {
	const K, L = 3, 2
	c := mustNew(t, DefaultConfig(K, L))
	tot, nz := probe(0, K, L)
	for b := range DefaultWarmup {
		if c.Minibatch() != b {
			t.Fatalf("Minibatch = %d, want %d", c.Minibatch(), b)
		}
		if c.IsCalibration() {
			t.Fatalf("b=%d < W is a calibration minibatch", b)
		}
		for i, g := range c.Gains() {
			if g != 1 {
				t.Fatalf("b=%d: gain[%d] = %v during warm-up, want 1", b, i, g)
			}
		}
		if err := c.Stage(tot, nz, allReady(K)); err == nil || !strings.Contains(err.Error(), "not a calibration minibatch") {
			t.Fatalf("b=%d: Stage during warm-up: err = %v", b, err)
		}
		c.Commit()
	}
	if c.Calibrations() != 0 || c.Route(0, 0).TotProbes != 0 {
		t.Errorf("warm-up recorded probes: calibrations %d", c.Calibrations())
	}
	if !c.IsCalibration() {
		t.Errorf("b=W=%d is not a calibration minibatch", c.Minibatch())
	}
}

func TestControllerCalibratesOnSchedule(t *testing.T) {
	const K, L = 2, 2
	c := mustNew(t, DefaultConfig(K, L))
	var staged []int
	for b := range 30 {
		if c.IsCalibration() {
			tot, nz := probe(b, K, L)
			if err := c.Stage(tot, nz, allReady(K)); err != nil {
				t.Fatal(err)
			}
			staged = append(staged, b)
		}
		c.Commit()
	}
	if want := []int{8, 12, 16, 20, 24, 28}; !equalInts(staged, want) {
		t.Errorf("calibrated at %v, want %v", staged, want)
	}
	if c.Calibrations() != 6 || c.Minibatch() != 30 {
		t.Errorf("Calibrations = %d, Minibatch = %d; want 6, 30", c.Calibrations(), c.Minibatch())
	}
}

func TestRouteEMAFirstObservationInit(t *testing.T) {
	// K = L = 1, calibrating every minibatch; a = .95. Hand-worked:
	//   T: {4,1,2} -> {4,1,2} (init, not .05*{4,1,2})
	//      {8,3,6} -> .95*{4,1,2} + .05*{8,3,6} = {4.2, 1.1, 2.2}
	//      {0,0,0} -> .95*{4.2,1.1,2.2}         = {3.99, 1.045, 2.09}
	//   R: {1,0,1} -> {1,0,1}; {3,1,1} -> {1.1, .05, 1}; {1,-1,1} -> {1.095, -0.0025, 1}
	tots := []wiener.Sym2{{II: 4, IJ: 1, JJ: 2}, {II: 8, IJ: 3, JJ: 6}, {}}
	noises := []wiener.Sym2{{II: 1, JJ: 1}, {II: 3, IJ: 1, JJ: 1}, {II: 1, IJ: -1, JJ: 1}}
	wantT := []wiener.Sym2{{II: 4, IJ: 1, JJ: 2}, {II: 4.2, IJ: 1.1, JJ: 2.2}, {II: 3.99, IJ: 1.045, JJ: 2.09}}
	wantR := []wiener.Sym2{{II: 1, JJ: 1}, {II: 1.1, IJ: 0.05, JJ: 1}, {II: 1.095, IJ: -0.0025, JJ: 1}}
	c := mustNew(t, fastCfg(1, 1))
	for b := range tots {
		if err := c.Stage(tots[b:b+1], noises[b:b+1], []bool{true}); err != nil {
			t.Fatal(err)
		}
		c.Commit()
		r := c.Route(0, 0)
		if !symClose(r.T, wantT[b], 1e-12) || !symClose(r.R, wantR[b], 1e-12) {
			t.Errorf("after calibration %d: T = %+v, R = %+v; want %+v, %+v", b, r.T, r.R, wantT[b], wantR[b])
		}
	}
}

func TestStagedGainsInvisibleUntilCommit(t *testing.T) {
	const K, L = 2, 3
	c := mustNew(t, fastCfg(K, L))
	var committed []float64 = c.Gains()
	for b := range 4 {
		tot, nz := probe(b, K, L)
		routeBefore := c.Route(1, 2)
		if err := c.Stage(tot, nz, allReady(K)); err != nil {
			t.Fatal(err)
		}
		// The task backward of minibatch b must use the previously committed gains.
		if !sameBits(c.Gains(), committed) {
			t.Fatalf("b=%d: Gains changed by Stage before Commit", b)
		}
		if c.Route(1, 2) != routeBefore || c.Calibrations() != b || !c.Staged() {
			t.Fatalf("b=%d: diagnostics changed by Stage before Commit", b)
		}
		c.Commit()
		if sameBits(c.Gains(), committed) {
			t.Fatalf("b=%d: Commit did not change the gains (test moments too weak?)", b)
		}
		committed = c.Gains()
	}
}

func TestGainsEqualWienerSolve(t *testing.T) {
	const K, L = 3, 2
	c := mustNew(t, fastCfg(K, L))
	candidates := map[string]bool{}
	for b := range 6 {
		tot, nz := probe(b, K, L)
		if err := c.Stage(tot, nz, allReady(K)); err != nil {
			t.Fatal(err)
		}
		c.Commit()
		for k := range K {
			for l := range L {
				r := c.Route(k, l)
				sol := wiener.SolveDetailed(r.T, r.R)
				w, P := wiener.Solve(r.T, r.R)
				if r.Gains != w || r.Gains != sol.W || !symBits(r.P, P) {
					t.Errorf("b=%d (k=%d,l=%d): gains %v P %+v, want Solve(T̂, R̂) = %v, %+v", b, k, l, r.Gains, r.P, w, P)
				}
				if r.Candidate != sol.Candidate || r.Fallback != sol.Fallback {
					t.Errorf("b=%d (k=%d,l=%d): diagnostics %q/%q, want %q/%q", b, k, l, r.Candidate, r.Fallback, sol.Candidate, sol.Fallback)
				}
				g := c.Gains()
				if g[2*(k*L+l)] != w[0] || g[2*(k*L+l)+1] != w[1] {
					t.Errorf("flat Gains layout wrong at (k=%d,l=%d)", k, l)
				}
				candidates[r.Candidate] = true
			}
		}
	}
	t.Logf("solve candidates seen: %v", candidates)

	// One calibration with hand-picked moments reaching the corner and fallback paths.
	tot := []wiener.Sym2{{II: 2, JJ: 2}, {II: 1, JJ: 1}, {}}
	nz := []wiener.Sym2{{II: 1, JJ: 1}, {II: 5, JJ: 5}, {}}
	c = mustNew(t, fastCfg(1, 3))
	if err := c.Stage(tot, nz, []bool{true}); err != nil {
		t.Fatal(err)
	}
	c.Commit()
	for l := range 3 {
		r, sol := c.Route(0, l), wiener.SolveDetailed(tot[l], nz[l])
		if r.Gains != sol.W || !symBits(r.P, sol.P) || r.Candidate != sol.Candidate || r.Fallback != sol.Fallback {
			t.Errorf("l=%d: route %+v, want solution %+v", l, r, sol)
		}
	}
	if r := c.Route(0, 1); r.Gains != [2]float64{0, 0} {
		t.Errorf("noise-dominated route gains %v, want (0, 0)", r.Gains)
	}
	if r := c.Route(0, 2); r.Fallback == "" || r.Gains != [2]float64{1, 1} {
		t.Errorf("all-zero route %+v, want a fallback to (1, 1)", r)
	}
}

func TestNotReadyHorizonsUntouched(t *testing.T) {
	const K, L = 3, 2
	c := mustNew(t, fastCfg(K, L))
	readySeq := [][]bool{{true, false, false}, {true, true, false}, {false, true, false}}
	for b, ready := range readySeq {
		before := make(map[[2]int]Route)
		for k := range K {
			for l := range L {
				before[[2]int{k, l}] = c.Route(k, l)
			}
		}
		tot, nz := probe(b, K, L)
		nz[2*L] = wiener.Sym2{II: math.NaN()} // garbage at a not-ready horizon is ignored
		if err := c.Stage(tot, nz, ready); err != nil {
			t.Fatal(err)
		}
		c.Commit()
		for k := range K {
			for l := range L {
				old, r := before[[2]int{k, l}], c.Route(k, l)
				if r.TotProbes != old.TotProbes+1 || r.T == old.T {
					t.Errorf("b=%d (k=%d,l=%d): T not updated", b, k, l)
				}
				if ready[k] {
					if r.NoiseProbes != old.NoiseProbes+1 || r.R == old.R {
						t.Errorf("b=%d (k=%d,l=%d): ready but R not updated", b, k, l)
					}
					continue
				}
				if r.R != old.R || r.P != old.P || r.Gains != old.Gains || r.NoiseProbes != old.NoiseProbes ||
					r.Candidate != old.Candidate || r.Fallback != old.Fallback {
					t.Errorf("b=%d (k=%d,l=%d): not ready but R/P/gains changed: %+v -> %+v", b, k, l, old, r)
				}
			}
		}
	}
	// Horizon 2 was never ready: fully open and never solved.
	if r := c.Route(2, 1); r.Gains != [2]float64{1, 1} || r.NoiseProbes != 0 || r.Candidate != "" {
		t.Errorf("never-ready route = %+v, want open and unsolved", r)
	}
}

func TestProbeCounts(t *testing.T) {
	const K, L = 2, 1
	c := mustNew(t, Config{K: K, L: L, Warmup: 1, Period: 2, RouteEMA: 0.9})
	ready := [][]bool{nil, {false, false}, nil, {true, false}, nil, {true, true}}
	for b := range ready {
		if c.IsCalibration() {
			tot, nz := probe(b, K, L)
			if err := c.Stage(tot, nz, ready[b]); err != nil {
				t.Fatal(err)
			}
		}
		c.Commit()
	}
	for _, tc := range []struct{ k, tot, noise int }{{0, 3, 2}, {1, 3, 1}} {
		if r := c.Route(tc.k, 0); r.TotProbes != tc.tot || r.NoiseProbes != tc.noise {
			t.Errorf("k=%d: probes tot=%d noise=%d, want %d, %d", tc.k, r.TotProbes, r.NoiseProbes, tc.tot, tc.noise)
		}
	}
	if c.Calibrations() != 3 || c.Minibatch() != 6 {
		t.Errorf("Calibrations = %d, Minibatch = %d; want 3, 6", c.Calibrations(), c.Minibatch())
	}
}

func TestStageErrorsChangeNothing(t *testing.T) {
	const K, L = 2, 2
	tot, nz := probe(0, K, L)
	with := func(s []wiener.Sym2, i int, v wiener.Sym2) []wiener.Sym2 {
		c := append([]wiener.Sym2(nil), s...)
		c[i] = v
		return c
	}
	tests := []struct {
		name     string
		cfg      Config
		setup    func(c *Controller)
		tot, nz  []wiener.Sym2
		ready    []bool
		wantErr  string
		wantNone bool // expect no error
	}{
		{name: "not a calibration minibatch", cfg: DefaultConfig(K, L), tot: tot, nz: nz, ready: allReady(K),
			wantErr: "minibatch 0 is not a calibration minibatch"},
		{name: "already staged", cfg: fastCfg(K, L), tot: tot, nz: nz, ready: allReady(K),
			setup: func(c *Controller) {
				if err := c.Stage(tot, nz, allReady(K)); err != nil {
					panic(err)
				}
			}, wantErr: "already has a staged calibration"},
		{name: "short tot", cfg: fastCfg(K, L), tot: tot[:3], nz: nz, ready: allReady(K), wantErr: "len(tot) = 3, want K*L = 4"},
		{name: "short noise", cfg: fastCfg(K, L), tot: tot, nz: nz[:1], ready: allReady(K), wantErr: "len(noise) = 1"},
		{name: "short noiseReady", cfg: fastCfg(K, L), tot: tot, nz: nz, ready: []bool{true}, wantErr: "len(noiseReady) = 1, want K = 2"},
		{name: "nil noiseReady without sampler", cfg: fastCfg(K, L), tot: tot, nz: nz, wantErr: "owns no sampler"},
		{name: "NaN tot", cfg: fastCfg(K, L), tot: with(tot, 3, wiener.Sym2{IJ: math.NaN()}), nz: nz, ready: allReady(K),
			wantErr: "tot[k=1][l=1].IJ = NaN"},
		{name: "Inf noise", cfg: fastCfg(K, L), tot: tot, nz: with(nz, 2, wiener.Sym2{JJ: math.Inf(1)}), ready: allReady(K),
			wantErr: "noise[k=1][l=0].JJ = +Inf"},
		{name: "negative diagonal", cfg: fastCfg(K, L), tot: with(tot, 1, wiener.Sym2{II: -1}), nz: nz, ready: allReady(K),
			wantErr: "tot[k=0][l=1] has a negative diagonal"},
		{name: "nil noise, nothing ready", cfg: fastCfg(K, L), tot: tot, ready: []bool{false, false}, wantNone: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mustNew(t, tc.cfg)
			if tc.setup != nil {
				tc.setup(c)
			}
			before := mustMarshal(t, c)
			err := c.Stage(tc.tot, tc.nz, tc.ready)
			if tc.wantNone {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want containing %q", err, tc.wantErr)
			}
			if after := mustMarshal(t, c); after != before {
				t.Errorf("state changed on error")
			}
		})
	}
}

func TestHistory(t *testing.T) {
	const K, L = 1, 1
	tests := []struct {
		name        string
		cap         int
		ready       [][]bool // per calibration minibatch
		wantBatches []int
		wantDropped int
	}{
		{"records changing commits only", 0, [][]bool{{false}, {true}, {false}, {true}}, []int{1, 3}, 0},
		{"cap keeps most recent", 2, [][]bool{{true}, {true}, {true}, {true}}, []int{2, 3}, 2},
		{"negative cap keeps all", -1, [][]bool{{true}, {true}, {true}}, []int{0, 1, 2}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := fastCfg(K, L)
			cfg.HistoryCap = tc.cap
			c := mustNew(t, cfg)
			for b, ready := range tc.ready {
				tot, nz := probe(b, K, L)
				if err := c.Stage(tot, nz, ready); err != nil {
					t.Fatal(err)
				}
				c.Commit()
			}
			h := c.History()
			var got []int
			for _, e := range h {
				got = append(got, e.Minibatch)
			}
			if !equalInts(got, tc.wantBatches) || c.HistoryDropped() != tc.wantDropped {
				t.Fatalf("history minibatches %v dropped %d, want %v dropped %d", got, c.HistoryDropped(), tc.wantBatches, tc.wantDropped)
			}
			if last := h[len(h)-1].Gains; !sameBits(last, c.Gains()) {
				t.Errorf("last history gains %v != committed %v", last, c.Gains())
			}
			h[0].Gains[0] = -5 // History returns a copy
			if c.History()[0].Gains[0] == -5 {
				t.Error("History aliases internal state")
			}
		})
	}
}

func TestGains32(t *testing.T) {
	c := mustNew(t, fastCfg(2, 2))
	tot, nz := probe(0, 2, 2)
	if err := c.Stage(tot, nz, allReady(2)); err != nil {
		t.Fatal(err)
	}
	c.Commit()
	g, g32 := c.Gains(), c.Gains32()
	if len(g32) != len(g) {
		t.Fatal("length mismatch")
	}
	for i := range g {
		if g32[i] != float32(g[i]) {
			t.Errorf("Gains32[%d] = %v, want %v", i, g32[i], float32(g[i]))
		}
	}
}

func TestOwnedSamplerCommitsWithController(t *testing.T) {
	const K, L, D = 2, 1, 1
	s, err := noise.New("generic")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(fastCfg(K, L), s)
	if err != nil {
		t.Fatal(err)
	}
	// Minibatch 0: nothing committed in the sampler, so noiseReady (from the
	// sampler, nil argument) is all false and R stays unobserved.
	tot, nz := probe(0, K, L)
	if err := c.Stage(tot, nz, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Stage([]float64{1, 2, 3, 4}, 2, K, D); err != nil {
		t.Fatal(err)
	}
	c.Commit()
	if r := c.Route(0, 0); r.NoiseProbes != 0 || r.TotProbes != 1 {
		t.Fatalf("b=0 probes %+v, want tot only", r)
	}
	if got := s.Ready(K); !got[0] || !got[1] {
		t.Fatalf("controller Commit did not commit the sampler: Ready = %v", got)
	}
	// Minibatch 1: the sampler is ready, so nil noiseReady means all ready.
	tot, nz = probe(1, K, L)
	if err := c.Stage(tot, nz, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Stage([]float64{9, 9}, 1, K, D); err != nil {
		t.Fatal(err)
	}
	c.Discard() // drops both the calibration and the sampler's staged residuals
	c.Commit()
	if r := c.Route(1, 0); r.NoiseProbes != 0 || r.TotProbes != 1 {
		t.Errorf("Discard kept the staged calibration: %+v", r)
	}
	if g := s.(*noise.Generic); g.Template(0)[0] != 1 || g.Count(0) != 1 {
		t.Errorf("Discard kept the sampler's staged residuals: template %v", g.Template(0))
	}
	tot, nz = probe(2, K, L)
	if err := c.Stage(tot, nz, nil); err != nil {
		t.Fatal(err)
	}
	c.Commit()
	if r := c.Route(1, 0); r.NoiseProbes != 1 {
		t.Errorf("nil noiseReady did not use the sampler's readiness: %+v", r)
	}
}
