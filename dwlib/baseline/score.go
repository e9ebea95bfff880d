package baseline

import (
	"errors"
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Baseline names, as reported in Result.Name.
const (
	NameZero   = "zero"
	NameDamped = "damped-persistence"
	NameRidge  = "ridge-ar"
)

// Result is one baseline's score on a dataset.
type Result struct {
	Name string
	// Phi is the fitted damping factor (damped persistence only).
	Phi float64
	// W and Lambda are the validation-selected lag order and ridge
	// strength, Drive whether drive features were used (ridge only; for
	// the Fourier AR, W is its order P and Lambda its relative ridge).
	W      int
	Lambda float64
	Drive  bool
	// Forecaster is the fitted baseline, usable with eval.Evaluate.
	Forecaster eval.Forecaster
	// Val and Test are eq. (8) on the validation and test units.
	Val, Test eval.Result
	// Candidates is the ridge's validation grid (ridge only).
	Candidates []Candidate
}

// Params describes the fitted hyper-parameters in one line.
func (r Result) Params() string {
	switch r.Name {
	case NameDamped:
		return fmt.Sprintf("phi=%.6f", r.Phi)
	case NameRidge:
		return fmt.Sprintf("W=%d lambda=%.0e drive=%v", r.W, r.Lambda, r.Drive)
	case NameFourierAR:
		return fmt.Sprintf("P=%d lambda=%.0e", r.W, r.Lambda)
	}
	return "-"
}

// Score fits and scores the three baselines on ds under protocol p: Zero,
// Damped (φ fitted on the training units by FitDamped) and Ridge (fitted on
// the training units, W and λ selected on the validation units by
// SelectRidge over grid g; the zero Grid is the default one). Every split
// goes through p.Units (burn-in dropped, lengths checked) and every score is
// eval.Evaluate(f, units, p.History, p.H, p.MaxOrigins), the call that
// scores the trained models, so Test.RelL2 is directly comparable with a
// run's test rel-L2 under the same protocol.
//
// A field dataset (data.FieldShape) is refused: its full-state ridge AR would solve systems of
// thousands of coordinates per lag; ScoreField scores the field baselines.
func Score(ds *data.Dataset, p Protocol, g Grid) ([]Result, error) {
	if ds == nil {
		return nil, errors.New("baseline: Score: nil dataset")
	}
	if f, ok := data.FieldShape(ds); ok {
		return nil, fmt.Errorf("baseline: %s is a %d x %d x %d field (%d coordinates): the full-state ridge AR is not attempted there; use ScoreField (zero, damped persistence, Fourier AR)",
			ds.Name, f.Channels, f.Height, f.Width, f.Dim())
	}
	train, val, test, err := p.splitUnits(ds)
	if err != nil {
		return nil, err
	}
	evaluate := p.evaluator(ds.Name, val, test)
	zero, damped, err := zeroAndDamped(ds.Name, p, train, evaluate)
	if err != nil {
		return nil, err
	}

	sel, err := SelectRidge(train, val, p.History, p.H, p.MaxOrigins, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	ridge := Result{Name: NameRidge, W: sel.Model.W, Lambda: sel.Model.Lambda, Drive: sel.Model.J > 0,
		Forecaster: sel.Model, Val: sel.Val, Candidates: sel.Candidates}
	if ridge.Test, err = eval.Evaluate(sel.Model, test, p.History, p.H, p.MaxOrigins); err != nil {
		return nil, fmt.Errorf("baseline: %s: %s test: %w", ds.Name, ridge.Name, err)
	}
	return []Result{zero, damped, ridge}, nil
}

// ScoreField is Score for a field dataset (data.FieldShape): Zero, Damped and the Fourier AR
// (FourierAR: per channel and mode, fitted on the training units, order and λ selected on the
// validation units over grid g).
func ScoreField(ds *data.Dataset, p Protocol, g FourierGrid) ([]Result, error) {
	if ds == nil {
		return nil, errors.New("baseline: ScoreField: nil dataset")
	}
	f, ok := data.FieldShape(ds)
	if !ok {
		return nil, fmt.Errorf("baseline: ScoreField: %s is not a field dataset (no spatial layout); use Score", ds.Name)
	}
	train, val, test, err := p.splitUnits(ds)
	if err != nil {
		return nil, err
	}
	evaluate := p.evaluator(ds.Name, val, test)
	zero, damped, err := zeroAndDamped(ds.Name, p, train, evaluate)
	if err != nil {
		return nil, err
	}
	sel, err := SelectFourierAR(train, val, f, p.History, p.H, p.MaxOrigins, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	far := Result{Name: NameFourierAR, W: sel.Model.P, Lambda: sel.Model.Lambda, Forecaster: sel.Model, Val: sel.Val}
	if far.Test, err = eval.Evaluate(sel.Model, test, p.History, p.H, p.MaxOrigins); err != nil {
		return nil, fmt.Errorf("baseline: %s: %s test: %w", ds.Name, far.Name, err)
	}
	return []Result{zero, damped, far}, nil
}

// splitUnits is the three splits of ds as evaluation units under p.
func (p Protocol) splitUnits(ds *data.Dataset) (train, val, test []eval.Unit, err error) {
	if train, err = p.Units("train", ds.Train); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	if val, err = p.Units("val", ds.Val); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	if test, err = p.Units("test", ds.Test); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	return train, val, test, nil
}

// evaluator scores a result's forecaster on the validation and test units.
func (p Protocol) evaluator(name string, val, test []eval.Unit) func(r *Result) error {
	return func(r *Result) error {
		var err error
		if r.Val, err = eval.Evaluate(r.Forecaster, val, p.History, p.H, p.MaxOrigins); err != nil {
			return fmt.Errorf("baseline: %s: %s validation: %w", name, r.Name, err)
		}
		if r.Test, err = eval.Evaluate(r.Forecaster, test, p.History, p.H, p.MaxOrigins); err != nil {
			return fmt.Errorf("baseline: %s: %s test: %w", name, r.Name, err)
		}
		return nil
	}
}

// zeroAndDamped scores Zero and Damped (φ fitted on the training units).
func zeroAndDamped(name string, p Protocol, train []eval.Unit, evaluate func(*Result) error) (Result, Result, error) {
	zero := Result{Name: NameZero, Forecaster: Zero{}}
	if err := evaluate(&zero); err != nil {
		return Result{}, Result{}, err
	}
	d, err := FitDamped(train, p.History, p.H)
	if err != nil {
		return Result{}, Result{}, fmt.Errorf("%s: %w", name, err)
	}
	damped := Result{Name: NameDamped, Phi: d.Phi, Forecaster: d}
	if err := evaluate(&damped); err != nil {
		return Result{}, Result{}, err
	}
	return zero, damped, nil
}
