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
	// strength, Drive whether drive features were used (ridge only).
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
func Score(ds *data.Dataset, p Protocol, g Grid) ([]Result, error) {
	if ds == nil {
		return nil, errors.New("baseline: Score: nil dataset")
	}
	train, err := p.Units("train", ds.Train)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	val, err := p.Units("val", ds.Val)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	test, err := p.Units("test", ds.Test)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	evaluate := func(r *Result) error {
		if r.Val, err = eval.Evaluate(r.Forecaster, val, p.History, p.H, p.MaxOrigins); err != nil {
			return fmt.Errorf("baseline: %s: %s validation: %w", ds.Name, r.Name, err)
		}
		if r.Test, err = eval.Evaluate(r.Forecaster, test, p.History, p.H, p.MaxOrigins); err != nil {
			return fmt.Errorf("baseline: %s: %s test: %w", ds.Name, r.Name, err)
		}
		return nil
	}

	zero := Result{Name: NameZero, Forecaster: Zero{}}
	if err := evaluate(&zero); err != nil {
		return nil, err
	}

	d, err := FitDamped(train, p.History, p.H)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	damped := Result{Name: NameDamped, Phi: d.Phi, Forecaster: d}
	if err := evaluate(&damped); err != nil {
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
