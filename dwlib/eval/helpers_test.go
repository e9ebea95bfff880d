package eval

import (
	"math"
	"strings"
	"testing"
)

// approx reports whether got and want agree to an absolute-or-relative tol.
func approx(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || (math.IsNaN(got) && math.IsNaN(want))
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func checkClose(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !approx(got, want, tol) {
		t.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

func checkSliceClose(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s has length %d, want %d (%v vs %v)", name, len(got), len(want), got, want)
	}
	for i := range want {
		if !approx(got[i], want[i], tol) {
			t.Errorf("%s[%d] = %.17g, want %.17g", name, i, got[i], want[i])
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
