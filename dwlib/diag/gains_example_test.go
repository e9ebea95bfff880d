package diag_test

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// The gains of a DW epoch record are flat [K][L][2]; GainMaps turns each epoch into horizon ×
// layer matrices and SnapshotEpochs picks the epochs worth a heat map.
func ExampleGainMaps() {
	// K = 2 horizons, L = 2 layers; epoch 1 is still the fully open warm-up.
	eps := []train.EpochRecord{
		{Epoch: 1, Calibrations: 0, Gains: []float64{1, 1, 1, 1, 1, 1, 1, 1}},
		{Epoch: 2, Calibrations: 4, Gains: []float64{1, .9, 1, .7, .8, .4, .6, .2}},
		{Epoch: 3, Calibrations: 4, Gains: []float64{1, .8, .9, .6, .7, .3, .5, .1}},
	}
	maps, err := diag.GainMaps(eps, 2, 2)
	if err != nil {
		panic(err)
	}
	show, err := diag.SnapshotEpochs(eps)
	if err != nil {
		panic(err)
	}
	fmt.Println("epochs to show:", show)
	picked, err := diag.Pick(maps, show)
	if err != nil {
		panic(err)
	}
	for _, g := range picked {
		fmt.Printf("epoch %d: alpha %v, m %v, layer-mean m per horizon %.2f\n", g.Epoch, g.Alpha, g.M, g.M.LayerMeans())
	}
	// Output:
	// epochs to show: [2 3]
	// epoch 2: alpha [[1 1] [0.8 0.6]], m [[0.9 0.7] [0.4 0.2]], layer-mean m per horizon [0.80 0.30]
	// epoch 3: alpha [[1 0.9] [0.7 0.5]], m [[0.8 0.6] [0.3 0.1]], layer-mean m per horizon [0.70 0.20]
}

// CompareHorizons splits two per-horizon test curves at the training horizon K.
func ExampleCompareHorizons() {
	full := []float64{.1, .2, .4, .8, 1.0, 1.2} // h = 1..6, K = 4
	dw := []float64{.1, .2, .3, .6, 0.8, 1.0}
	rows, err := diag.CompareHorizons(full, dw, 4)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Printf("%-34s Full %.4f  DW %.4f  %+.1f%%\n", r.Range, r.Full, r.DW, r.Change)
	}
	// Output:
	// h = 1..4 (trained window, K = 4)   Full 0.3750  DW 0.3000  -20.0%
	// h = 5..6 (beyond K)                Full 1.1000  DW 0.9000  -18.2%
	// h = 1..6 (headline score)          Full 0.6167  DW 0.5000  -18.9%
}
