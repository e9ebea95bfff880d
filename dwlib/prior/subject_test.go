package prior

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var subjectPhi = []float64{0.8, 0.4, -0.5}

// plantedSubjects returns S subjects watching the same stimulus:
// x_{i,t,c} = M_{t,c} + offset_{i,c} + Δ_{i,t,c}, with a smooth shared
// response M, a static subject offset (removed by centring) and an AR(1)
// deviation Δ with coefficient phi[c] and unit innovations (sigma = 0 gives
// noise-free, zero deviations).
func plantedSubjects(seed uint64, S, T int, phi []float64, sigma float64) (subjects [][][]float64, M [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	D := len(phi)
	M = make([][]float64, T)
	for t := range T {
		M[t] = make([]float64, D)
		for c := range D {
			M[t][c] = 2 * math.Sin(2*math.Pi*float64(t)/50+float64(c))
		}
	}
	for range S {
		off := make([]float64, D)
		for c := range off {
			off[c] = 3 * rng.NormFloat64()
		}
		dev := make([]float64, D)
		for c := range D { // stationary start
			dev[c] = sigma * rng.NormFloat64() / math.Sqrt(1-phi[c]*phi[c])
		}
		x := make([][]float64, T)
		for t := range T {
			x[t] = make([]float64, D)
			for c := range D {
				if t > 0 {
					dev[c] = phi[c]*dev[c] + sigma*rng.NormFloat64()
				}
				x[t][c] = M[t][c] + off[c] + dev[c]
			}
		}
		subjects = append(subjects, x)
	}
	return subjects, M
}

// The per-parcel AR pooled over fit subjects recovers the planted AR(1)
// coefficients within 5 standard errors sqrt((1-phi²)/n) plus the O(1/T)
// bias of centring, and the shared response of the fit subjects recovers M
// (minus its time mean) with the error of a mean over the fit subjects'
// deviations, sd sqrt(1/((1-phi²)S_fit)).
func TestSubjectModelRecoversPlanted(t *testing.T) {
	const S, T = 30, 300
	subjects, M := plantedSubjects(1, S, T, subjectPhi, 1)
	centred := CenterSubjects(subjects)
	assign, err := SubjectFolds(S, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	var fit []int
	for s, a := range assign {
		if a != 0 {
			fit = append(fit, s)
		}
	}
	m, err := FitSubjectModel(centred, fit, 1, DefaultRidge, DefaultRadiusCap)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(fit) * (T - 1))
	for c, phi := range subjectPhi {
		tol := 5*math.Sqrt((1-phi*phi)/n) + 2.0/T
		if math.Abs(m.Phi[c][0]-phi) > tol {
			t.Errorf("parcel %d: phi = %v, want %v within %v", c, m.Phi[c][0], phi, tol)
		}
	}
	for c, phi := range subjectPhi {
		mean := 0.0
		for t := range T {
			mean += M[t][c]
		}
		mean /= T
		se := 0.0
		for t := range T {
			e := m.Shared[t][c] - (M[t][c] - mean)
			se += e * e
		}
		rms, want := math.Sqrt(se/T), math.Sqrt(1/((1-phi*phi)*float64(len(fit))))
		if rms > 2*want {
			t.Errorf("parcel %d: shared-response RMS error %v, want about %v (below %v)", c, rms, want, 2*want)
		}
	}
}

// Noise-free: subjects differ only by a static offset, so after centring
// the shared response of the fit subjects predicts a held-out subject
// exactly, and p = 0 (the shared response alone) leaves a zero bank.
func TestSubjectSharedResponseExact(t *testing.T) {
	subjects, _ := plantedSubjects(2, 10, 80, []float64{0.5, 0.5}, 0)
	cfg := SubjectConfig{K: 5, Folds: 5, Orders: []int{0}, Ridge: DefaultRidge, RadiusCap: DefaultRadiusCap, ScoreStride: 3, BankStride: 3, MaxBank: 40, Seed: 1}
	bank, sel, err := BuildSubjectBank(subjects, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Order != 0 || bank.Len() != 40 {
		t.Fatalf("order %d, bank %d", sel.Order, bank.Len())
	}
	for i := range bank.Len() {
		for _, v := range bank.Row(i) {
			if math.Abs(v) > 1e-12 {
				t.Fatalf("bank row %d has residual %v, want 0", i, v)
			}
		}
	}
}

// The whole sampler: AR deviations make some p >= 1 beat the shared response
// alone; every bank row is a held-out subject of its fold, forecast by the
// model of the other subjects, and the fit never reads a held-out subject.
func TestBuildSubjectBankPlanted(t *testing.T) {
	subjects, _ := plantedSubjects(3, 20, 120, subjectPhi, 1)
	cfg := DefaultSubjectConfig(6)
	cfg.Orders, cfg.MaxBank, cfg.Seed = []int{0, 1, 2}, 100, 5
	bank, sel, err := BuildSubjectBank(subjects, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Order == 0 || !(sel.Candidates[0].MSE > sel.Candidates[1].MSE) {
		t.Fatalf("p* = %d; candidates %+v: want AR deviations to beat the shared response", sel.Order, sel.Candidates)
	}
	if bank.Len() != 100 || bank.K() != 6 || bank.D() != 3 {
		t.Fatalf("bank %d×%d×%d", bank.Len(), bank.K(), bank.D())
	}
	centred := CenterSubjects(subjects)
	for i, fo := range sel.BankOrigins {
		if sel.Assignment[fo.Subject] != fo.Fold {
			t.Fatalf("bank row %d: subject %d is in fold %d, not %d", i, fo.Subject, sel.Assignment[fo.Subject], fo.Fold)
		}
		var fit []int
		poisoned := make([][][]float64, len(centred))
		for s := range centred {
			poisoned[s] = centred[s]
			if sel.Assignment[s] != fo.Fold {
				fit = append(fit, s)
			} else {
				poisoned[s] = nanLike(centred[s])
			}
		}
		m, err := FitSubjectModel(poisoned, fit, sel.Order, cfg.Ridge, cfg.RadiusCap)
		if err != nil {
			t.Fatalf("bank row %d: the fit read a held-out subject: %v", i, err)
		}
		pred, err := m.Forecast(centred[fo.Subject], fo.Origin, cfg.K)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(bank.Row(i), residual(centred[fo.Subject], fo.Origin, pred)) {
			t.Fatalf("bank row %d is not the residual of its fold's out-of-fold model", i)
		}
	}
}

func nanLike(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for t, r := range x {
		out[t] = make([]float64, len(r))
		for c := range r {
			out[t][c] = math.NaN()
		}
	}
	return out
}

// p = 2 deviations are forecast recursively: Δ̂_{o+k} from the observed
// deviations of rows o-2, o-1 and then from the forecasts (hand-worked).
func TestSubjectForecastRecursion(t *testing.T) {
	m := &SubjectModel{Shared: [][]float64{{0}, {1}, {0}, {10}, {20}, {30}}, Phi: [][]float64{{0.5, 0.25}}}
	x := [][]float64{{0}, {3}, {4}, {0}, {0}, {0}} // deviations at rows 1, 2: 2, 4
	got, err := m.Forecast(x, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Δ̂3 = 0.5·4 + 0.25·2 = 2.5; Δ̂4 = 0.5·2.5 + 0.25·4 = 2.25; Δ̂5 = 0.5·2.25 + 0.25·2.5 = 1.75.
	if want := []float64{12.5, 22.25, 31.75}; !slices.Equal(got, want) {
		t.Fatalf("forecast = %v, want %v", got, want)
	}
}

func TestSubjectErrors(t *testing.T) {
	subjects, _ := plantedSubjects(4, 6, 40, []float64{0.5}, 1)
	good := SubjectConfig{K: 4, Folds: 3, Orders: []int{0, 1}, Ridge: 1e-3, RadiusCap: 0.995, ScoreStride: 2, BankStride: 2, MaxBank: 10}
	if _, _, err := BuildSubjectBank(subjects, good); err != nil {
		t.Fatal(err)
	}
	short := append([][][]float64{subjects[0][:30]}, subjects[1:]...)
	if _, _, err := BuildSubjectBank(short, good); err == nil || !strings.Contains(err.Error(), "subject 1 has T=40") {
		t.Errorf("unaligned subjects: err = %v", err)
	}
	for name, mut := range map[string]func(*SubjectConfig){
		"SubjectConfig.K":      func(c *SubjectConfig) { c.K = 0 },
		"SubjectConfig.Orders": func(c *SubjectConfig) { c.Orders = []int{-1} },
		"6 subjects for 7":     func(c *SubjectConfig) { c.Folds = 7 },
		"no origin":            func(c *SubjectConfig) { c.K = 40 },
	} {
		c := good
		mut(&c)
		if _, _, err := BuildSubjectBank(subjects, c); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if a, err := SubjectFolds(7, 3, 1); err != nil || len(a) != 7 {
		t.Fatal(err)
	} else {
		count := map[int]int{}
		for _, f := range a {
			count[f]++
		}
		if count[0] < 2 || count[1] < 2 || count[2] < 2 {
			t.Fatalf("fold sizes %v, want 3/2/2", count)
		}
	}
}
