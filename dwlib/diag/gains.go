package diag

// Helpers of notebooks/03-mackey-glass.ipynb: the Internal-DW gains a run commits over (horizon k,
// layer l) during training, the per-horizon test curves of two runs, and what a checkpoint stores.
// They read the records of dwlib/train and dwlib/experiment and compute nothing that training
// uses.

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// SplitGains turns gains laid out flat as [K][L][2] (train.EpochRecord.Gains, calib's
// Controller.Gains: alpha of horizon k, layer l at 2*(k*L+l), m at 2*(k*L+l)+1, all 0-based) into
// two K×L matrices, alpha[k][l] and m[k][l]. It fails unless len(flat) = 2·K·L with K, L ≥ 1.
func SplitGains(flat []float64, K, L int) (alpha, m [][]float64, err error) {
	if K < 1 || L < 1 {
		return nil, nil, fmt.Errorf("diag.SplitGains: K = %d, L = %d, want both >= 1", K, L)
	}
	if len(flat) != 2*K*L {
		return nil, nil, fmt.Errorf("diag.SplitGains: %d gains, want 2·K·L = 2·%d·%d = %d", len(flat), K, L, 2*K*L)
	}
	alpha, m = make([][]float64, K), make([][]float64, K)
	for k := range K {
		alpha[k], m[k] = make([]float64, L), make([]float64, L)
		for l := range L {
			i := 2 * (k*L + l)
			alpha[k][l], m[k][l] = flat[i], flat[i+1]
		}
	}
	return alpha, m, nil
}

// GainMap is the committed Internal-DW gains at the end of one epoch as horizon × layer matrices:
// Alpha[k][l] weights the identity route and M[k][l] the nonlinear route of rollout step k+1 and
// residual layer l+1 (paper, Eq. dual-route-jacobian). Calibrations counts the calibration
// minibatches of all epochs up to and including this one.
type GainMap struct {
	Epoch        int
	Calibrations int
	Alpha, M     HorizonLayerGrid
}

// HorizonLayerGrid is a K×L matrix indexed [k][l] (0-based). It implements gonum/plot's
// plotter.GridXYZ for plotter.NewHeatMap, with the 1-based horizon k+1 on the x axis and the
// 1-based layer l+1 on the y axis, so each cell is centred on integer coordinates.
type HorizonLayerGrid [][]float64

// Dims returns the number of columns (horizons) and rows (layers).
func (g HorizonLayerGrid) Dims() (c, r int) { return len(g), len(g[0]) }

// X returns the 1-based horizon of column c.
func (g HorizonLayerGrid) X(c int) float64 { return float64(c + 1) }

// Y returns the 1-based layer of row r.
func (g HorizonLayerGrid) Y(r int) float64 { return float64(r + 1) }

// Z returns the value of horizon c+1, layer r+1.
func (g HorizonLayerGrid) Z(c, r int) float64 { return g[c][r] }

// Range returns the smallest and largest value of g (NaN values ignored; ±Inf for an all-NaN g).
func (g HorizonLayerGrid) Range() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range g {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return lo, hi
}

// LayerMeans returns the mean over layers of each horizon: out[k] = mean_l g[k][l].
func (g HorizonLayerGrid) LayerMeans() []float64 {
	out := make([]float64, len(g))
	for k, row := range g {
		s := 0.0
		for _, v := range row {
			s += v
		}
		out[k] = s / float64(len(row))
	}
	return out
}

// cumulativeCalibrations returns, per record, the calibration minibatches up to and including it.
func cumulativeCalibrations(eps []train.EpochRecord) []int {
	out := make([]int, len(eps))
	n := 0
	for i, e := range eps {
		n += e.Calibrations
		out[i] = n
	}
	return out
}

// GainMaps returns the gain maps of every epoch of a DW run (train.EpochRecord.Gains at the end of
// each epoch), in order. K is the training horizon and L the number of routed residual layers. It
// fails when a record has no gains (not a DW run) or gains of the wrong size.
func GainMaps(eps []train.EpochRecord, K, L int) ([]GainMap, error) {
	if len(eps) == 0 {
		return nil, fmt.Errorf("diag.GainMaps: no epochs")
	}
	cum := cumulativeCalibrations(eps)
	out := make([]GainMap, len(eps))
	for i, e := range eps {
		if e.Gains == nil {
			return nil, fmt.Errorf("diag.GainMaps: epoch %d has no gains (only Internal-DW runs record them)", e.Epoch)
		}
		a, m, err := SplitGains(e.Gains, K, L)
		if err != nil {
			return nil, fmt.Errorf("diag.GainMaps: epoch %d: %w", e.Epoch, err)
		}
		out[i] = GainMap{Epoch: e.Epoch, Calibrations: cum[i], Alpha: a, M: m}
	}
	return out, nil
}

// SnapshotEpochs chooses the epochs whose gain maps a notebook shows: the first epoch that ends
// with calibrated gains (the first whose cumulative Calibrations count is positive; before it the
// gains are the fully open warm-up gains (1, 1)), the last epoch, and the epoch halfway between
// them (the lower of two middle epochs). The result is ascending and without repeats, so it has
// one to three entries; it fails when no epoch ran a calibration.
func SnapshotEpochs(eps []train.EpochRecord) ([]int, error) {
	cum := cumulativeCalibrations(eps)
	first := -1
	for i, c := range cum {
		if c > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, fmt.Errorf("diag.SnapshotEpochs: no calibration in %d epochs (warm-up longer than the run, or not a DW run)", len(eps))
	}
	last := len(eps) - 1
	out := []int{eps[first].Epoch}
	for _, i := range []int{(first + last) / 2, last} {
		if e := eps[i].Epoch; e != out[len(out)-1] {
			out = append(out, e)
		}
	}
	return out, nil
}

// Pick returns the maps of the given epochs, in the order given; it fails on an epoch not in maps.
func Pick(maps []GainMap, epochs []int) ([]GainMap, error) {
	out := make([]GainMap, 0, len(epochs))
	for _, e := range epochs {
		found := false
		for _, g := range maps {
			if g.Epoch == e {
				out, found = append(out, g), true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("diag.Pick: no gain map for epoch %d", e)
		}
	}
	return out, nil
}

// GainSummary condenses one epoch's gain map into a table row: the mean and the smallest gain of
// each route over all (k, l), the horizon k (1-based) with the smallest layer-mean m, and the
// shares of all 2·K·L gains that sit on the box's bounds, exactly 0 (route closed) or exactly 1
// (route fully open, as in BPTT).
type GainSummary struct {
	Epoch        int     `table:"epoch"`
	Calibrations int     `table:"calibrations so far"`
	MeanAlpha    float64 `table:"mean alpha,%.3f"`
	MinAlpha     float64 `table:"min alpha,%.3f"`
	MeanM        float64 `table:"mean m,%.3f"`
	MinM         float64 `table:"min m,%.3f"`
	ClosestK     int     `table:"horizon of smallest layer-mean m"`
	ShareZero    float64 `table:"share of gains = 0,%.2f"`
	ShareOne     float64 `table:"share of gains = 1,%.2f"`
}

// Summarize returns the GainSummary of every map. Ties for ClosestK go to the smaller horizon.
func Summarize(maps []GainMap) []GainSummary {
	out := make([]GainSummary, len(maps))
	for i, g := range maps {
		s := GainSummary{Epoch: g.Epoch, Calibrations: g.Calibrations, MinAlpha: math.Inf(1), MinM: math.Inf(1)}
		n := 0
		for k := range g.Alpha {
			for l := range g.Alpha[k] {
				s.MeanAlpha += g.Alpha[k][l]
				s.MeanM += g.M[k][l]
				s.MinAlpha = math.Min(s.MinAlpha, g.Alpha[k][l])
				s.MinM = math.Min(s.MinM, g.M[k][l])
				for _, v := range []float64{g.Alpha[k][l], g.M[k][l]} {
					switch v {
					case 0:
						s.ShareZero++
					case 1:
						s.ShareOne++
					}
				}
				n++
			}
		}
		s.MeanAlpha /= float64(n)
		s.MeanM /= float64(n)
		s.ShareZero /= float64(2 * n)
		s.ShareOne /= float64(2 * n)
		best := math.Inf(1)
		for k, v := range g.M.LayerMeans() {
			if v < best {
				best, s.ClosestK = v, k+1
			}
		}
		out[i] = s
	}
	return out
}

// NoiseShare returns, per route pair (k, l), the share of the total route moment that the noise
// probe accounts for, tr R̂ / tr T̂, from the controller's committed moments laid out [K][L] flat
// (experiment.Result.RouteT and RouteR). For a single route the Wiener gain is 1 - R/T clipped to
// [0, 1] (paper, Section 3.2: P/(P+R) with P = T - R), so a share of 1 or more means P̂ = 0 and
// closed routes. The share is NaN where tr T̂ = 0 (never probed). It fails unless both slices
// have K·L entries.
func NoiseShare(T, R []wiener.Sym2, K, L int) (HorizonLayerGrid, error) {
	if K < 1 || L < 1 || len(T) != K*L || len(R) != K*L {
		return nil, fmt.Errorf("diag.NoiseShare: %d and %d moments for K = %d, L = %d, want K·L = %d of each", len(T), len(R), K, L, K*L)
	}
	g := make(HorizonLayerGrid, K)
	for k := range K {
		g[k] = make([]float64, L)
		for l := range L {
			i := k*L + l
			if t := T[i].Trace(); t > 0 {
				g[k][l] = R[i].Trace() / t
			} else {
				g[k][l] = math.NaN()
			}
		}
	}
	return g, nil
}

// HorizonRow compares two runs' test rel-L2 (eq. dense-multistart-rel-l2) averaged over a range
// of horizons: Change is DW/Full - 1 (negative: DW is better).
type HorizonRow struct {
	Range  string  `table:"horizons"`
	Full   float64 `table:"Full BPTT,%.4f"`
	DW     float64 `table:"Internal-DW,%.4f"`
	Change float64 `table:"DW vs Full,%+.1f%%"`
}

// CompareHorizons averages two per-horizon test curves (h = 1..H, index h-1, as in
// experiment.TestScore.PerHorizon) over the trained window h = 1..K, beyond it h = K+1..H, and
// over all of 1..H (the paper's headline score, which is the mean of the per-horizon curve). The
// "beyond" row is left out when K = H. Change is reported in percent. It fails unless both curves
// have the same length H ≥ K ≥ 1 and Full's averages are positive.
func CompareHorizons(full, dw []float64, K int) ([]HorizonRow, error) {
	H := len(full)
	if len(dw) != H || K < 1 || K > H {
		return nil, fmt.Errorf("diag.CompareHorizons: curves of %d and %d horizons, K = %d: want equal lengths H >= K >= 1", len(full), len(dw), K)
	}
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	type span struct {
		name   string
		lo, hi int // 0-based, [lo, hi)
	}
	ranges := []span{{fmt.Sprintf("h = 1..%d (trained window, K = %d)", K, K), 0, K}}
	if K < H {
		ranges = append(ranges, span{fmt.Sprintf("h = %d..%d (beyond K)", K+1, H), K, H})
	}
	ranges = append(ranges, span{fmt.Sprintf("h = 1..%d (headline score)", H), 0, H})
	out := make([]HorizonRow, 0, len(ranges))
	for _, r := range ranges {
		f, d := mean(full[r.lo:r.hi]), mean(dw[r.lo:r.hi])
		if !(f > 0) {
			return nil, fmt.Errorf("diag.CompareHorizons: Full's mean over %s is %v, want > 0", r.name, f)
		}
		out = append(out, HorizonRow{Range: r.name, Full: f, DW: d, Change: 100 * (d/f - 1)})
	}
	return out, nil
}

// VariableGroup summarises the stored variables of one group: how many, how many values in all,
// and their size in bytes (4 per float32, 8 per float64 or int64 value).
type VariableGroup struct {
	Group     string `table:"group"`
	Variables int    `table:"variables"`
	Values    int    `table:"values"`
	Bytes     int    `table:"bytes"`
	DTypes    string `table:"dtypes"`
}

// dtypeBytes is the stored size of one value of a checkpoint dtype (0 if unknown).
func dtypeBytes(dt string) int {
	switch strings.ToLower(dt) {
	case "float32", "int32":
		return 4
	case "float64", "int64":
		return 8
	}
	return 0
}

// GroupVariables splits stored variables into the model parameters (scope train.ModelScope) and the
// optimizer state (everything else), in that order; both groups are always present.
func GroupVariables(vars []train.VariableInfo) []VariableGroup {
	groups := []VariableGroup{{Group: "model parameters"}, {Group: "optimizer state"}}
	dts := []map[string]bool{{}, {}}
	for _, v := range vars {
		i := 1
		if v.Scope == train.ModelScope || strings.HasPrefix(v.Scope, train.ModelScope+"/") {
			i = 0
		}
		n := 1
		for _, d := range v.Dims {
			n *= d
		}
		g := &groups[i]
		g.Variables++
		g.Values += n
		g.Bytes += n * dtypeBytes(v.DType)
		dts[i][v.DType] = true
	}
	for i := range groups {
		var names []string
		for d := range dts[i] {
			names = append(names, d)
		}
		sort.Strings(names)
		groups[i].DTypes = strings.Join(names, ", ")
	}
	return groups
}

// CheckpointRow is one stored piece of a checkpoint and its value, a row of a two-column table.
type CheckpointRow struct {
	Piece string `table:"stored piece"`
	Value string `table:"value"`
}

// FingerprintFields are the run-identity fields CheckpointSummary shows, as dotted paths into the
// checkpoint's fingerprint JSON ({"meta": the run's experiment.RunConfig, "model", "train",
// "fit"}). A checkpoint resumes only into a run whose whole fingerprint is identical.
var FingerprintFields = []string{
	"meta.profile", "meta.testbed", "meta.seed",
	"train.method", "train.K", "train.lr", "train.batch_size",
	"model.Kind", "model.Hidden", "model.Layers", "model.StateDim",
	"fit.epochs", "fit.patience",
}

// lookupJSON follows a dotted path through nested JSON objects.
func lookupJSON(v any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[key]; !ok {
			return nil, false
		}
	}
	return v, true
}

// CheckpointSummary lists what a checkpoint stores (see train.Inspect): its kind and size, the
// epoch counters and best validation loss, whether the generator states and the best parameters
// are there, the Internal-DW controller state (decoded, so its minibatch counter, calibration
// count, gain history and sampler are reported), the model and optimizer variables, and the
// fingerprint fields of FingerprintFields that are present. It fails on a controller state or
// fingerprint that does not decode.
func CheckpointSummary(info *train.CheckpointInfo) ([]CheckpointRow, error) {
	yes := func(b bool) string {
		if b {
			return "present"
		}
		return "absent"
	}
	rows := []CheckpointRow{
		{"kind, file size", fmt.Sprintf("%s checkpoint, %d bytes", info.Kind, info.Bytes)},
		{"completed epochs (per-epoch records)", fmt.Sprintf("%d (%d records)", info.Epoch, len(info.History))},
		{"best epoch / best validation loss", fmt.Sprintf("%d / %.6g", info.BestEpoch, info.BestVal)},
		{"epochs since best (patience counter)", fmt.Sprint(info.SinceBest)},
		{"best (minimum-validation) parameters", yes(info.BestStored)},
		{"RNG states (window sampling, probe/JReg)", yes(info.HasRNG)},
	}
	switch {
	case len(info.Controller) == 0 && info.Kind == "model":
		rows = append(rows, CheckpointRow{"DW controller state", "absent (parameters-only checkpoint)"})
	case len(info.Controller) == 0:
		rows = append(rows, CheckpointRow{"DW controller state", "absent (not an Internal-DW run)"})
	default:
		var c calib.Controller
		if err := json.Unmarshal(info.Controller, &c); err != nil {
			return nil, fmt.Errorf("diag.CheckpointSummary: controller state: %w", err)
		}
		smp := "none"
		if c.Sampler() != nil {
			smp = c.Sampler().Name()
		}
		cc := c.Config()
		rows = append(rows,
			CheckpointRow{"DW controller state", fmt.Sprintf("%d bytes of JSON: gains, moments T, R, P and probe counts of K=%d × L=%d routes", len(info.Controller), cc.K, cc.L)},
			CheckpointRow{"DW minibatch counter / calibrations", fmt.Sprintf("%d / %d", c.Minibatch(), c.Calibrations())},
			CheckpointRow{"DW gain-history entries / noise sampler", fmt.Sprintf("%d / %s", len(c.History()), smp)})
	}
	for _, g := range GroupVariables(info.Variables) {
		rows = append(rows, CheckpointRow{g.Group, fmt.Sprintf("%d variables, %d values, %d bytes (%s)", g.Variables, g.Values, g.Bytes, g.DTypes)})
	}
	var fp any
	if err := json.Unmarshal(info.Fingerprint, &fp); err != nil {
		return nil, fmt.Errorf("diag.CheckpointSummary: fingerprint: %w", err)
	}
	for _, path := range FingerprintFields {
		if v, ok := lookupJSON(fp, path); ok {
			b, _ := json.Marshal(v)
			rows = append(rows, CheckpointRow{"fingerprint: " + path, string(b)})
		}
	}
	return rows, nil
}

// CheckpointTable puts the CheckpointSummary of several checkpoints side by side: one column per
// checkpoint, headed by its name, and one row per stored piece in order of first appearance; a
// piece a checkpoint lacks is "-". It fails when names and infos differ in length or a summary
// fails.
func CheckpointTable(names []string, infos []*train.CheckpointInfo) (header []string, rows [][]string, err error) {
	if len(names) != len(infos) || len(infos) == 0 {
		return nil, nil, fmt.Errorf("diag.CheckpointTable: %d names for %d checkpoints, want as many names as checkpoints, at least one", len(names), len(infos))
	}
	header = append([]string{"stored piece"}, names...)
	index := map[string]int{}
	for j, info := range infos {
		sum, err := CheckpointSummary(info)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", names[j], err)
		}
		for _, r := range sum {
			i, ok := index[r.Piece]
			if !ok {
				i = len(rows)
				index[r.Piece] = i
				row := make([]string, 1+len(infos))
				row[0] = r.Piece
				for c := 1; c < len(row); c++ {
					row[c] = "-"
				}
				rows = append(rows, row)
			}
			rows[i][1+j] = r.Value
		}
	}
	return header, rows, nil
}
