package regime

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/progress"
)

// Result is one testbed's probe run.
type Result struct {
	Name   string
	Config Config // completed with defaults
	// HasDrive reports whether the testbed has an observed drive (Ψ_D = 0 exactly without one).
	HasDrive bool
	// Window is the selected history width; Selection the validation table it came from.
	Window    int
	Selection []WindowScore
	// Linear is the ridge probe, Nonlinear the kNN probe.
	Linear, Nonlinear Scores
	// PCAVariances are the leading variances of the standardised training states.
	PCAVariances []float64
	// Units and examples used: fitting (train, or train plus the selection half of validation),
	// width selection, and scored.
	FitUnits, SelectUnits, ScoreUnits          int
	FitExamples, SelectExamples, ScoreExamples int
	// Seconds is the wall time of Run.
	Seconds float64
}

// Random streams of a run, one per purpose.
const (
	streamTrainUnits uint64 = iota + 1
	streamValUnits
	streamTestUnits
	streamPCAFrames
	streamFitOrigins
	streamSelectOrigins
	streamScoreOrigins
	streamRefitOrigins
	streamNull
)

func stream(seed, purpose uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15*purpose))
}

// Run measures the predictive regime of ds (its Train, Val and Test units; the dataset's own
// standardisation is irrelevant, the probes standardise again) under c:
//
//  1. at most MaxTrainUnits / MaxValUnits / MaxTestUnits units per split (random subsets);
//  2. the states standardised per coordinate with training statistics (SDFloor), and their PCA
//     (PCADim components) fitted on at most PCAFrames training frames;
//  3. examples (origins) drawn in each split; W chosen on validation ([selectWindow]);
//  4. both probes, with D and D+H features, and NullRepeats nulls, refitted on train plus
//     validation (or its first half, ScoreValidation) and scored once on the scored units;
//  5. Ψ_D, Ψ_H, Ψ_H^null and ΔΨ_H per horizon and averaged over k >= LongMin.
//
// rep (may be nil) receives one step per horizon.
func Run(ds *data.Dataset, c Config, rep progress.Reporter) (*Result, error) {
	start := time.Now()
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	rep = progress.OrNop(rep)
	train := pickUnits(ds.Train, c.MaxTrainUnits, stream(c.Seed, streamTrainUnits))
	val := pickUnits(ds.Val, c.MaxValUnits, stream(c.Seed, streamValUnits))
	test := pickUnits(ds.Test, c.MaxTestUnits, stream(c.Seed, streamTestUnits))
	if len(train) == 0 || len(val) == 0 {
		return nil, errors.New("regime: need training and validation units")
	}
	var frames [][]float64
	for _, u := range train {
		frames = append(frames, u.X...)
	}
	scaler := FitScaler(frames)
	frames = scaler.Apply(frames)
	if c.PCAFrames > 0 && len(frames) > c.PCAFrames {
		pick := stream(c.Seed, streamPCAFrames).Perm(len(frames))[:c.PCAFrames]
		slices.Sort(pick)
		sub := make([][]float64, len(pick))
		for i, j := range pick {
			sub[i] = frames[j]
		}
		frames = sub
	}
	pca, err := FitPCA(frames, c.PCADim)
	if err != nil {
		return nil, err
	}
	prep := func(units []data.Series) []series {
		out := make([]series, len(units))
		for i, u := range units {
			x := scaler.Apply(u.X)
			out[i] = series{x: x, z: pca.Project(x), drive: u.Drive}
		}
		return out
	}
	tr, sel, score := prep(train), prep(val), prep(test)
	if c.Score == ScoreValidation {
		if len(val) < 2 {
			return nil, fmt.Errorf("regime: scoring on validation needs at least 2 validation units, have %d", len(val))
		}
		half := len(sel) / 2
		sel, score = sel[:half], sel[half:]
	}
	if len(score) == 0 {
		return nil, errors.New("regime: no units to score")
	}
	lengths := func(us []series) []int {
		out := make([]int, len(us))
		for i, u := range us {
			out[i] = len(u.x)
		}
		return out
	}
	origins := func(us []series, limit int, purpose uint64) []Origin {
		return Origins(lengths(us), c.maxW(), c.maxH(), c.DriveShift, limit, stream(c.Seed, purpose))
	}
	oFit := origins(tr, c.FitExamples, streamFitOrigins)
	oSel := origins(sel, c.ValExamples, streamSelectOrigins)
	oScore := origins(score, c.TestExamples, streamScoreOrigins)
	if len(oFit) == 0 || len(oSel) == 0 || len(oScore) == 0 {
		return nil, fmt.Errorf("regime: units too short for history %d and horizon %d", c.maxW(), c.maxH())
	}
	rep.Start(len(c.Horizons)+1, "regime probes: "+ds.Name)
	defer rep.Finish()
	W, table, err := selectWindow(tr, sel, oFit, oSel, c)
	if err != nil {
		return nil, err
	}
	rep.Step(1, fmt.Sprintf("W = %d", W))

	// Refit on train plus the selection units, with examples drawn afresh from all of them.
	fit := append(slices.Clone(tr), sel...)
	oRefit := origins(fit, c.FitExamples, streamRefitOrigins)
	hFit := historyFeatures(scoresOf(fit), oRefit, W)
	hScore := historyFeatures(scoresOf(score), oScore, W)
	minShift := c.NullMinShift
	if minShift == 0 {
		minShift = c.maxW() + c.maxH()
	}
	nullRNG := stream(c.Seed, streamNull)
	nulls := make([][][]float64, c.NullRepeats)
	for r := range nulls {
		if nulls[r], err = nullHistory(c.Null, scoresOf(fit), oRefit, W, hFit, minShift, nullRNG); err != nil {
			return nil, err
		}
	}

	res := &Result{Name: ds.Name, Config: c, HasDrive: ds.DriveDim > 0, Window: W, Selection: table,
		PCAVariances: pca.Variances, FitUnits: len(fit), SelectUnits: len(sel), ScoreUnits: len(score),
		FitExamples: len(oRefit), SelectExamples: len(oSel), ScoreExamples: len(oScore)}
	nU := len(score)
	var mean, linD, linDH, linN, nlD, nlDH, nlN [][]float64
	for _, k := range c.Horizons {
		dFit, dScore := driveFeatures(fit, oRefit, k, c.DriveShift), driveFeatures(score, oScore, k, c.DriveShift)
		yFit, yScore := targets(fit, oRefit, k), targets(score, oScore, k)
		risk := func(pred [][]float64) []float64 { return unitRisk(pred, yScore, oScore, nU) }
		both := func(xFit, xScore [][]float64) (lin, nl []float64, err error) {
			r, err := FitRidge(xFit, yFit, c.Ridge)
			if err != nil {
				return nil, nil, err
			}
			kn, err := FitKNN(xFit, yFit, c.Neighbors)
			if err != nil {
				return nil, nil, err
			}
			return risk(r.Predict(xScore)), risk(kn.Predict(xScore)), nil
		}
		mu := columnMeans(yFit)
		meanPred := make([][]float64, len(yScore))
		for i := range meanPred {
			meanPred[i] = mu
		}
		mean = append(mean, risk(meanPred))
		l, n, err := both(dFit, dScore)
		if err != nil {
			return nil, err
		}
		linD, nlD = append(linD, l), append(nlD, n)
		dhScore := concat(dScore, hScore)
		if l, n, err = both(concat(dFit, hFit), dhScore); err != nil {
			return nil, err
		}
		linDH, nlDH = append(linDH, l), append(nlDH, n)
		var ln, nn [][]float64
		for _, h := range nulls {
			if l, n, err = both(concat(dFit, h), dhScore); err != nil {
				return nil, err
			}
			ln, nn = append(ln, l), append(nn, n)
		}
		linN, nlN = append(linN, medianRisk(ln)), append(nlN, medianRisk(nn))
		rep.Step(1, fmt.Sprintf("k = %d", k))
	}
	if res.Linear, err = finish(c.Horizons, c.LongMin, mean, linD, linDH, linN); err != nil {
		return nil, err
	}
	if res.Nonlinear, err = finish(c.Horizons, c.LongMin, mean, nlD, nlDH, nlN); err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// pickUnits keeps at most limit units, a random subset in their original order (all when
// limit < 0 or there are no more than limit).
func pickUnits(units []data.Series, limit int, rng *rand.Rand) []data.Series {
	if limit < 0 || len(units) <= limit {
		return units
	}
	pick := rng.Perm(len(units))[:limit]
	slices.Sort(pick)
	out := make([]data.Series, len(pick))
	for i, j := range pick {
		out[i] = units[j]
	}
	return out
}
