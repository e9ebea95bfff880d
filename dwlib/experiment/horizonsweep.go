package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// HorizonSweep is the paper's training-horizon experiment ("Fitted optimal training-horizon
// range", Figure 7 and the per-seed fitted curves): checkpoints trained at several K, every one
// evaluated at one fixed forecast horizon H, and least-squares quadratics with non-negative
// curvature fitted per seed and pooled over the matched seeds, per method. K* is the fitted
// optimum on the evaluated range (eval.FitHorizonCurve).
type HorizonSweep struct {
	Profile, Testbed string
	H, Origins       int
	Points           []HorizonPoint
	// Fits[method] holds the per-seed fits (in Seeds order) and Pooled[method] the fit to the
	// points of the matched seeds, PooledSeeds: those with a point for every method at every K.
	// A seed part-way through its grid would otherwise pull the pooled curve toward its Ks. A fit
	// that could not be made (fewer than 3 distinct K, or no matched seed) is absent.
	Ks          []int
	Seeds       []uint64
	PooledSeeds []uint64
	Fits        map[string]map[uint64]eval.Fit
	Pooled      map[string]eval.Fit
	// Missing lists the runs of the grid with no score at H: unfinished, or finished with their
	// checkpoint gone (an archived result without its score). Both need training.
	Missing []string
	// Baselines[name] is the mean over Seeds of each baseline's test rel-L2 (BaselineNames) under
	// the points' protocol at H: the level a checkpoint must beat to show any skill.
	Baselines map[string]float64
}

// HorizonPoint is one checkpoint's test rel-L2 over h = 1..H.
type HorizonPoint struct {
	Method string  `json:"method"`
	K      int     `json:"K"`
	Seed   uint64  `json:"seed"`
	RelL2  float64 `json:"rel_l2"`
}

// fixedHorizonScore is what a run directory caches of an evaluation at a fixed horizon.
type fixedHorizonScore struct {
	H, Origins int
	Config     RunConfig
	Test       TestScore
}

// FixedHorizonFile names the cache of a run's evaluation at horizon H over origins origins.
func FixedHorizonFile(H, origins int) string { return fmt.Sprintf("fixedH%d-o%d.json", H, origins) }

// fixedHorizonFiles matches every FixedHorizonFile of a run directory.
const fixedHorizonFiles = "fixedH*-o*.json"

// EvaluateFixedHorizon scores the best checkpoint of the finished run cfg at horizon H (origins
// per unit; 0: the run's EvalOrigins), caching the score in the run directory so a sweep can be
// re-read without re-evaluating. It returns (nil, nil) when the run has not finished.
func EvaluateFixedHorizon(cfg RunConfig, H, origins int, opt Options) (*TestScore, error) {
	if origins == 0 {
		origins = cfg.EvalOrigins
	}
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, err
	}
	r, err := ReadResult(filepath.Join(dir, ResultFile))
	if errors.Is(err, fs.ErrNotExist) {
		return archivedFixedHorizon(cfg, H, origins, opt)
	}
	if err != nil {
		return nil, err
	}
	if !sameConfig(r.Config, cfg) {
		return nil, fmt.Errorf("experiment: %s holds a result for another configuration", dir)
	}
	cache := filepath.Join(dir, FixedHorizonFile(H, origins))
	if b, err := os.ReadFile(cache); err == nil {
		var s fixedHorizonScore
		if json.Unmarshal(b, &s) == nil && s.H == H && s.Origins == origins && sameConfig(s.Config, cfg) {
			return &s.Test, nil
		}
	}
	_, score, err := EvaluateRun(dir, H, origins, opt)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(fixedHorizonScore{H: H, Origins: origins, Config: cfg, Test: score}, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(cache, append(b, '\n')); err != nil {
		return nil, err
	}
	return &score, nil
}

// archivedFixedHorizon reads cfg's score at (H, origins) from the archive, where ArchiveRun put
// it: (nil, nil) when there is none.
func archivedFixedHorizon(cfg RunConfig, H, origins int, opt Options) (*TestScore, error) {
	a := opt.archiveDir()
	if a == "" {
		return nil, nil
	}
	p := filepath.Join(a, filepath.FromSlash(cfg.Name()), FixedHorizonFile(H, origins))
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s fixedHorizonScore
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", p, err)
	}
	if s.H != H || s.Origins != origins || !sameConfig(s.Config, cfg) {
		return nil, fmt.Errorf("experiment: %s holds a score for another configuration or horizon (H = %d, %d origins)", p, s.H, s.Origins)
	}
	return &s.Test, nil
}

// HorizonSweepToTrain lists the jobs of a horizon sweep whose score at (H, origins) can be had
// neither from a run directory nor from the archive: the runs to train (or resume). A run whose
// result alone is archived is among them, since scoring it at H needs its checkpoint; train
// them with Options.NoArchive, or the archived result counts as finished. The jobs come seed by
// seed and K by K, the methods of one (seed, K) side by side, so a sweep stopped part-way leaves
// matched points.
func HorizonSweepToTrain(opt Options, profile, testbed string, methods []string, Ks []int, seeds []uint64, H, origins int) ([]Job, error) {
	var all []Job
	for _, seed := range seeds {
		for _, k := range Ks {
			all = append(all, Grid{Testbeds: []string{testbed}, Methods: methods, Seeds: []uint64{seed}, Ks: []int{k}}.Jobs()...)
		}
	}
	var out []Job
	for _, j := range all {
		cfg, err := Resolve(profile, j.Testbed, j.Method, j.Seed, j.K)
		if err != nil {
			return nil, err
		}
		o := origins
		if o == 0 {
			o = cfg.EvalOrigins
		}
		dir, err := opt.Dir(cfg)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(dir, ResultFile)); err == nil {
			continue
		}
		score, err := archivedFixedHorizon(cfg, H, o, opt)
		if err != nil {
			return nil, err
		}
		if score == nil {
			out = append(out, j)
		}
	}
	return out, nil
}

// RunHorizonSweep evaluates the finished runs of profile × testbed × methods × Ks × seeds at the
// fixed horizon H (origins per unit, 0: each run's EvalOrigins) and fits the curves. It trains
// nothing: unfinished runs are listed in Missing. Every K must be at most H.
func RunHorizonSweep(opt Options, profile, testbed string, methods []string, Ks []int, seeds []uint64, H, origins int) (*HorizonSweep, error) {
	if H < 1 {
		return nil, fmt.Errorf("experiment: horizon sweep: H = %d, must be >= 1", H)
	}
	if len(Ks) == 0 || len(seeds) == 0 {
		return nil, fmt.Errorf("experiment: horizon sweep: no K (%v) or no seed (%v)", Ks, seeds)
	}
	for _, k := range Ks {
		if k < 1 || k > H {
			return nil, fmt.Errorf("experiment: horizon sweep: K = %d outside 1..H = %d (every checkpoint is scored at H)", k, H)
		}
	}
	s := &HorizonSweep{Profile: profile, Testbed: testbed, H: H, Origins: origins, Ks: slices.Clone(Ks), Seeds: slices.Clone(seeds),
		Fits: map[string]map[uint64]eval.Fit{}, Pooled: map[string]eval.Fit{}}
	for _, m := range methods {
		for _, seed := range seeds {
			for _, k := range Ks {
				cfg, err := Resolve(profile, testbed, m, seed, k)
				if err != nil {
					return nil, err
				}
				score, err := EvaluateFixedHorizon(cfg, H, origins, opt)
				if err != nil {
					return nil, fmt.Errorf("experiment: horizon sweep: %s: %w", cfg.Name(), err)
				}
				if score == nil {
					s.Missing = append(s.Missing, cfg.Name())
					continue
				}
				s.Points = append(s.Points, HorizonPoint{Method: m, K: k, Seed: seed, RelL2: score.RelL2})
			}
		}
	}
	s.fit(methods)
	var err error
	s.Baselines, err = horizonBaselines(opt, profile, testbed, seeds, Ks[0], H, origins)
	return s, err
}

// horizonBaselines scores the baselines once per seed under the sweep's protocol: the runs' test
// context and origins, horizons 1..H. The protocol does not depend on K, so the first K's
// configuration serves. Nothing is cached: scoring takes seconds.
func horizonBaselines(opt Options, profile, testbed string, seeds []uint64, k, H, origins int) (map[string]float64, error) {
	out := map[string]float64{}
	for _, seed := range seeds {
		cfg, err := Resolve(profile, testbed, "full", seed, k)
		if err != nil {
			return nil, err
		}
		key, ds, err := loadBaselineKey(cfg, opt)
		if err != nil {
			return nil, err
		}
		key.H = H
		if origins > 0 {
			key.MaxOrigins = origins
		}
		set, err := scoreBaselines(key, ds, time.Now())
		if err != nil {
			return nil, fmt.Errorf("experiment: horizon sweep: %w", err)
		}
		for _, b := range set.Scores {
			out[b.Name] += b.Test.RelL2 / float64(len(seeds))
		}
	}
	return out, nil
}

// fit fills Fits and Pooled from Points.
func (s *HorizonSweep) fit(methods []string) {
	s.PooledSeeds = nil
	for _, seed := range s.Seeds {
		n := 0
		for _, p := range s.Points {
			if p.Seed == seed && slices.Contains(methods, p.Method) && slices.Contains(s.Ks, p.K) {
				n++
			}
		}
		if n == len(methods)*len(s.Ks) {
			s.PooledSeeds = append(s.PooledSeeds, seed)
		}
	}
	for _, m := range methods {
		var allK, allY []float64
		for _, seed := range s.Seeds {
			var ks, ys []float64
			for _, p := range s.Points {
				if p.Method == m && p.Seed == seed {
					ks, ys = append(ks, float64(p.K)), append(ys, p.RelL2)
				}
			}
			if slices.Contains(s.PooledSeeds, seed) {
				allK, allY = append(allK, ks...), append(allY, ys...)
			}
			if f, err := eval.FitHorizonCurve(ks, ys); err == nil {
				if s.Fits[m] == nil {
					s.Fits[m] = map[uint64]eval.Fit{}
				}
				s.Fits[m][seed] = f
			}
		}
		if f, err := eval.FitHorizonCurve(allK, allY); err == nil {
			s.Pooled[m] = f
		}
	}
}

// Markdown is the K* table: per seed and pooled, each method's fitted optimum K* and fitted
// minimum, and whether K*_DW >= K*_Full (the paper's claim, for every matched seed and pooled).
func (s *HorizonSweep) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, profile %s: checkpoints trained at each K, scored at H = %d (test rel-L2, h = 1..H)\n\n", s.Testbed, s.Profile, s.H)
	b.WriteString("| fit | K*_Full | fitted min Full | K*_DW | fitted min DW | K*_DW ≥ K*_Full | lower min for DW |\n|---|---|---|---|---|---|---|\n")
	row := func(name string, full, dw eval.Fit, okF, okD bool) {
		if !okF || !okD {
			fmt.Fprintf(&b, "| %s | – | – | – | – | – | – |\n", name)
			return
		}
		fmt.Fprintf(&b, "| %s | %.1f%s | %.4f | %.1f%s | %.4f | %v | %v |\n", name, full.KStar, vertexMark(full), full.YStar,
			dw.KStar, vertexMark(dw), dw.YStar, dw.KStar >= full.KStar, dw.YStar < full.YStar)
	}
	for _, seed := range s.Seeds {
		f, okF := s.Fits["full"][seed]
		d, okD := s.Fits["dw"][seed]
		row(fmt.Sprintf("seed %d", seed), f, d, okF, okD)
	}
	f, okF := s.Pooled["full"]
	d, okD := s.Pooled["dw"]
	pooled := "pooled"
	if len(s.PooledSeeds) < len(s.Seeds) {
		pooled = "pooled (complete seeds: none)"
		if len(s.PooledSeeds) > 0 {
			pooled = "pooled (complete seeds: " + seedList(s.PooledSeeds) + ")"
		}
	}
	row(pooled, f, d, okF, okD)
	b.WriteString("\n(e): K* at an end of the evaluated range (the fit is monotone there); otherwise the parabola's vertex.\n")
	b.WriteString(s.pointsMarkdown())
	b.WriteString(s.pairedMarkdown("dw", "full"))
	if len(s.Baselines) > 0 {
		var parts []string
		for _, name := range BaselineNames() {
			if v, ok := s.Baselines[name]; ok {
				parts = append(parts, fmt.Sprintf("%s %.4f", name, v))
			}
		}
		fmt.Fprintf(&b, "\nBaselines at the same H and origins (mean over the seeds): %s. A checkpoint above them has no skill at H.\n", strings.Join(parts, ", "))
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(&b, "\nNot scored, left out (unfinished, or finished without a checkpoint to score; dw ksweep -train trains them): %s\n", strings.Join(s.Missing, ", "))
	}
	return b.String()
}

// pointsMarkdown is every checkpoint's score: a row per method and seed, a column per K ("–": not
// finished).
func (s *HorizonSweep) pointsMarkdown() string {
	var methods []string
	for _, p := range s.Points {
		if !slices.Contains(methods, p.Method) {
			methods = append(methods, p.Method)
		}
	}
	score := s.scores()
	ks := s.pointKs()
	if len(ks) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nEvery checkpoint, test rel-L2 at h = 1..H:\n\n| method | seed |")
	for _, k := range ks {
		fmt.Fprintf(&b, " K = %d |", k)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(ks)) + "\n")
	for _, m := range methods {
		for _, seed := range s.Seeds {
			fmt.Fprintf(&b, "| %s | %d |", m, seed)
			for _, k := range ks {
				if v, ok := score[pointKey{m, seed, k}]; ok {
					fmt.Fprintf(&b, " %.4f |", v)
				} else {
					b.WriteString(" – |")
				}
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// PairedAtK is, per K, the matched-seed difference a − b (eval.Paired: mean and 95% paired
// Student-t interval) over the seeds with a point for both methods at that K; a K with fewer than
// two such seeds is absent. With a = "dw" and b = "full" it says at which training horizons DW
// helps: negative differences favour a.
func (s *HorizonSweep) PairedAtK(a, b string) map[int]eval.PairedDiff {
	score := s.scores()
	out := map[int]eval.PairedDiff{}
	for _, k := range s.Ks {
		var as, bs []float64
		for _, seed := range s.Seeds {
			va, okA := score[pointKey{a, seed, k}]
			vb, okB := score[pointKey{b, seed, k}]
			if okA && okB {
				as, bs = append(as, va), append(bs, vb)
			}
		}
		if d, err := eval.Paired(as, bs); err == nil {
			out[k] = d
		}
	}
	return out
}

// pairedMarkdown is PairedAtK(a, b) as one table row under the points ("–": fewer than two
// matched seeds), or nothing when no K has two.
func (s *HorizonSweep) pairedMarkdown(a, b string) string {
	d := s.PairedAtK(a, b)
	if len(d) == 0 {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "| %s − %s | mean [95%% paired] |", a, b)
	for _, k := range s.pointKs() { // the columns of pointsMarkdown
		if p, ok := d[k]; ok {
			fmt.Fprintf(&sb, " %+.4f [%+.4f, %+.4f] (%d seeds) |", p.Mean, p.Lo, p.Hi, p.N)
		} else {
			sb.WriteString(" – |")
		}
	}
	return sb.String() + "\n"
}

// pointKey names one checkpoint of the sweep.
type pointKey struct {
	method string
	seed   uint64
	k      int
}

// scores is every point's test rel-L2 by method, seed and K.
func (s *HorizonSweep) scores() map[pointKey]float64 {
	m := make(map[pointKey]float64, len(s.Points))
	for _, p := range s.Points {
		m[pointKey{p.Method, p.Seed, p.K}] = p.RelL2
	}
	return m
}

// pointKs is the sorted Ks that have a point.
func (s *HorizonSweep) pointKs() []int {
	var ks []int
	for _, p := range s.Points {
		if !slices.Contains(ks, p.K) {
			ks = append(ks, p.K)
		}
	}
	slices.Sort(ks)
	return ks
}

func vertexMark(f eval.Fit) string {
	if f.Vertex {
		return ""
	}
	return " (e)"
}

// seedList writes seeds as "0, 1".
func seedList(seeds []uint64) string {
	parts := make([]string, len(seeds))
	for i, s := range seeds {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, ", ")
}

// ScoreAfterRun is an Options.AfterRun for a horizon sweep's training: it scores each finished
// run's best checkpoint at H over origins (EvaluateFixedHorizon, cached in the run directory)
// while the checkpoint is surely there, then calls next (nil: nothing), e.g. ArchiveAfterRun to
// keep the score with the archived result. Scoring at the end of the sweep instead leaves
// nothing to archive from a sweep that is cut short.
func ScoreAfterRun(H, origins int, opt Options, next func(Outcome) error) func(Outcome) error {
	return func(o Outcome) error {
		if _, err := EvaluateFixedHorizon(o.Config, H, origins, opt); err != nil {
			return fmt.Errorf("scoring at H = %d: %w", H, err)
		}
		if next == nil {
			return nil
		}
		return next(o)
	}
}
