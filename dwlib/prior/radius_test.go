package prior

import (
	"math"
	"slices"
	"testing"
)

func TestRootRadiusKnownRoots(t *testing.T) {
	// z² - 1.5z + 0.5 = (z - 1)(z - 0.5): radius 1.
	// z² + 0.81 (phi = 0, -0.81): roots ±0.9i, radius 0.9.
	// z³ - 0.5z² (phi = 0.5, 0, 0): roots 0.5, 0, 0.
	for _, c := range []struct {
		phi  []float64
		want float64
	}{
		{nil, 0}, {[]float64{-0.7}, 0.7}, {[]float64{1.5, -0.5}, 1}, {[]float64{0, -0.81}, 0.9}, {[]float64{0.5, 0, 0}, 0.5},
	} {
		got, err := RootRadius(c.phi)
		if err != nil || math.Abs(got-c.want) > 1e-7 {
			t.Errorf("RootRadius(%v) = %v, %v; want %v", c.phi, got, err, c.want)
		}
	}
}

func TestCapRadiusHandWorked(t *testing.T) {
	// AR(1) phi = 2: kappa = 0.995/2 and the capped coefficient is 0.995.
	got, kappa, err := CapRadius([]float64{2}, 0.995)
	if err != nil || math.Abs(kappa-0.4975) > 1e-12 || math.Abs(got[0]-0.995) > 1e-12 {
		t.Fatalf("CapRadius([2]) = %v, kappa %v, %v; want [0.995], 0.4975", got, kappa, err)
	}
	// AR(2) with complex roots of modulus r = 1.1: kappa·phi keeps complex
	// roots of modulus r·sqrt(kappa), so kappa = (0.995/1.1)².
	r, th := 1.1, 0.7
	phi := []float64{2 * r * math.Cos(th), -r * r}
	_, kappa, err = CapRadius(phi, 0.995)
	if want := math.Pow(0.995/1.1, 2); err != nil || math.Abs(kappa-want) > 1e-12 {
		t.Fatalf("complex AR(2): kappa = %v, %v; want %v", kappa, err, want)
	}
}

// A hand-made explosive AR(2) (real roots 1.262 and 0.238) and AR(4): after
// the cap the radius is 0.995 to 1e-9, and kappa is the largest feasible one
// (a slightly larger kappa breaks the cap).
func TestCapRadiusExplosive(t *testing.T) {
	for _, phi := range [][]float64{{1.5, -0.3}, {0.9, 0.4, -0.2, 0.3}} {
		r0, _ := RootRadius(phi)
		if r0 <= 1 {
			t.Fatalf("test AR %v is not explosive (radius %v)", phi, r0)
		}
		capped, kappa, err := CapRadius(phi, 0.995)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := RootRadius(capped)
		if math.Abs(r-0.995) > 1e-9 {
			t.Errorf("phi %v: radius after cap = %.15f, want 0.995 to 1e-9", phi, r)
		}
		for i := range phi {
			if capped[i] != kappa*phi[i] {
				t.Errorf("phi %v: capped[%d] = %v, not kappa·phi = %v", phi, i, capped[i], kappa*phi[i])
			}
		}
		more := make([]float64, len(phi))
		for i := range phi {
			more[i] = (kappa + 1e-7) * phi[i]
		}
		if rm, _ := RootRadius(more); rm <= 0.995 {
			t.Errorf("phi %v: kappa %v is not the largest (kappa+1e-7 gives radius %v)", phi, kappa, rm)
		}
	}
}

func TestCapRadiusStableUnchanged(t *testing.T) {
	phi := []float64{0.5, 0.2, -0.1}
	got, kappa, err := CapRadius(phi, 0.995)
	if err != nil || kappa != 1 || !slices.Equal(got, phi) {
		t.Fatalf("stable AR changed: %v, kappa %v, %v", got, kappa, err)
	}
	if _, _, err := CapRadius(phi, 0); err == nil {
		t.Fatal("limit 0 accepted")
	}
}
