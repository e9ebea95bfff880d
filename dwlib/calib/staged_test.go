package calib

import (
	"slices"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestStagedViewIsWhatCommitMakesCurrent checks StagedGains and StagedRoute against the state
// Commit makes current, at every step of a schedule: nil/false outside a pending calibration,
// the committed gains unchanged while one is pending, and after Commit exactly the staged view.
func TestStagedViewIsWhatCommitMakesCurrent(t *testing.T) {
	const K, L = 3, 2
	cfg := Config{K: K, L: L, Warmup: 2, Period: 2, RouteEMA: DefaultRouteEMA}
	c := mustNew(t, cfg)
	for _, tc := range []struct {
		b      int
		stage  bool
		ready  []bool
		staged bool // whether a stage is pending after Stage
	}{
		{b: 0}, // warm-up
		{b: 1}, // warm-up
		{b: 2, stage: true, ready: []bool{true, false, true}, staged: true},
		{b: 3}, // between calibrations
		{b: 4, stage: true, ready: allReady(K), staged: true},
		{b: 5},
		{b: 6, stage: true, ready: []bool{false, false, false}, staged: true}, // T̂ only: gains keep their values
	} {
		if c.Minibatch() != tc.b {
			t.Fatalf("minibatch %d, want %d", c.Minibatch(), tc.b)
		}
		before := c.Gains()
		if tc.stage {
			tot, noise := probe(tc.b, K, L)
			if err := c.Stage(tot, noise, tc.ready); err != nil {
				t.Fatal(err)
			}
		}
		staged := c.StagedGains()
		if (staged != nil) != tc.staged {
			t.Fatalf("b=%d: StagedGains() = %v, want staged=%v", tc.b, staged, tc.staged)
		}
		if !slices.Equal(c.Gains(), before) {
			t.Fatalf("b=%d: Stage changed the committed gains", tc.b)
		}
		var routes []Route
		for k := range K {
			for l := range L {
				r, ok := c.StagedRoute(k, l)
				if ok != tc.staged {
					t.Fatalf("b=%d: StagedRoute(%d, %d) ok = %v, want %v", tc.b, k, l, ok, tc.staged)
				}
				if ok && (r.Gains[0] != staged[2*(k*L+l)] || r.Gains[1] != staged[2*(k*L+l)+1]) {
					t.Fatalf("b=%d: StagedRoute(%d, %d).Gains = %v, StagedGains has %v", tc.b, k, l, r.Gains, staged[2*(k*L+l):2*(k*L+l)+2])
				}
				if ok && tc.ready[k] {
					// A ready route was solved from its staged moments.
					if w, _ := wiener.Solve(r.T, r.R); w != r.Gains {
						t.Fatalf("b=%d: staged (%d, %d) gains %v, Solve(T̂, R̂) = %v", tc.b, k, l, r.Gains, w)
					}
				}
				routes = append(routes, r)
			}
		}
		c.Commit()
		if tc.staged {
			if !slices.Equal(c.Gains(), staged) {
				t.Fatalf("b=%d: committed gains %v, staged %v", tc.b, c.Gains(), staged)
			}
			for i, r := range routes {
				if got := c.Route(i/L, i%L); got != r {
					t.Fatalf("b=%d: committed route %d = %+v, staged %+v", tc.b, i, got, r)
				}
			}
		}
		if c.StagedGains() != nil {
			t.Fatalf("b=%d: a stage is still pending after Commit", tc.b)
		}
	}
	if c.Calibrations() != 3 {
		t.Fatalf("Calibrations() = %d, want 3", c.Calibrations())
	}
}
