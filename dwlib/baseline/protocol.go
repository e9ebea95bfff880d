package baseline

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Protocol fixes how a split is turned into eq. (8) scores. It must match the
// trained model's evaluation for the numbers to be comparable: see
// dwlib/experiment (evaluateTest) and dwlib/train (Units).
type Protocol struct {
	// BurnIn leading steps of every unit are dropped before anything else,
	// as the models never use them (model.Config.BurnIn, 32).
	BurnIn int
	// History is the number of observed states before each origin: the
	// model's Window (16 today; the project may move to 32). It also caps
	// the ridge lag order W, since a forecaster sees only History rows.
	History int
	// H is the forecast horizon, eval.HEval(K) (48 for K = 32).
	H int
	// MaxOrigins caps the origins per unit (eval.MaxOrigins, 64). The
	// validation selection of the ridge uses the same cap.
	MaxOrigins int
}

// StandardProtocol is the protocol of the standard and paper profiles for
// training horizon K: burn-in 32, the given history window, H = eval.HEval(K)
// and eval.MaxOrigins origins per unit.
func StandardProtocol(K, history int) Protocol {
	return Protocol{BurnIn: 32, History: history, H: eval.HEval(K), MaxOrigins: eval.MaxOrigins}
}

// Validate reports the first invalid field, naming its value.
func (p Protocol) Validate() error {
	switch {
	case p.H < 1:
		return fmt.Errorf("baseline: H=%d must be >= 1", p.H)
	case p.History < 1:
		return fmt.Errorf("baseline: History=%d must be >= 1", p.History)
	case p.BurnIn < 0:
		return fmt.Errorf("baseline: BurnIn=%d must be >= 0", p.BurnIn)
	case p.MaxOrigins < 1:
		return fmt.Errorf("baseline: MaxOrigins=%d must be >= 1", p.MaxOrigins)
	}
	return nil
}

// Units converts one split to evaluation units the way dwlib/train does
// (first BurnIn steps dropped, drive kept aligned) and checks that every unit
// fits History+H steps, so a short unit is reported by split and index
// before any fitting. split names the split in errors ("train", "val",
// "test"). The units alias the series' rows.
func (p Protocol) Units(split string, series []data.Series) ([]eval.Unit, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("baseline: %s split has no units", split)
	}
	out := make([]eval.Unit, len(series))
	need := p.History + p.H
	for i, s := range series {
		n := len(s.X) - p.BurnIn
		if n < need {
			return nil, fmt.Errorf("baseline: %s unit %d has %d steps after burn-in %d, need history %d + H %d = %d",
				split, i, max(n, 0), p.BurnIn, p.History, p.H, need)
		}
		out[i] = eval.Unit{X: s.X[p.BurnIn:]}
		if s.Drive != nil {
			out[i].Drive = s.Drive[p.BurnIn:]
		}
	}
	return out, nil
}

// checkUnits validates units handed directly to a fitter: at least one, each
// with at least minLen rows of one common dimension and, if any unit has a
// drive, aligned drives in every unit. It returns the state and drive
// dimensions.
func checkUnits(who string, units []eval.Unit, minLen int) (D, J int, err error) {
	if len(units) == 0 {
		return 0, 0, fmt.Errorf("baseline: %s: no units", who)
	}
	for u, un := range units {
		if len(un.X) < minLen {
			return 0, 0, fmt.Errorf("baseline: %s: unit %d has %d steps, need at least %d", who, u, len(un.X), minLen)
		}
		if u == 0 {
			D = len(un.X[0])
			J = driveWidth(un)
		}
		if D == 0 {
			return 0, 0, fmt.Errorf("baseline: %s: unit %d has empty states", who, u)
		}
		for t, row := range un.X {
			if len(row) != D {
				return 0, 0, fmt.Errorf("baseline: %s: unit %d step %d has dimension %d, want %d", who, u, t, len(row), D)
			}
		}
		if (J > 0) != (driveWidth(un) > 0) {
			return 0, 0, fmt.Errorf("baseline: %s: unit %d drive presence differs from unit 0", who, u)
		}
		if J > 0 {
			if len(un.Drive) != len(un.X) {
				return 0, 0, fmt.Errorf("baseline: %s: unit %d has %d drive steps for %d states", who, u, len(un.Drive), len(un.X))
			}
			for t, row := range un.Drive {
				if len(row) != J {
					return 0, 0, fmt.Errorf("baseline: %s: unit %d drive step %d has dimension %d, want %d", who, u, t, len(row), J)
				}
			}
		}
	}
	return D, J, nil
}

// driveWidth is the drive dimension of a unit, 0 when it has none.
func driveWidth(u eval.Unit) int {
	if len(u.Drive) == 0 {
		return 0
	}
	return len(u.Drive[0])
}
