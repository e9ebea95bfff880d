package baseline

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Bad input gives errors that name the offending value.
func TestErrors(t *testing.T) {
	ok := units(scalar(1, 2, 3, 4, 5, 6, 7, 8))
	short := units(scalar(1, 2, 3, 4, 5, 6, 7, 8), scalar(1, 2, 3, 4, 5))
	p := Protocol{BurnIn: 2, History: 3, H: 4, MaxOrigins: 8}
	series := []data.Series{{X: scalar(1, 2, 3, 4, 5, 6, 7, 8, 9)}, {X: scalar(1, 2, 3, 4, 5, 6, 7, 8)}}
	tests := []struct {
		name string
		run  func() error
		want []string
	}{
		{"FitDamped H=0", func() error { _, err := FitDamped(ok, 1, 0); return err }, []string{"H=0"}},
		{"FitDamped history=0", func() error { _, err := FitDamped(ok, 0, 2); return err }, []string{"history=0"}},
		{"FitDamped no units", func() error { _, err := FitDamped(nil, 1, 2); return err }, []string{"no units"}},
		{"FitDamped short unit", func() error { _, err := FitDamped(short, 3, 4); return err },
			[]string{"unit 1 has 5 steps", "at least 7"}},
		{"FitDamped zero states", func() error { _, err := FitDamped(units(scalar(0, 0, 0)), 1, 1); return err },
			[]string{"zero"}},
		{"FitRidge W=0", func() error { _, err := FitRidge(ok, RidgeSpec{W: 0}); return err }, []string{"W=0"}},
		{"FitRidge lambda<0", func() error { _, err := FitRidge(ok, RidgeSpec{W: 1, Lambda: -1}); return err },
			[]string{"lambda=-1"}},
		{"FitRidge no units", func() error { _, err := FitRidge(nil, RidgeSpec{W: 1}); return err }, []string{"no units"}},
		{"FitRidge short unit", func() error { _, err := FitRidge(short, RidgeSpec{W: 5}); return err },
			[]string{"unit 1 has 5 steps", "at least 6"}},
		{"FitRidge mixed dims", func() error {
			_, err := FitRidge([]eval.Unit{{X: [][]float64{{1, 2}, {3, 4}, {5}}}}, RidgeSpec{W: 1})
			return err
		}, []string{"step 2 has dimension 1, want 2"}},
		{"SelectRidge H=0", func() error { _, err := SelectRidge(ok, ok, 2, 0, 4, Grid{}); return err }, []string{"H=0"}},
		{"SelectRidge no val", func() error { _, err := SelectRidge(ok, nil, 2, 2, 4, Grid{}); return err },
			[]string{"no validation units"}},
		{"SelectRidge W too long", func() error {
			_, err := SelectRidge(ok, ok, 2, 2, 4, Grid{Windows: []int{4, 8}})
			return err
		}, []string{"[4 8]", "history=2"}},
		{"SelectRidge bad lambda", func() error {
			_, err := SelectRidge(ok, ok, 2, 2, 4, Grid{Lambdas: []float64{1, -2}})
			return err
		}, []string{"lambda=-2"}},
		{"Protocol H=0", func() error { q := p; q.H = 0; _, err := q.Units("test", series); return err }, []string{"H=0"}},
		{"Protocol BurnIn<0", func() error { q := p; q.BurnIn = -1; return q.Validate() }, []string{"BurnIn=-1"}},
		{"Protocol no units", func() error { _, err := p.Units("val", nil); return err }, []string{"val split has no units"}},
		{"Protocol short unit", func() error { _, err := p.Units("test", series); return err },
			[]string{"test unit 1 has 6 steps after burn-in 2", "history 3 + H 4 = 7"}},
		{"Score nil", func() error { _, err := Score(nil, p, Grid{}); return err }, []string{"nil dataset"}},
		{"Zero H=0", func() error { _, err := Zero{}.Forecast(eval.Window{History: scalar(1)}, 0); return err }, []string{"H=0"}},
		{"Damped H=-1", func() error { _, err := Damped{Phi: .5}.Forecast(eval.Window{History: scalar(1)}, -1); return err },
			[]string{"H=-1"}},
		{"Ridge short history", func() error {
			r := &Ridge{W: 4, D: 1, coef: make([]float64, 5)}
			_, err := r.Forecast(eval.Window{History: scalar(1, 2)}, 3)
			return err
		}, []string{"2 history rows", "W=4"}},
		{"Ridge missing drive", func() error {
			r := &Ridge{W: 1, D: 1, J: 1, coef: make([]float64, 3)}
			_, err := r.Forecast(eval.Window{History: scalar(1, 2)}, 3)
			return err
		}, []string{"1-dimensional drive", "H-1=2"}},
		{"Ridge not fitted", func() error { _, err := (&Ridge{W: 1, D: 1}).Forecast(eval.Window{History: scalar(1)}, 1); return err },
			[]string{"not fitted"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkErrContains(t, tc.run(), tc.want...)
		})
	}
}
