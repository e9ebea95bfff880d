package experiment

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestVariant: DW-Generic is plain "dw" (whether the sampler is spelled out or left to the
// default), any other sampler gets its own label, and other methods ignore the sampler.
func TestVariant(t *testing.T) {
	for _, tc := range []struct{ method, sampler, want string }{
		{"dw", "", "dw"}, {"dw", "generic", "dw"}, {"dw", "prior-ar", "dw-prior-ar"},
		{"dw", "spectral", "dw-spectral"}, {"full", "prior-ar", "full"}, {"clip", "", "clip"},
	} {
		var c RunConfig
		c.Train.Method, c.Train.Sampler = tc.method, tc.sampler
		if got := Variant(c); got != tc.want {
			t.Errorf("Variant(method %q, sampler %q) = %q, want %q", tc.method, tc.sampler, got, tc.want)
		}
	}
	got := orderVariants([]string{"dw-prior-ar", "tbptt", "dw", "full", "dw-ab"})
	if want := []string{"full", "tbptt", "dw", "dw-ab", "dw-prior-ar"}; !slices.Equal(got, want) {
		t.Errorf("orderVariants = %v, want %v", got, want)
	}
}

// TestSummaryKeepsSamplersApart: DW-Generic and DW-Prior runs of the same seeds are two rows, not
// one average, and each gets its paired difference with Full (and Prior one with Generic),
// computed from the per-seed values by hand here.
func TestSummaryKeepsSamplersApart(t *testing.T) {
	prior := func(seed uint64, rel float64) *Result {
		r := fakeResult(t, "dw", seed, 0, rel)
		r.Config.Train.Sampler = "prior-ar"
		return r
	}
	rs := []*Result{
		fakeResult(t, "full", 0, 0, 1.0), fakeResult(t, "full", 1, 0, 1.2),
		fakeResult(t, "dw", 0, 0, 1.5), fakeResult(t, "dw", 1, 0, 1.9),
		prior(0, 0.9), prior(1, 1.3),
	}
	s := Summarize(rs)
	var methods []string
	for _, r := range s.Rows {
		methods = append(methods, r.Method)
	}
	if want := []string{"full", "dw", "dw-prior-ar"}; !slices.Equal(methods, want) {
		t.Fatalf("rows %v, want %v", methods, want)
	}
	if m := s.Rows[2].Mean; math.Abs(m-1.1) > 1e-12 {
		t.Errorf("dw-prior-ar mean %v, want 1.1 (its own seeds only)", m)
	}
	want := map[string]float64{"dw − full": 0.6, "dw-prior-ar − full": 0, "dw-prior-ar − dw": -0.6}
	if len(s.Paired) != len(want) {
		t.Fatalf("%d paired rows, want %d: %+v", len(s.Paired), len(want), s.Paired)
	}
	for _, p := range s.Paired {
		name := p.Method + " − " + p.Base
		w, ok := want[name]
		if !ok || math.Abs(p.Diff.Mean-w) > 1e-12 {
			t.Errorf("paired %s = %v, want %v (known: %v)", name, p.Diff.Mean, w, ok)
		}
		if p.Paper != nil {
			t.Errorf("paired %s carries the paper's numbers on a quick-profile run", name)
		}
	}
	if md := s.Markdown(); !strings.Contains(md, "| dw-prior-ar − dw |") {
		t.Errorf("Markdown lacks the Prior − Generic row:\n%s", md)
	}
}

// TestSummaryPairsControlsWithFull: every control is paired with Full over its matched seeds
// (and only with Full), a control with one matched seed gets no interval, and the paper's
// DW − Full stays on DW's row alone. The differences are worked by hand.
func TestSummaryPairsControlsWithFull(t *testing.T) {
	run := func(method string, seed uint64, rel float64) *Result {
		c, err := Resolve(Standard, "mackey-glass", method, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		return &Result{Version: resultVersion, Config: c, Test: TestScore{RelL2: rel}, SecondsPerEpoch: 1}
	}
	rs := []*Result{
		run("full", 0, 1.0), run("full", 1, 1.2), run("full", 2, 0.8),
		run("clip", 0, 0.9), run("clip", 1, 1.0), run("clip", 2, 0.8), // − Full: −0.1, −0.2, 0
		run("tbptt", 1, 1.5), run("tbptt", 2, 1.1), // − Full on seeds 1, 2: +0.3, +0.3
		run("static", 0, 0.7),                                   // one matched seed: no interval
		run("dw", 0, 1.1), run("dw", 1, 1.2), run("dw", 2, 1.0), // − Full: +0.1, 0, +0.2
	}
	s := Summarize(rs)
	type want struct {
		n             int
		mean, percent float64
	}
	wants := map[string]want{
		"clip − full":  {3, -0.1, 100 * (0.9 - 1.0) / 1.0},
		"tbptt − full": {2, 0.3, 100 * (1.3 - 1.0) / 1.0},
		"dw − full":    {3, 0.1, 100 * (1.1 - 1.0) / 1.0},
	}
	var got []string
	for _, p := range s.Paired {
		name := p.Method + " − " + p.Base
		got = append(got, name)
		w, ok := wants[name]
		if !ok {
			continue
		}
		if p.Diff.N != w.n || math.Abs(p.Diff.Mean-w.mean) > 1e-12 || math.Abs(p.Percent-w.percent) > 1e-9 {
			t.Errorf("%s: n %d mean %v change %v%%, want n %d mean %v change %v%%", name, p.Diff.N, p.Diff.Mean, p.Percent, w.n, w.mean, w.percent)
		}
		if !(p.Diff.Lo < p.Diff.Mean && p.Diff.Mean < p.Diff.Hi) && name != "tbptt − full" {
			t.Errorf("%s: interval [%v, %v] does not bracket the mean %v", name, p.Diff.Lo, p.Diff.Hi, p.Diff.Mean)
		}
		if (p.Paper != nil || p.PaperPercent != nil) != (name == "dw − full") {
			t.Errorf("%s: paper numbers %v %v; want them on dw − full only", name, p.Paper, p.PaperPercent)
		}
	}
	if w := []string{"clip − full", "tbptt − full", "dw − full"}; !slices.Equal(got, w) {
		t.Errorf("paired rows %v, want %v (static has one matched seed; controls are not paired with dw)", got, w)
	}
	if md := s.Markdown(); !strings.Contains(md, "| mackey-glass | clip − full | 3 | -0.10000 |") {
		t.Errorf("Markdown lacks the Clip − Full row:\n%s", md)
	}
}
