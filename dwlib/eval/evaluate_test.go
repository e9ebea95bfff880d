package eval

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// persistence forecasts the last observed state for every step.
var persistence = ForecasterFunc(func(w Window, H int) ([][]float64, error) {
	last := w.History[len(w.History)-1]
	out := make([][]float64, H)
	for h := range out {
		out[h] = slices.Clone(last)
	}
	return out, nil
})

// ramp returns the scalar unit X[t] = t+1 for t = 0..n-1.
func ramp(n int) [][]float64 {
	x := make([][]float64, n)
	for t := range x {
		x[t] = []float64{float64(t + 1)}
	}
	return x
}

// persistenceUnits: unit 0 is the ramp 1..6, unit 1 the constant 2 of
// length 4. With history 2 and H 2, unit 0 has origins 2, 3, 4 and unit 1
// the single origin 2. Persistence predicts X[o-1] = o for the ramp, whose
// targets are o+1 and o+2, so the step errors are 1/(o+1) and 2/(o+2):
//
//	o=2: 1/3, 1/2   o=3: 1/4, 2/5   o=4: 1/5, 1/3
//
// Unit 0: h=1 mean 47/180, h=2 mean 37/90, score 121/360. Unit 1 is
// forecast exactly (score 0). RelL2 = 121/720, PerHorizon = [47/360, 37/180].
func persistenceUnits() []Unit {
	return []Unit{
		{X: ramp(6)},
		{X: [][]float64{{2}, {2}, {2}, {2}}},
	}
}

func TestEvaluatePersistence(t *testing.T) {
	r, err := Evaluate(persistence, persistenceUnits(), 2, 2, MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-15
	checkClose(t, "RelL2", r.RelL2, 121.0/720, tol)
	checkSliceClose(t, "PerHorizon", r.PerHorizon, []float64{47.0 / 360, 37.0 / 180}, tol)
	checkSliceClose(t, "PerUnit", r.PerUnit, []float64{121.0 / 360, 0}, tol)
	if !slices.Equal(r.NumOrigins, []int{3, 1}) {
		t.Errorf("NumOrigins = %v, want [3 1]", r.NumOrigins)
	}
	if len(r.Origins) != 2 || !slices.Equal(r.Origins[0], []int{2, 3, 4}) || !slices.Equal(r.Origins[1], []int{2}) {
		t.Errorf("Origins = %v, want [[2 3 4] [2]]", r.Origins)
	}
}

// TestEvaluateWindows checks what the forecaster is shown: the history and
// drive slices for each origin, with drive[t] = 100+t.
func TestEvaluateWindows(t *testing.T) {
	const n, history, H = 9, 3, 2
	drive := make([][]float64, n)
	for i := range drive {
		drive[i] = []float64{100 + float64(i)}
	}
	var seen []int
	f := ForecasterFunc(func(w Window, h int) ([][]float64, error) {
		if h != H || len(w.History) != history || len(w.HistoryDrive) != history || len(w.FutureDrive) != H {
			t.Fatalf("window shape: H=%d history=%d historyDrive=%d futureDrive=%d",
				h, len(w.History), len(w.HistoryDrive), len(w.FutureDrive))
		}
		o := int(w.History[history-1][0]) // ramp: X[o-1] = o
		seen = append(seen, o)
		for j := range history {
			if w.History[j][0] != float64(o-history+j+1) || w.HistoryDrive[j][0] != float64(100+o-history+j) {
				t.Errorf("origin %d: history row %d = %v / drive %v", o, j, w.History[j], w.HistoryDrive[j])
			}
		}
		for j := range H {
			if w.FutureDrive[j][0] != float64(100+o+j) {
				t.Errorf("origin %d: FutureDrive[%d] = %v, want %d", o, j, w.FutureDrive[j], 100+o+j)
			}
		}
		return [][]float64{{float64(o + 1)}, {float64(o + 2)}}, nil // perfect forecast
	})
	r, err := Evaluate(f, []Unit{{X: ramp(n), Drive: drive}}, history, H, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Valid origins [3, 7], 3 points: 3, 5, 7.
	if !slices.Equal(seen, []int{3, 5, 7}) {
		t.Errorf("forecaster saw origins %v, want [3 5 7]", seen)
	}
	if r.RelL2 != 0 {
		t.Errorf("perfect forecaster scored %v, want 0", r.RelL2)
	}
}

// batchPersistence implements both interfaces and records batch sizes;
// maxBatch > 0 also makes it a BatchSizer.
type batchPersistence struct {
	sizes    []int
	maxBatch int
}

func (b *batchPersistence) MaxBatch() int { return b.maxBatch }

func (b *batchPersistence) Forecast(w Window, H int) ([][]float64, error) {
	return nil, errors.New("Forecast must not be called when ForecastBatch exists")
}

func (b *batchPersistence) ForecastBatch(ws []Window, H int) ([][][]float64, error) {
	b.sizes = append(b.sizes, len(ws))
	out := make([][][]float64, len(ws))
	for i, w := range ws {
		out[i], _ = persistence(w, H)
	}
	return out, nil
}

func TestEvaluateUsesBatch(t *testing.T) {
	bf := &batchPersistence{}
	r, err := Evaluate(bf, persistenceUnits(), 2, 2, MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "RelL2", r.RelL2, 121.0/720, 1e-15)
	if !slices.Equal(bf.sizes, []int{3, 1}) {
		t.Errorf("batch sizes %v, want one call per unit [3 1]", bf.sizes)
	}
	r2, err := EvaluateBatch(&batchPersistence{}, persistenceUnits(), 2, 2, MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "EvaluateBatch RelL2", r2.RelL2, r.RelL2, 0)

	// MaxBatch 2 packs the four origins (three of unit 0, one of unit 1) into two full calls.
	chunked := &batchPersistence{maxBatch: 2}
	r3, err := Evaluate(chunked, persistenceUnits(), 2, 2, MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "chunked RelL2", r3.RelL2, r.RelL2, 0)
	if !slices.Equal(chunked.sizes, []int{2, 2}) {
		t.Errorf("chunked batch sizes %v, want [2 2]", chunked.sizes)
	}
}

// TestEvaluatePacksAcrossUnits: with a MaxBatch, calls are filled from consecutive units (every
// call full but the last), and the result is the same to the bit whatever the bound, as with
// one call per unit: units of 3, 1, 6 and 2 origins.
func TestEvaluatePacksAcrossUnits(t *testing.T) {
	units := []Unit{{X: ramp(6)}, {X: [][]float64{{2}, {2}, {2}, {2}}}, {X: ramp(9)}, {X: ramp(5)}}
	want, err := Evaluate(&batchPersistence{}, units, 2, 2, MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		max   int
		sizes []int
	}{
		{1, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{2, []int{2, 2, 2, 2, 2, 2}},
		{5, []int{5, 5, 2}},
		{11, []int{11, 1}},
		{64, []int{12}},
	} {
		b := &batchPersistence{maxBatch: tc.max}
		got, err := Evaluate(b, units, 2, 2, MaxOrigins)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b.sizes, tc.sizes) {
			t.Errorf("MaxBatch %d: call sizes %v, want %v", tc.max, b.sizes, tc.sizes)
		}
		if got.RelL2 != want.RelL2 || !slices.Equal(got.PerHorizon, want.PerHorizon) || !slices.Equal(got.PerUnit, want.PerUnit) ||
			!slices.Equal(got.NumOrigins, want.NumOrigins) {
			t.Errorf("MaxBatch %d: %+v, want %+v", tc.max, got, want)
		}
	}
}

// sizedFailing fails every call, with a bound.
type sizedFailing struct{ failingBatch }

func (sizedFailing) MaxBatch() int { return 2 }

// TestEvaluatePackedErrorsNameUnits: a failing packed call names each unit with its origins.
func TestEvaluatePackedErrorsNameUnits(t *testing.T) {
	boom := errors.New("boom")
	units := []Unit{{X: ramp(3)}, {X: ramp(4)}}
	_, err := EvaluateBatch(sizedFailing{failingBatch{boom}}, units, 2, 1, MaxOrigins)
	checkErrContains(t, err, "unit 0, origins [2]; unit 1, origins [2]", "boom")
	if !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap %v", err, boom)
	}
}

// shortBatch returns one forecast too few.
type shortBatch struct{}

func (shortBatch) ForecastBatch(ws []Window, H int) ([][][]float64, error) {
	return make([][][]float64, len(ws)-1), nil
}

// failingBatch always fails.
type failingBatch struct{ err error }

func (f failingBatch) ForecastBatch(ws []Window, H int) ([][][]float64, error) { return nil, f.err }

func TestEvaluateBatchErrors(t *testing.T) {
	_, err := EvaluateBatch(shortBatch{}, persistenceUnits(), 2, 2, MaxOrigins)
	checkErrContains(t, err, "unit 0", "returned 2 forecasts for 3 origins")
	boom := errors.New("boom")
	_, err = EvaluateBatch(failingBatch{boom}, persistenceUnits(), 2, 2, MaxOrigins)
	checkErrContains(t, err, "unit 0", "origins [2 3 4]", "boom")
	if !errors.Is(err, boom) {
		t.Errorf("error %v does not wrap %v", err, boom)
	}
	_, err = EvaluateBatch(nil, persistenceUnits(), 2, 2, MaxOrigins)
	checkErrContains(t, err, "nil BatchForecaster")
}

func TestEvaluateErrors(t *testing.T) {
	nanAt := func(origin, step int) Forecaster {
		return ForecasterFunc(func(w Window, H int) ([][]float64, error) {
			out, _ := persistence(w, H)
			if int(w.History[len(w.History)-1][0]) == origin {
				out[step-1][0] = math.NaN()
			}
			return out, nil
		})
	}
	boom := errors.New("boom")
	tests := []struct {
		name    string
		f       Forecaster
		units   []Unit
		history int
		H       int
		parts   []string
		wrapped error
	}{
		{"NaN prediction names unit, origin and step", nanAt(3, 2), []Unit{{X: ramp(6)}, {X: ramp(8)}}, 2, 2,
			[]string{"unit 0", "origin 3", "step h=2", "non-finite prediction"}, nil},
		{"forecaster error names origin", ForecasterFunc(func(w Window, H int) ([][]float64, error) {
			if w.History[len(w.History)-1][0] == 4 {
				return nil, boom
			}
			return persistence(w, H)
		}), []Unit{{X: ramp(6)}}, 2, 2, []string{"unit 0", "origin 4", "boom"}, boom},
		{"short forecast", ForecasterFunc(func(w Window, H int) ([][]float64, error) {
			return persistence(w, H-1)
		}), []Unit{{X: ramp(6)}}, 2, 2, []string{"unit 0", "origin 2", "1 steps", "want H=2"}, nil},
		{"unit too short", persistence, []Unit{{X: ramp(6)}, {X: ramp(3)}}, 2, 2,
			[]string{"unit 1", "unitLen=3", "history=2", "horizon=2"}, nil},
		{"drive length mismatch", persistence, []Unit{{X: ramp(6), Drive: ramp(5)}}, 2, 2,
			[]string{"unit 0", "Drive has 5 steps", "X has 6"}, nil},
		{"H zero", persistence, []Unit{{X: ramp(6)}}, 2, 0, []string{"H=0"}, nil},
		{"no units", persistence, nil, 2, 2, []string{"no units"}, nil},
		{"nil forecaster", nil, []Unit{{X: ramp(6)}}, 2, 2, []string{"nil Forecaster"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(tc.f, tc.units, tc.history, tc.H, MaxOrigins)
			checkErrContains(t, err, tc.parts...)
			if tc.wrapped != nil && !errors.Is(err, tc.wrapped) {
				t.Errorf("error %v does not wrap %v", err, tc.wrapped)
			}
		})
	}
}
