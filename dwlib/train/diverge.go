package train

import (
	"errors"
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// ErrDiverged is returned (wrapped, as a *DivergedError) when training stops producing finite
// numbers.
var ErrDiverged = errors.New("training diverged")

// DivergedError names a divergence: the first non-finite training loss, gradient norm, DW probe
// moment, validation forecast or validation loss, where it appeared, and the learning rate to lower. Every method checks
// the same quantities, and the loss is checked before anything consumes it, so a diverging
// Internal-DW run reports its loss rather than the calibration controller's refusal of the NaN
// moments it was handed. A session is not usable after one: resume from the last checkpoint.
type DivergedError struct {
	Epoch    int     // 1-based epoch it appeared in (0: unknown, a Trainer used without a Session)
	Quantity string  // "loss", "gradient norm", "calibration moment", "validation forecast" or "validation loss"
	Value    float64 // the non-finite value
	Where    string  // e.g. "minibatch 3", "tot[k=0][l=1].II"
	LR       float64 // the run's learning rate
}

func (e *DivergedError) Error() string {
	at := ""
	if e.Epoch > 0 {
		at = fmt.Sprintf(" at epoch %d", e.Epoch)
	}
	where := ""
	if e.Where != "" {
		where = " in " + e.Where
	}
	return fmt.Sprintf("train: diverged%s (%s = %v%s); try a smaller learning rate than lr = %g", at, e.Quantity, e.Value, where, e.LR)
}

func (e *DivergedError) Unwrap() error { return ErrDiverged }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkMoments returns a *DivergedError for the first non-finite probe moment of a calibration
// microbatch (tot and noise are [K][L] flat), nil if all are finite.
func checkMoments(L int, lr float64, tot, noise []wiener.Sym2) error {
	for _, m := range []struct {
		name string
		s    []wiener.Sym2
	}{{"tot", tot}, {"noise", noise}} {
		for i, s := range m.s {
			for _, f := range []struct {
				name string
				v    float64
			}{{"II", s.II}, {"IJ", s.IJ}, {"JJ", s.JJ}} {
				if !finite(f.v) {
					return &DivergedError{Quantity: "calibration moment", Value: f.v, LR: lr,
						Where: fmt.Sprintf("%s[k=%d][l=%d].%s", m.name, i/L, i%L, f.name)}
				}
			}
		}
	}
	return nil
}

// atEpoch sets the epoch of a *DivergedError in err and returns it unwrapped (its message says
// all); any other error is returned as it is.
func atEpoch(err error, epoch int) error {
	var de *DivergedError
	if errors.As(err, &de) {
		de.Epoch = epoch
		return de
	}
	return err
}
