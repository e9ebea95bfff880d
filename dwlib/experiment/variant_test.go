package experiment

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/prior"
)

func TestParseVariantCandidates(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		ok      bool
		wantErr string
	}{
		{"generic", nil, false, ""},
		{"choose:generic,prior-ar", []string{"generic", "prior-ar"}, true, ""},
		{"choose: generic , prior-factor", []string{"generic", "prior-factor"}, true, ""},
		{"choose:generic", nil, true, "at least two"},
		{"choose:generic,generic", nil, true, "twice"},
		{"choose:generic,nope", nil, true, `"nope"`},
	} {
		got, ok, err := ParseVariantCandidates(tc.in)
		if ok != tc.ok || !slices.Equal(got, tc.want) || (tc.wantErr == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%q: %v, %v, %v", tc.in, got, ok, err)
		}
	}
}

// The DW variant is chosen by seed-0 validation loss, recorded next to the runs, and every seed's
// dw run uses the winner; the other methods run unchanged.
func TestSweepChoosingVariant(t *testing.T) {
	opt := quickOptions(t)
	jobs := Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0, 1}}.Jobs()
	for i := range jobs {
		jobs[i].K = 4 // a tiny horizon: the quick profile's runs in seconds
	}
	cands := []string{"generic", prior.ARName}
	outs, choices, err := SweepChoosingVariant(Quick, jobs, cands, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(choices) != 1 || len(choices[0].Candidates) != 2 {
		t.Fatalf("choices %+v", choices)
	}
	ch := choices[0]
	want := cands[0]
	if ch.Candidates[1].BestVal < ch.Candidates[0].BestVal {
		want = cands[1]
	}
	if ch.Winner != want || ch.K != 4 || ch.Seed != 0 {
		t.Errorf("choice %+v, want winner %s", ch, want)
	}
	for _, c := range ch.Candidates {
		if c.Error != "" || !(c.BestVal > 0) || !strings.Contains(c.Run, "-s0") {
			t.Errorf("candidate %+v", c)
		}
	}
	b, err := os.ReadFile(VariantFile(opt.RunsDir, ch))
	if err != nil {
		t.Fatal(err)
	}
	var back VariantChoice
	if err := json.Unmarshal(b, &back); err != nil || back.Winner != ch.Winner || len(back.Candidates) != 2 {
		t.Errorf("file %s: %+v, %v", b, back, err)
	}
	if len(outs) != len(jobs) {
		t.Fatalf("%d outcomes for %d jobs", len(outs), len(jobs))
	}
	for i, o := range outs {
		if o.Err != nil {
			t.Fatalf("job %s: %v", jobs[i], o.Err)
		}
		switch o.Config.Train.Method {
		case "dw":
			if o.Config.Train.Sampler != ch.Winner {
				t.Errorf("job %s ran with %q, the winner is %q", jobs[i], o.Config.Train.Sampler, ch.Winner)
			}
			if o.Config.Seed == 0 && o.Result.BestVal != ch.Candidates[slices.Index(cands, ch.Winner)].BestVal {
				t.Errorf("seed-0 dw run is not the winner's candidate run")
			}
		case "full":
			if o.Config.Train.Sampler != "generic" {
				t.Errorf("full job's sampler changed to %q", o.Config.Train.Sampler)
			}
		}
	}
	if _, _, err := SweepChoosingVariant(Quick, Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full"}, Seeds: []uint64{0}}.Jobs(), cands, opt); err == nil {
		t.Error("a choice without dw jobs was accepted")
	}
}

// Job.Sampler sets a dw job's sampler and names its run; an unknown sampler is refused.
func TestJobSampler(t *testing.T) {
	cfgs, err := ResolveJobs(Quick, []Job{{Testbed: "mackey-glass", Method: "dw", Sampler: prior.ARName}, {Testbed: "mackey-glass", Method: "full", Sampler: prior.ARName}})
	if err != nil {
		t.Fatal(err)
	}
	if cfgs[0].Train.Sampler != prior.ARName || !strings.Contains(cfgs[0].Name(), "dw-prior-ar") || cfgs[1].Train.Sampler != "generic" {
		t.Errorf("samplers %q, %q; name %s", cfgs[0].Train.Sampler, cfgs[1].Train.Sampler, cfgs[0].Name())
	}
	if _, err := ResolveJobs(Quick, []Job{{Testbed: "mackey-glass", Method: "dw", Sampler: "nope"}}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown sampler: %v", err)
	}
}
