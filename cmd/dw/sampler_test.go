package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// -sampler sets the DW noise sampler of the dw runs (prior-ar: DW-Prior for any series) and is
// refused for other methods and unknown names.
func TestSamplerFlag(t *testing.T) {
	out, err := dw(t, "config", "-profile", "quick", "-testbed", "mackey-glass", "-methods", "full,dw", "-sampler", "prior-ar")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, `"sampler": "prior-ar"`) != 1 || strings.Count(out, `"sampler": "generic"`) != 1 {
		t.Fatalf("the dw run (only) should get the prior-ar sampler:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"config", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full", "-sampler", "prior-ar"}, "applies to -method dw only"},
		{[]string{"config", "-profile", "quick", "-testbed", "mackey-glass", "-method", "dw", "-sampler", "nope"}, `-sampler "nope": valid samplers are`},
	} {
		_, err := dw(t, tc.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("dw %v: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

// dw sweep -sampler choose:... runs seed 0 with each candidate, keeps the winner for every seed
// and says so; a plain -sampler names the dw runs; choose is refused where it cannot run.
func TestSweepSamplerChoice(t *testing.T) {
	runs := t.TempDir()
	out, err := dw(t, "sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-seeds", "0,1", "-K", "4",
		"-sampler", "choose:generic,prior-ar", "-runs", runs, "-baselines=false")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "DW variant for mackey-glass K=4: ") || !strings.Contains(out, "generic ") || !strings.Contains(out, "prior-ar ") {
		t.Errorf("the choice is not reported:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-sampler", "choose:generic", "-runs", runs}, "at least two"},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-sampler", "choose:generic,prior-ar", "-plan", "-runs", runs}, "cannot be written"},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-sampler", "nope", "-plan", "-runs", runs}, `-sampler "nope"`},
		{[]string{"table", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-sampler", "choose:generic,prior-ar", "-runs", runs}, "only dw sweep chooses"},
	} {
		_, err := dw(t, tc.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("dw %v: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	plan, err := dw(t, "sweep", "-profile", "quick", "-testbeds", "ieeg-synth", "-methods", "dw", "-seeds", "0", "-sampler", "prior-factor", "-plan", "-runs", runs)
	if err != nil || !strings.Contains(plan, "quick/ieeg-synth/dw-prior-factor-K8-s0") {
		t.Errorf("plan with -sampler prior-factor: %v\n%s", err, plan)
	}
}

// A Slurm task line keeps a dw job's sampler (and only a dw job's).
func TestTrainArgsSampler(t *testing.T) {
	for _, tc := range []struct {
		job  experiment.Job
		want string
	}{
		{experiment.Job{Testbed: "ieeg-synth", Method: "dw", Seed: 1, Sampler: "prior-factor"}, "-profile quick -testbed ieeg-synth -method dw -seed 1 -sampler prior-factor"},
		{experiment.Job{Testbed: "ieeg-synth", Method: "full", Seed: 1, Sampler: "prior-factor"}, "-profile quick -testbed ieeg-synth -method full -seed 1"},
		{experiment.Job{Testbed: "fmri-synth", Method: "dw", K: 8}, "-profile quick -testbed fmri-synth -method dw -seed 0 -K 8"},
	} {
		if got := strings.Join(trainArgs("quick", tc.job), " "); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.job, got, tc.want)
		}
	}
}

// -channels and -participant choose the stand-in's data set and name its runs.
func TestChannelsFlag(t *testing.T) {
	out, err := dw(t, "config", "-profile", "quick", "-testbed", "ieeg-synth", "-method", "dw", "-channels", "80", "-participant", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"channels": 80`) || !strings.Contains(out, `"participant": 1`) {
		t.Errorf("config without the data set:\n%s", out)
	}
	runs := t.TempDir()
	plan, err := dw(t, "sweep", "-profile", "quick", "-testbeds", "ieeg-synth", "-methods", "full", "-seeds", "0", "-channels", "80", "-plan", "-runs", runs)
	if err != nil || !strings.Contains(plan, "quick/ieeg-synth-c80/full-K8-s0") {
		t.Errorf("plan: %v\n%s", err, plan)
	}
	if _, err := dw(t, "config", "-profile", "quick", "-testbed", "mackey-glass", "-method", "dw", "-channels", "80"); err == nil || !strings.Contains(err.Error(), "data.channels") {
		t.Errorf("mackey-glass -channels 80: %v", err)
	}
}

// -sampler generic,prior-ar puts each dw job in once per sampler (DW-Generic and DW-Prior in one
// plan and one table); the other methods' jobs are not repeated; an unknown name in the list is a
// usage error naming it.
func TestSamplerList(t *testing.T) {
	out, err := dw(t, "sweep", "-plan", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full,dw", "-seeds", "0,1", "-K", "4",
		"-sampler", "generic,prior-ar", "-runs", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"full-K4-s0", "full-K4-s1", "dw-K4-s0", "dw-K4-s1", "dw-prior-ar-K4-s0", "dw-prior-ar-K4-s1"} {
		if strings.Count(out, want) != 1 {
			t.Errorf("the plan should list %s once:\n%s", want, out)
		}
	}
	_, err = dw(t, "sweep", "-plan", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-sampler", "generic,nope", "-runs", t.TempDir())
	var ue usageError
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !errors.As(err, &ue) {
		t.Errorf("-sampler generic,nope: %v, want a usage error naming nope", err)
	}
}
