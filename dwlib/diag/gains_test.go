package diag_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestSplitGains checks the [K][L][2] layout on hand-numbered gains: entry 2(kL+l) is alpha and
// entry 2(kL+l)+1 is m of horizon k, layer l.
func TestSplitGains(t *testing.T) {
	for _, tc := range []struct {
		name     string
		flat     []float64
		K, L     int
		alpha, m [][]float64
		err      bool
	}{
		{name: "K=2 L=3", flat: []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, K: 2, L: 3,
			alpha: [][]float64{{0, 2, 4}, {6, 8, 10}}, m: [][]float64{{1, 3, 5}, {7, 9, 11}}},
		{name: "K=3 L=1", flat: []float64{.1, .2, .3, .4, .5, .6}, K: 3, L: 1,
			alpha: [][]float64{{.1}, {.3}, {.5}}, m: [][]float64{{.2}, {.4}, {.6}}},
		{name: "K=1 L=2", flat: []float64{1, 0, .5, .25}, K: 1, L: 2,
			alpha: [][]float64{{1, .5}}, m: [][]float64{{0, .25}}},
		{name: "too short", flat: []float64{1, 2, 3}, K: 1, L: 2, err: true},
		{name: "too long", flat: make([]float64, 10), K: 2, L: 2, err: true},
		{name: "K=0", flat: nil, K: 0, L: 2, err: true},
		{name: "L=0", flat: nil, K: 2, L: 0, err: true},
	} {
		a, m, err := diag.SplitGains(tc.flat, tc.K, tc.L)
		if tc.err {
			if err == nil {
				t.Errorf("%s: accepted", tc.name)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(a, tc.alpha) || !reflect.DeepEqual(m, tc.m) {
			t.Errorf("%s: alpha %v, m %v (err %v), want %v, %v", tc.name, a, m, err, tc.alpha, tc.m)
		}
	}
}

// TestHorizonLayerGrid checks the GridXYZ view (1-based horizon on x, layer on y) and LayerMeans.
func TestHorizonLayerGrid(t *testing.T) {
	g := diag.HorizonLayerGrid{{1, 0, .5}, {.2, .4, .6}} // K = 2, L = 3
	if c, r := g.Dims(); c != 2 || r != 3 {
		t.Errorf("Dims = %d, %d, want 2 horizons, 3 layers", c, r)
	}
	if g.X(0) != 1 || g.X(1) != 2 || g.Y(0) != 1 || g.Y(2) != 3 {
		t.Errorf("X(0), X(1), Y(0), Y(2) = %v %v %v %v, want 1 2 1 3", g.X(0), g.X(1), g.Y(0), g.Y(2))
	}
	if g.Z(1, 2) != .6 || g.Z(0, 1) != 0 {
		t.Errorf("Z(1,2) = %v, Z(0,1) = %v, want .6, 0", g.Z(1, 2), g.Z(0, 1))
	}
	if got, want := g.LayerMeans(), []float64{.5, .4}; !close(got[0], want[0], 1e-15) || !close(got[1], want[1], 1e-15) {
		t.Errorf("LayerMeans = %v, want %v", got, want)
	}
	if lo, hi := g.Range(); lo != 0 || hi != 1 {
		t.Errorf("Range = %v, %v, want 0, 1", lo, hi)
	}
	if lo, hi := (diag.HorizonLayerGrid{{math.NaN(), 2}, {-1, math.NaN()}}).Range(); lo != -1 || hi != 2 {
		t.Errorf("Range with NaNs = %v, %v, want -1, 2", lo, hi)
	}
}

// records builds DW epoch records with the given calibrations per epoch; epoch e has every alpha
// equal to 1 - e/10 and every m equal to 1 - e/5 (K = 2, L = 1).
func records(cals ...int) []train.EpochRecord {
	eps := make([]train.EpochRecord, len(cals))
	for i, c := range cals {
		e := float64(i + 1)
		eps[i] = train.EpochRecord{Epoch: i + 1, Calibrations: c, Gains: []float64{1 - e/10, 1 - e/5, 1 - e/10, 1 - e/5}}
	}
	return eps
}

// TestSnapshotEpochs checks the first calibrated, middle and last epochs on hand-worked schedules.
func TestSnapshotEpochs(t *testing.T) {
	for _, tc := range []struct {
		name string
		eps  []train.EpochRecord
		want []int
	}{
		{"standard: 10 epochs, calibrated from epoch 1", records(33, 35, 35, 35, 35, 35, 35, 35, 35, 35), []int{1, 5, 10}},
		{"quick: 2 epochs", records(1, 2), []int{1, 2}},
		{"one epoch", records(3), []int{1}},
		{"long warm-up: first calibration in epoch 3 of 6", records(0, 0, 1, 2, 2, 2), []int{3, 4, 6}},
		{"first calibration in epoch 2 of 3", records(0, 4, 4), []int{2, 3}},
		{"first calibration in the last epoch", records(0, 0, 0, 1), []int{4}},
		{"11 epochs from 1: middle is 6", records(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), []int{1, 6, 11}},
	} {
		got, err := diag.SnapshotEpochs(tc.eps)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v (err %v), want %v", tc.name, got, err, tc.want)
		}
	}
	for _, bad := range [][]train.EpochRecord{nil, records(0, 0), {{Epoch: 1}}} {
		if got, err := diag.SnapshotEpochs(bad); err == nil {
			t.Errorf("SnapshotEpochs(%d epochs without calibration) = %v, want an error", len(bad), got)
		}
	}
}

// TestGainMapsAndSummary follows three hand-made epochs through GainMaps, Pick and Summarize.
func TestGainMapsAndSummary(t *testing.T) {
	eps := []train.EpochRecord{
		{Epoch: 1, Calibrations: 0, Gains: []float64{1, 1, 1, 1, 1, 1, 1, 1}},
		// K = 2, L = 2: alpha = [[1 .5] [.8 .2]], m = [[.6 .4] [.1 .3]].
		{Epoch: 2, Calibrations: 3, Gains: []float64{1, .6, .5, .4, .8, .1, .2, .3}},
		{Epoch: 3, Calibrations: 2, Gains: []float64{0, 0, 0, 0, 0, 0, 0, 0}},
	}
	maps, err := diag.GainMaps(eps, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(maps) != 3 || maps[1].Epoch != 2 || maps[1].Calibrations != 3 || maps[2].Calibrations != 5 {
		t.Fatalf("maps: %+v", maps)
	}
	if want := (diag.HorizonLayerGrid{{1, .5}, {.8, .2}}); !reflect.DeepEqual(maps[1].Alpha, want) {
		t.Errorf("epoch 2 alpha = %v, want %v", maps[1].Alpha, want)
	}
	if want := (diag.HorizonLayerGrid{{.6, .4}, {.1, .3}}); !reflect.DeepEqual(maps[1].M, want) {
		t.Errorf("epoch 2 m = %v, want %v", maps[1].M, want)
	}
	picked, err := diag.Pick(maps, []int{3, 2})
	if err != nil || len(picked) != 2 || picked[0].Epoch != 3 || picked[1].Epoch != 2 {
		t.Errorf("Pick(3, 2) = %+v (err %v)", picked, err)
	}
	if _, err := diag.Pick(maps, []int{4}); err == nil {
		t.Error("Pick of a missing epoch accepted")
	}

	want := []diag.GainSummary{
		{Epoch: 1, Calibrations: 0, MeanAlpha: 1, MinAlpha: 1, MeanM: 1, MinM: 1, ClosestK: 1, ShareOne: 1}, // all tie: k = 1
		// alpha: mean (1+.5+.8+.2)/4 = .625, min .2; m: mean 1.4/4 = .35, min .1;
		// layer-mean m per horizon: (.5, .2), smallest at k = 2; one gain of eight is 1.
		{Epoch: 2, Calibrations: 3, MeanAlpha: .625, MinAlpha: .2, MeanM: .35, MinM: .1, ClosestK: 2, ShareOne: .125},
		{Epoch: 3, Calibrations: 5, MeanAlpha: 0, MinAlpha: 0, MeanM: 0, MinM: 0, ClosestK: 1, ShareZero: 1},
	}
	for i, s := range diag.Summarize(maps) {
		w := want[i]
		if s.Epoch != w.Epoch || s.Calibrations != w.Calibrations || s.ClosestK != w.ClosestK || s.ShareZero != w.ShareZero || s.ShareOne != w.ShareOne ||
			!close(s.MeanAlpha, w.MeanAlpha, 1e-15) || s.MinAlpha != w.MinAlpha || !close(s.MeanM, w.MeanM, 1e-15) || s.MinM != w.MinM {
			t.Errorf("summary %d = %+v, want %+v", i, s, w)
		}
	}

	for _, bad := range []struct {
		name string
		eps  []train.EpochRecord
	}{
		{"no epochs", nil},
		{"no gains (Full BPTT)", []train.EpochRecord{{Epoch: 1, Calibrations: 0}}},
		{"wrong size", []train.EpochRecord{{Epoch: 1, Gains: []float64{1, 1}}}},
	} {
		if _, err := diag.GainMaps(bad.eps, 2, 2); err == nil {
			t.Errorf("GainMaps(%s) accepted", bad.name)
		}
	}
}

// TestNoiseShare checks tr R / tr T per route on hand-made moments (K = 2, L = 2).
func TestNoiseShare(t *testing.T) {
	T := []wiener.Sym2{{II: 1, JJ: 1}, {II: 3, IJ: 9, JJ: 1}, {}, {II: 2, JJ: 2}}
	R := []wiener.Sym2{{II: .5}, {II: 1, IJ: -5, JJ: 1}, {II: 1}, {II: 4, JJ: 4}}
	g, err := diag.NoiseShare(T, R, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	// .5/2, 2/4 (the off-diagonal does not count), never probed, 8/4.
	if g[0][0] != .25 || g[0][1] != .5 || !math.IsNaN(g[1][0]) || g[1][1] != 2 {
		t.Errorf("NoiseShare = %v, want [[.25 .5] [NaN 2]]", g)
	}
	for _, bad := range [][2]int{{1, 2}, {2, 1}, {3, 1}, {0, 4}} {
		if _, err := diag.NoiseShare(T, R, bad[0], bad[1]); err == nil {
			t.Errorf("NoiseShare of 4 moments with K = %d, L = %d accepted", bad[0], bad[1])
		}
	}
	if g, err := diag.NoiseShare(T, R, 4, 1); err != nil || len(g) != 4 || g[3][0] != 2 {
		t.Errorf("NoiseShare(K = 4, L = 1) = %v (err %v), want 4 horizons ending in 2", g, err)
	}
	if _, err := diag.NoiseShare(T, R[:3], 2, 2); err == nil {
		t.Error("NoiseShare with 3 noise moments accepted")
	}
}

// TestCompareHorizons averages hand-made curves over the trained window, beyond it and overall.
func TestCompareHorizons(t *testing.T) {
	full := []float64{.1, .3, .5, .7, .9, 1.1} // H = 6
	dw := []float64{.1, .2, .4, .5, .9, .9}
	rows, err := diag.CompareHorizons(full, dw, 4)
	if err != nil {
		t.Fatal(err)
	}
	// 1..4: full .4, dw .3 (-25%); 5..6: full 1, dw .9 (-10%); 1..6: full 3.6/6 = .6, dw 3/6 = .5.
	want := []diag.HorizonRow{
		{Range: "h = 1..4 (trained window, K = 4)", Full: .4, DW: .3, Change: -25},
		{Range: "h = 5..6 (beyond K)", Full: 1, DW: .9, Change: -10},
		{Range: "h = 1..6 (headline score)", Full: .6, DW: .5, Change: -100.0 / 6},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, r := range rows {
		w := want[i]
		if r.Range != w.Range || !close(r.Full, w.Full, 1e-12) || !close(r.DW, w.DW, 1e-12) || !close(r.Change, w.Change, 1e-9) {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	// K = H: no "beyond" row; DW worse by 50%.
	rows, err = diag.CompareHorizons([]float64{1, 1}, []float64{1, 2}, 2)
	if err != nil || len(rows) != 2 || !close(rows[0].Change, 50, 1e-12) || rows[1].Range != "h = 1..2 (headline score)" {
		t.Errorf("K = H: %+v (err %v)", rows, err)
	}
	for _, bad := range []struct {
		full, dw []float64
		K        int
	}{
		{[]float64{1, 2}, []float64{1}, 1},
		{[]float64{1, 2}, []float64{1, 2}, 0},
		{[]float64{1, 2}, []float64{1, 2}, 3},
		{[]float64{0, 0}, []float64{1, 2}, 1},
	} {
		if _, err := diag.CompareHorizons(bad.full, bad.dw, bad.K); err == nil {
			t.Errorf("CompareHorizons(%v, %v, %d) accepted", bad.full, bad.dw, bad.K)
		}
	}
}

// TestGroupVariables splits hand-made variables by scope and counts values and bytes.
func TestGroupVariables(t *testing.T) {
	vars := []train.VariableInfo{
		{Scope: "/model/read_in", Name: "w", DType: "Float32", Dims: []int{3, 4}, Trainable: true}, // 12 values, 48 B
		{Scope: "/model", Name: "b", DType: "Float64", Dims: []int{5}, Trainable: true},            // 5 values, 40 B
		{Scope: "/AdamOptimizer/model/read_in", Name: "w_1st_moment", DType: "Float32", Dims: []int{3, 4}},
		{Scope: "/", Name: "global_step", DType: "Int64", Dims: nil}, // scalar: 1 value, 8 B
		{Scope: "/modelish", Name: "x", DType: "Float32", Dims: []int{2}},
	}
	got := diag.GroupVariables(vars)
	want := []diag.VariableGroup{
		{Group: "model parameters", Variables: 2, Values: 17, Bytes: 88, DTypes: "Float32, Float64"},
		{Group: "optimizer state", Variables: 3, Values: 15, Bytes: 64, DTypes: "Float32, Int64"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GroupVariables = %+v, want %+v", got, want)
	}
	if got := diag.GroupVariables(nil); len(got) != 2 || got[0].Variables != 0 || got[1].Values != 0 {
		t.Errorf("GroupVariables(nil) = %+v, want two empty groups", got)
	}
}

// controllerJSON returns a DW controller state (K=2, L=1, generic sampler) after 5 minibatches
// with warm-up 2 and period 2: calibrations at b = 2 and 4.
func controllerJSON(t *testing.T) []byte {
	t.Helper()
	smp, err := noise.New("generic")
	if err != nil {
		t.Fatal(err)
	}
	c, err := calib.New(calib.Config{K: 2, L: 1, Warmup: 2, Period: 2, RouteEMA: 0.95}, smp)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if c.IsCalibration() {
			tot := []wiener.Sym2{{II: 2, JJ: 2}, {II: 2, JJ: 2}}
			nz := []wiener.Sym2{{II: 1, JJ: 1}, {II: 1, JJ: 1}}
			if err := c.Stage(tot, nz, []bool{true, true}); err != nil {
				t.Fatal(err)
			}
		}
		c.Commit()
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckpointSummary checks the rows of a hand-made session checkpoint of a DW run, a
// parameters-only checkpoint and a Full BPTT session side by side.
func TestCheckpointSummary(t *testing.T) {
	fp := json.RawMessage(`{"fit":{"epochs":10,"patience":20},"meta":{"profile":"standard","seed":0,"testbed":"mackey-glass"},` +
		`"model":{"Hidden":24,"Kind":"mamba","Layers":4,"StateDim":8},"train":{"K":32,"batch_size":32,"lr":0.002,"method":"dw"}}`)
	vars := []train.VariableInfo{
		{Scope: "/model/block0", Name: "w", DType: "Float32", Dims: []int{2, 2}},
		{Scope: "/AdamOptimizer/model/block0", Name: "w_1st_moment", DType: "Float32", Dims: []int{2, 2}},
		{Scope: "/AdamOptimizer", Name: "global_step", DType: "Int64"},
	}
	ctrl := controllerJSON(t)
	dw := &train.CheckpointInfo{Kind: "session", Bytes: 1234, Fingerprint: fp, Epoch: 3, History: make([]train.EpochRecord, 3),
		BestEpoch: 2, BestVal: 0.25, SinceBest: 1, Variables: vars, BestStored: true, HasRNG: true, Controller: ctrl}
	rows, err := diag.CheckpointSummary(dw)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		got[r.Piece] = r.Value
	}
	for piece, want := range map[string]string{
		"kind, file size":                          "session checkpoint, 1234 bytes",
		"completed epochs (per-epoch records)":     "3 (3 records)",
		"best epoch / best validation loss":        "2 / 0.25",
		"epochs since best (patience counter)":     "1",
		"best (minimum-validation) parameters":     "present",
		"RNG states (window sampling, probe/JReg)": "present",
		"DW minibatch counter / calibrations":      "5 / 2",
		"DW gain-history entries / noise sampler":  "1 / generic", // both calibrations solve to (.5, .5): one change
		"model parameters":                         "1 variables, 4 values, 16 bytes (Float32)",
		"optimizer state":                          "2 variables, 5 values, 24 bytes (Float32, Int64)",
		"fingerprint: meta.testbed":                `"mackey-glass"`,
		"fingerprint: train.method":                `"dw"`,
		"fingerprint: train.K":                     "32",
		"fingerprint: model.Layers":                "4",
		"fingerprint: fit.epochs":                  "10",
	} {
		if got[piece] != want {
			t.Errorf("%q = %q, want %q", piece, got[piece], want)
		}
	}
	if v := got["DW controller state"]; !strings.HasPrefix(v, fmt.Sprintf("%d bytes of JSON", len(ctrl))) || !strings.Contains(v, "K=2 × L=1") {
		t.Errorf("controller row %q, want %d bytes and K=2 × L=1", v, len(ctrl))
	}
	if len(rows) != 11+len(diag.FingerprintFields) {
		t.Errorf("%d rows, want %d", len(rows), 11+len(diag.FingerprintFields))
	}

	best := &train.CheckpointInfo{Kind: "model", Bytes: 99, Fingerprint: fp, Epoch: 2, History: make([]train.EpochRecord, 2),
		BestEpoch: 2, BestVal: 0.25, Variables: vars[:1]}
	fullFP := json.RawMessage(`{"train":{"method":"full","K":32}}`)
	full := &train.CheckpointInfo{Kind: "session", Bytes: 50, Fingerprint: fullFP, Epoch: 1, History: make([]train.EpochRecord, 1),
		BestEpoch: 1, BestVal: 0.5, Variables: vars, BestStored: true, HasRNG: true}
	header, table, err := diag.CheckpointTable([]string{"dw last", "dw best", "full last"}, []*train.CheckpointInfo{dw, best, full})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(header, []string{"stored piece", "dw last", "dw best", "full last"}) {
		t.Errorf("header %v", header)
	}
	byPiece := map[string][]string{}
	for _, r := range table {
		byPiece[r[0]] = r[1:]
	}
	for piece, want := range map[string][]string{
		"RNG states (window sampling, probe/JReg)": {"present", "absent", "present"},
		"DW controller state":                      {got["DW controller state"], "absent (parameters-only checkpoint)", "absent (not an Internal-DW run)"},
		"DW minibatch counter / calibrations":      {"5 / 2", "-", "-"},
		"optimizer state":                          {"2 variables, 5 values, 24 bytes (Float32, Int64)", "0 variables, 0 values, 0 bytes ()", "2 variables, 5 values, 24 bytes (Float32, Int64)"},
		"fingerprint: train.method":                {`"dw"`, `"dw"`, `"full"`},
		"fingerprint: meta.testbed":                {`"mackey-glass"`, `"mackey-glass"`, "-"},
	} {
		if !reflect.DeepEqual(byPiece[piece], want) {
			t.Errorf("%q: %q, want %q", piece, byPiece[piece], want)
		}
	}
	if table[0][0] != "kind, file size" || len(table) != len(rows) {
		t.Errorf("table has %d rows starting with %q, want %d starting with the kind", len(table), table[0][0], len(rows))
	}

	if _, _, err := diag.CheckpointTable([]string{"a"}, nil); err == nil {
		t.Error("CheckpointTable with mismatched names accepted")
	}
	broken := *dw
	broken.Controller = json.RawMessage(`{"version":1}`)
	if _, err := diag.CheckpointSummary(&broken); err == nil {
		t.Error("invalid controller state accepted")
	}
	broken = *dw
	broken.Fingerprint = json.RawMessage(`{`)
	if _, err := diag.CheckpointSummary(&broken); err == nil {
		t.Error("invalid fingerprint accepted")
	}
}
