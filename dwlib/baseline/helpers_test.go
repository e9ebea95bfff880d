package baseline

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// scalar turns a 1-D sequence into [t][1] rows.
func scalar(xs ...float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		out[i] = []float64{x}
	}
	return out
}

// ar1 is the noiseless x_{t+1} = a x_t from x0 (any dimension), n steps.
func ar1(a float64, x0 []float64, n int) [][]float64 {
	out := make([][]float64, n)
	out[0] = append([]float64(nil), x0...)
	for t := 1; t < n; t++ {
		out[t] = make([]float64, len(x0))
		for j, v := range out[t-1] {
			out[t][j] = a * v
		}
	}
	return out
}

// sinusoid is m + amp·sin(ω t + p), which satisfies exactly the AR(2)
// x_{t+1} = 2cos(ω) x_t - x_{t-1} + 2m(1-cos ω).
func sinusoid(m, amp, omega, p float64, n int) [][]float64 {
	xs := make([]float64, n)
	for t := range xs {
		xs[t] = m + amp*math.Sin(omega*float64(t)+p)
	}
	return scalar(xs...)
}

// periodic repeats pattern cyclically from the given phase, n steps.
func periodic(pattern []float64, phase, n int) [][]float64 {
	xs := make([]float64, n)
	for t := range xs {
		xs[t] = pattern[(t+phase)%len(pattern)]
	}
	return scalar(xs...)
}

// drivenAR1 is x_{t+1} = a x_t + u_t with u_t iid N(0,1) from seed, so the
// drive of step t enters the next state (the package's drive convention).
func drivenAR1(a float64, n int, seed uint64) eval.Unit {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([][]float64, n)
	u := make([][]float64, n)
	x[0] = []float64{rng.NormFloat64()}
	for t := range n {
		u[t] = []float64{rng.NormFloat64()}
		if t+1 < n {
			x[t+1] = []float64{a*x[t][0] + u[t][0]}
		}
	}
	return eval.Unit{X: x, Drive: u}
}

func units(xs ...[][]float64) []eval.Unit {
	out := make([]eval.Unit, len(xs))
	for i, x := range xs {
		out[i] = eval.Unit{X: x}
	}
	return out
}

func checkClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s = %.17g, want %.17g (tol %g)", name, got, want, tol)
	}
}

func checkRows(t *testing.T, name string, got, want [][]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s has %d rows, want %d", name, len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s[%d] has dimension %d, want %d", name, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			checkClose(t, name, got[i][j], want[i][j], tol)
		}
	}
}

// checkErrContains requires err != nil and its text to contain every part.
func checkErrContains(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}
