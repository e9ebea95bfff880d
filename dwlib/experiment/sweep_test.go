package experiment

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/progress"
)

// TestSweepJobsGiveTheSameNumbers runs one grid one run at a time and three at once, in separate
// run directories, and asks for bit-identical outcomes in job order.
func TestSweepJobsGiveTheSameNumbers(t *testing.T) {
	jobs := Grid{Testbeds: []string{"mackey-glass", "narma5"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0}}.Jobs()
	run := func(n int) ([]Outcome, *progress.Recorder) {
		opt := quickOptions(t)
		opt.Jobs = n
		rec := &progress.Recorder{}
		opt.Reporter = rec
		outs, err := Sweep(Quick, jobs, opt)
		if err != nil {
			t.Fatal(err)
		}
		return outs, rec
	}
	one, _ := run(1)
	many, rec := run(3)
	total := 0
	for _, o := range many {
		total += SweepCost(o.Config)
	}
	if got := rec.Done; got != total || !strings.HasPrefix(rec.Events[0], fmt.Sprintf("start %d ", total)) {
		t.Errorf("parallel sweep reported %d, started with %q; want the planned cost %d", got, rec.Events[0], total)
	}
	for i := range jobs {
		a, b := one[i], many[i]
		if a.Err != nil || b.Err != nil {
			t.Fatalf("%s: errors %v / %v", jobs[i], a.Err, b.Err)
		}
		if b.Job != jobs[i] {
			t.Errorf("outcome %d is %s, want %s (job order)", i, b.Job, jobs[i])
		}
		if a.Result.Test.RelL2 != b.Result.Test.RelL2 || !slices.Equal(a.Result.Test.PerHorizon, b.Result.Test.PerHorizon) {
			t.Errorf("%s: test rel-L2 %v one at a time, %v three at once", jobs[i], a.Result.Test.RelL2, b.Result.Test.RelL2)
		}
		for e := range a.Result.Epochs {
			if a.Result.Epochs[e].ValLoss != b.Result.Epochs[e].ValLoss {
				t.Errorf("%s epoch %d: validation %v vs %v", jobs[i], e+1, a.Result.Epochs[e].ValLoss, b.Result.Epochs[e].ValLoss)
			}
		}
	}
}

// TestPaperVal64IsPaperWithFewerValidationOrigins: the two profiles train the same weights.
func TestPaperVal64IsPaperWithFewerValidationOrigins(t *testing.T) {
	for _, m := range []string{"full", "dw"} {
		p, err := Resolve(Paper, "mackey-glass", m, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Resolve(PaperVal64, "mackey-glass", m, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v.Fit.ValOrigins != 64 || p.Fit.ValOrigins != 497 {
			t.Errorf("%s: validation origins %d / %d, want 64 / 497", m, v.Fit.ValOrigins, p.Fit.ValOrigins)
		}
		v.Fit.ValOrigins, v.Profile = p.Fit.ValOrigins, p.Profile
		if string(v.JSON()) != string(p.JSON()) {
			t.Errorf("%s: paper-val64 differs from paper in more than the validation origins:\n%s\n%s", m, v.JSON(), p.JSON())
		}
	}
}

// TestForwardConvertsMinibatchesIntoCost: a run's minibatch steps reach the sweep's bar as its
// share of SweepCost, whatever the number of minibatches per epoch, and never more than the cost.
func TestForwardConvertsMinibatchesIntoCost(t *testing.T) {
	for _, tc := range []struct {
		planned, cost int
		steps         []int
		want          []int // the bar's total after each step
	}{
		{planned: 700, cost: 6400, steps: []int{1, 6, 693}, want: []int{9, 64, 6400}},
		{planned: 100, cost: 6400, steps: []int{1, 49, 50}, want: []int{64, 3200, 6400}},
		{planned: 3, cost: 2, steps: []int{1, 1, 1, 5}, want: []int{0, 1, 2, 2}},
	} {
		rec := &progress.Recorder{}
		f := &forward{rep: rec, planned: tc.planned, cost: tc.cost}
		for i, n := range tc.steps {
			f.Step(n, "epoch")
			if rec.Done != tc.want[i] {
				t.Errorf("planned %d, cost %d: after step %d the bar is at %d, want %d", tc.planned, tc.cost, i, rec.Done, tc.want[i])
			}
		}
	}
	c, err := Resolve(PaperCPU, "mackey-glass", "dw", 0, 32)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := SweepCost(c), c.Fit.Epochs*(c.Model.Window+32); got != want {
		t.Errorf("SweepCost = %d, want epochs × (window + K) = %d", got, want)
	}
}

// TestSweepBarCountsTheWorkLeft: the bar of a sweep that resumes one run after its first epoch and
// reads another back starts at the work left (the resumed run's later epochs, nothing for the
// finished one) and ends there, so its ETA is that of the work left.
func TestSweepBarCountsTheWorkLeft(t *testing.T) {
	opt := quickOptions(t)
	finished := Job{Testbed: "narma5", Method: "full", Seed: 0}
	resumed := Job{Testbed: "narma5", Method: "dw", Seed: 0}
	cfgs, err := ResolveJobs(Quick, []Job{finished, resumed})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(cfgs[0], opt); err != nil {
		t.Fatal(err)
	}
	first := opt
	first.StopAfter = 1
	if _, err := Run(cfgs[1], first); !errors.Is(err, ErrStopped) {
		t.Fatalf("stop after one epoch: %v", err)
	}
	epochs := cfgs[1].Fit.Epochs
	if epochs < 2 {
		t.Fatalf("the quick profile trains %d epoch(s); the test needs two or more", epochs)
	}
	want := SweepCost(cfgs[1]) * (epochs - 1) / epochs
	rec := &progress.Recorder{}
	opt.Reporter, opt.Resume = rec, true
	outs, err := Sweep(Quick, []Job{finished, resumed}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Results(outs); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rec.Events[0], fmt.Sprintf("start %d ", want)) || rec.Done != want {
		t.Errorf("bar started with %q and reached %d; want the work left, %d of %d", rec.Events[0], rec.Done, want, SweepCost(cfgs[0])+SweepCost(cfgs[1]))
	}
	// Each step's share follows the minibatches the resumed run has left, not those of a whole
	// run: its last minibatch brings the bar to the end, with nothing left to credit at "done".
	for _, e := range rec.Events {
		if strings.HasPrefix(e, "step ") && strings.HasSuffix(e, "done") {
			t.Errorf("the run's minibatches fell short of its cost, credited at the end: %q", e)
		}
	}
}
