package experiment

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// TestHorizonSweep trains quick runs at three K, scores them at one H, and checks the per-seed
// and pooled fits against eval.FitHorizonCurve on the same points, the cache, and the refusals.
func TestHorizonSweep(t *testing.T) {
	opt := quickOptions(t)
	Ks, seeds, H := []int{4, 6, 8}, []uint64{0, 1}, 12
	var jobs []Job
	for _, k := range Ks {
		jobs = append(jobs, Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full", "dw"}, Seeds: seeds, Ks: []int{k}}.Jobs()...)
	}
	jobs = jobs[:len(jobs)-1] // leave dw K=8 seed 1 unfinished
	opt.Jobs = 2
	if _, err := Sweep(Quick, jobs, opt); err != nil {
		t.Fatal(err)
	}
	s, err := RunHorizonSweep(opt, Quick, "mackey-glass", []string{"full", "dw"}, Ks, seeds, H, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Points) != 11 || len(s.Missing) != 1 || s.Missing[0] != "quick/mackey-glass/dw-K8-s1" {
		t.Fatalf("%d points, missing %v; want 11 and dw-K8-s1", len(s.Points), s.Missing)
	}
	// Each point is EvaluateRun at H; the fits are FitHorizonCurve of the points.
	var poolK, poolY []float64
	for _, seed := range seeds {
		var ks, ys []float64
		for _, p := range s.Points {
			if p.Method == "full" && p.Seed == seed {
				cfg, _ := Resolve(Quick, "mackey-glass", "full", seed, p.K)
				dir, _ := opt.Dir(cfg)
				_, score, err := EvaluateRun(dir, H, 0, opt)
				if err != nil || score.RelL2 != p.RelL2 {
					t.Errorf("full K=%d s%d: point %v, EvaluateRun %v (%v)", p.K, seed, p.RelL2, score.RelL2, err)
				}
				ks, ys = append(ks, float64(p.K)), append(ys, p.RelL2)
			}
		}
		if seed == 0 { // seed 1 lacks dw K=8: the pooled fit takes the matched, complete seeds only
			poolK, poolY = append(poolK, ks...), append(poolY, ys...)
		}
		want, err := eval.FitHorizonCurve(ks, ys)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Fits["full"][seed]; math.Abs(got.KStar-want.KStar) > 1e-12 || math.Abs(got.YStar-want.YStar) > 1e-12 {
			t.Errorf("seed %d fit K* %v, want %v", seed, got.KStar, want.KStar)
		}
	}
	want, _ := eval.FitHorizonCurve(poolK, poolY)
	if got := s.Pooled["full"]; got.KStar != want.KStar || got.YStar != want.YStar || len(s.PooledSeeds) != 1 || s.PooledSeeds[0] != 0 {
		t.Errorf("pooled K* %v (min %v) over seeds %v, want %v (%v) over seed 0, the one complete", got.KStar, got.YStar, s.PooledSeeds, want.KStar, want.YStar)
	}
	if _, ok := s.Fits["dw"][1]; ok {
		t.Error("dw seed 1 has two K only but was fitted")
	}
	md := s.Markdown()
	var dwK8s0 float64
	for _, p := range s.Points {
		if p.Method == "dw" && p.Seed == 0 && p.K == 8 {
			dwK8s0 = p.RelL2
		}
	}
	for _, w := range []string{"scored at H = 12", "| seed 0 |", "| seed 1 | – |", "| pooled (complete seeds: 0) |", "dw ksweep -train trains them): quick/mackey-glass/dw-K8-s1",
		"| method | seed | K = 4 | K = 6 | K = 8 |", fmt.Sprintf("| dw | 0 | %.4f | %.4f | %.4f |", s.Points[6].RelL2, s.Points[7].RelL2, dwK8s0),
		fmt.Sprintf("| dw | 1 | %.4f | %.4f | – |", s.Points[9].RelL2, s.Points[10].RelL2)} {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
	// The baselines are scored at H under the points' protocol, averaged over the seeds.
	var wantDamped float64
	for _, seed := range seeds {
		cfg, _ := Resolve(Quick, "mackey-glass", "full", seed, Ks[0])
		ds, err := LoadData(cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		p := BaselineProtocol(cfg)
		p.H = H
		rs, err := baseline.Score(ds, p, baselineGrid())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Name == "damped-persistence" {
				if len(r.Test.PerHorizon) != H {
					t.Fatalf("seed %d: damped persistence scored over %d horizons, want %d", seed, len(r.Test.PerHorizon), H)
				}
				wantDamped += r.Test.RelL2 / float64(len(seeds))
			}
		}
	}
	if got := s.Baselines["damped-persistence"]; math.Abs(got-wantDamped) > 1e-12 || math.Abs(s.Baselines["zero"]-1) > 1e-12 || s.Baselines["ridge-ar"] <= 0 {
		t.Errorf("baselines %v, want damped persistence %v and zero 1", s.Baselines, wantDamped)
	}
	if !strings.Contains(md, fmt.Sprintf("damped-persistence %.4f", wantDamped)) {
		t.Errorf("table lacks the baselines:\n%s", md)
	}
	// The scores are cached in the run directories: a second sweep reads them back.
	cfg, _ := Resolve(Quick, "mackey-glass", "full", 0, 4)
	dir, _ := opt.Dir(cfg)
	cache := filepath.Join(dir, FixedHorizonFile(H, cfg.EvalOrigins))
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache: %v", err)
	}
	if err := os.WriteFile(cache, []byte(strings.Replace(mustRead(t, cache), `"rel_l2": `, `"rel_l2": 7`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := RunHorizonSweep(opt, Quick, "mackey-glass", []string{"full"}, Ks, []uint64{0}, H, 0)
	if err != nil {
		t.Fatal(err)
	}
	if again.Points[0].RelL2 < 7 {
		t.Errorf("the cached score was not read back: %v", again.Points[0].RelL2)
	}
	// Archived with their scores, the finished runs need no checkpoint: a sweep over an empty run
	// tree reads the same points from the archive, and only the unfinished run is left to train.
	cur, err := RunHorizonSweep(opt, Quick, "mackey-glass", []string{"full", "dw"}, Ks, seeds, H, 0)
	if err != nil {
		t.Fatal(err)
	}
	archive, empty := t.TempDir(), t.TempDir()
	for _, j := range jobs { // every finished run
		cfg, _ := Resolve(Quick, j.Testbed, j.Method, j.Seed, j.K)
		if _, err := ArchiveRun(cfg, Options{RunsDir: opt.RunsDir, Archive: archive}); err != nil {
			t.Fatal(err)
		}
	}
	fromArchive := Options{RunsDir: empty, Archive: archive, DataCache: opt.DataCache}
	back, err := RunHorizonSweep(fromArchive, Quick, "mackey-glass", []string{"full", "dw"}, Ks, seeds, H, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Points) != len(cur.Points) || len(back.Missing) != 1 {
		t.Fatalf("from the archive: %d points, missing %v; want %d and one", len(back.Points), back.Missing, len(cur.Points))
	}
	for i := range cur.Points {
		if back.Points[i] != cur.Points[i] {
			t.Errorf("point %d from the archive %+v, want %+v", i, back.Points[i], cur.Points[i])
		}
	}
	toTrain, err := HorizonSweepToTrain(fromArchive, Quick, "mackey-glass", []string{"full", "dw"}, Ks, seeds, H, 0)
	if err != nil || len(toTrain) != 1 || toTrain[0] != (Job{Testbed: "mackey-glass", Method: "dw", Seed: 1, K: 8}) {
		t.Errorf("to train from the archive: %v, %v; want only dw K=8 s1", toTrain, err)
	}
	// An archived result without its score must be trained again (scoring needs the checkpoint);
	// a score of another horizon is refused by name.
	cfg6, _ := Resolve(Quick, "mackey-glass", "full", 1, 6)
	score6 := filepath.Join(archive, filepath.FromSlash(cfg6.Name()), FixedHorizonFile(H, cfg6.EvalOrigins))
	if err := os.Remove(score6); err != nil {
		t.Fatal(err)
	}
	if toTrain, err = HorizonSweepToTrain(fromArchive, Quick, "mackey-glass", []string{"full"}, Ks, seeds, H, 0); err != nil || len(toTrain) != 1 || toTrain[0].K != 6 || toTrain[0].Seed != 1 {
		t.Errorf("to train with full K=6 s1's score gone: %v, %v", toTrain, err)
	}
	fresh, err := HorizonSweepToTrain(Options{RunsDir: t.TempDir()}, Quick, "mackey-glass", []string{"full", "dw"}, []int{4, 6}, seeds, H, 0)
	wantJobs := []Job{{"mackey-glass", "full", 0, 4, nil, "", 0, 0}, {"mackey-glass", "dw", 0, 4, nil, "", 0, 0}, {"mackey-glass", "full", 0, 6, nil, "", 0, 0}, {"mackey-glass", "dw", 0, 6, nil, "", 0, 0},
		{"mackey-glass", "full", 1, 4, nil, "", 0, 0}, {"mackey-glass", "dw", 1, 4, nil, "", 0, 0}, {"mackey-glass", "full", 1, 6, nil, "", 0, 0}, {"mackey-glass", "dw", 1, 6, nil, "", 0, 0}}
	if err != nil || fmt.Sprint(fresh) != fmt.Sprint(wantJobs) {
		t.Errorf("to train from nothing: %v, %v; want seed by seed, K by K, methods side by side: %v", fresh, err, wantJobs)
	}
	if toTrain, err = HorizonSweepToTrain(opt, Quick, "mackey-glass", []string{"full"}, Ks, seeds, H, 0); err != nil || len(toTrain) != 0 {
		t.Errorf("to train with every run directory finished: %v, %v; want none", toTrain, err)
	}
	cfg4, _ := Resolve(Quick, "mackey-glass", "full", 0, 4)
	score4 := filepath.Join(archive, filepath.FromSlash(cfg4.Name()), FixedHorizonFile(H, cfg4.EvalOrigins))
	if err := os.WriteFile(score4, []byte(strings.Replace(mustRead(t, score4), fmt.Sprintf(`"H": %d`, H), `"H": 99`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RunHorizonSweep(fromArchive, Quick, "mackey-glass", []string{"full"}, Ks, seeds, H, 0); err == nil || !strings.Contains(err.Error(), score4) {
		t.Errorf("a score of another horizon in the archive: %v, want an error naming %s", err, score4)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("sweeping the archive wrote %d entries into the run tree", len(entries))
	}

	for _, bad := range []struct {
		Ks []int
		H  int
	}{{[]int{4, 16}, 12}, {[]int{0, 4}, 12}, {[]int{4}, 0}, {nil, 12}} {
		if _, err := RunHorizonSweep(opt, Quick, "mackey-glass", []string{"full"}, bad.Ks, seeds, bad.H, 0); err == nil {
			t.Errorf("Ks %v, H %d accepted", bad.Ks, bad.H)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPairedAtK checks the per-K matched-seed differences against hand-worked ones: at K = 8 the
// differences +0.1, +0.2, +0.3 (mean 0.2, sd 0.1, interval 0.2 ± 4.3027·0.1/√3), at K = 16 one
// seed lacks DW and two pairs remain, at K = 24 one pair only, so no interval.
func TestPairedAtK(t *testing.T) {
	s := &HorizonSweep{Ks: []int{8, 16, 24}, Seeds: []uint64{0, 1, 2}}
	add := func(m string, seed uint64, k int, v float64) {
		s.Points = append(s.Points, HorizonPoint{Method: m, Seed: seed, K: k, RelL2: v})
	}
	for i, seed := range s.Seeds {
		add("full", seed, 8, 1)
		add("dw", seed, 8, 1+0.1*float64(i+1))
		add("full", seed, 16, 2)
		if seed != 1 {
			add("dw", seed, 16, 1.5)
		}
	}
	add("full", 0, 24, 1)
	add("dw", 0, 24, 0.5)
	d := s.PairedAtK("dw", "full")
	half := 4.302652729749464 * 0.1 / math.Sqrt(3)
	if p, ok := d[8]; !ok || p.N != 3 || math.Abs(p.Mean-0.2) > 1e-12 || math.Abs(p.Lo-(0.2-half)) > 1e-9 || math.Abs(p.Hi-(0.2+half)) > 1e-9 {
		t.Errorf("K = 8: %+v, want mean 0.2, interval 0.2 ± %v over 3 seeds", p, half)
	}
	if p, ok := d[16]; !ok || p.N != 2 || math.Abs(p.Mean+0.5) > 1e-12 || p.SD != 0 {
		t.Errorf("K = 16: %+v, want −0.5 exactly over the 2 matched seeds", p)
	}
	if _, ok := d[24]; ok {
		t.Error("K = 24 has one pair but got an interval")
	}
	row := s.pairedMarkdown("dw", "full")
	want := fmt.Sprintf("| dw − full | mean [95%% paired] | +0.2000 [%+.4f, %+.4f] (3 seeds) | -0.5000 [-0.5000, -0.5000] (2 seeds) | – |\n", 0.2-half, 0.2+half)
	if row != want {
		t.Errorf("row\n%q\nwant\n%q", row, want)
	}
}
