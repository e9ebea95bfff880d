package data_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// Load a testbed by name. Quick profiles shrink the trajectories; NoCache
// keeps everything in memory.
func ExampleLoad() {
	d, err := data.Load("narma5", data.Options{Seed: 0, NumTraj: 40, Length: 256, NoCache: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Name, len(d.Train), len(d.Val), len(d.Test))
	fmt.Println("state dim", d.StateDim, "drive dim", d.DriveDim, "steps", d.Train[0].Len())
	fmt.Println("raw NARMA inputs:", d.Norm.Drive.IsIdentity())
	// Output:
	// narma5 28 6 6
	// state dim 8 drive dim 8 steps 256
	// raw NARMA inputs: true
}

// Unknown names report the valid ones.
func ExampleNames() {
	fmt.Println(data.Names())
	_, err := data.Load("mg", data.Options{})
	fmt.Println(err)
	// Output:
	// [known-snr mackey-glass driven-mg narma5 ettm1 ettm2 ieeg-synth fmri-synth shear]
	// data: unknown dataset "mg" (or manifest:PATH for a JSON manifest of real data); valid names: known-snr, mackey-glass, driven-mg, narma5, ettm1, ettm2, ieeg-synth, fmri-synth, shear
}

// The known-SNR oracle: the conditional mean A^k x and B resampled futures
// from the same state. Both are in raw simulator coordinates; pass them
// through Dataset.Norm.State.Apply before comparing with model outputs.
func ExampleConditionalMean() {
	x := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	fmt.Printf("%.4f\n", data.ConditionalMean(x, 2))
	futures := data.Continuations(x, 64, 32, 1) // [draw][k-1][coordinate]
	fmt.Println(len(futures), len(futures[0]), len(futures[0][0]))
	// Output:
	// [0.9900 0.9604 0.9025 0.8100 0.9900 0.9604 0.9025 0.8100]
	// 64 32 8
}

// Check once, before training, that every unit fits the input window plus
// the forecast horizon.
func ExampleDataset_CheckHorizon() {
	d, _ := data.Load("known-snr", data.Options{NumTraj: 10, Length: 60, NoCache: true})
	fmt.Println(d.CheckHorizon(16, 32))
	fmt.Println(d.CheckHorizon(16, 48))
	// Output:
	// <nil>
	// data: dataset "known-snr": window 16 + horizon 48 = 64 steps exceeds train unit 0, which has only 60 steps
}

// Normalizer maps model outputs back to raw coordinates.
func ExampleNormalizer() {
	train := []data.Series{{X: [][]float64{{1, 10}, {3, 30}}}}
	n := data.FitNormalizer(train, false)
	z := n.State.Apply([]float64{3, 30})
	fmt.Println(z, n.State.Invert(z))
	// Output:
	// [1 1] [3 30]
}

// Load your own time series from a CSV file: the step is inferred from the
// timestamps (and every row checked against it), the calendar drive derived
// from them, the rows split in time and cut into units, and the data
// standardised with training statistics only.
func ExampleLoadCSV() {
	dir, err := os.MkdirTemp("", "dw-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// An hourly load with an observed temperature: 30 days.
	var b strings.Builder
	b.WriteString("timestamp,load,temperature\n")
	t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 30 * 24 {
		day := 2 * math.Pi * float64(i) / 24
		fmt.Fprintf(&b, "%s,%.3f,%.2f\n", t0.Add(time.Duration(i)*time.Hour).Format(time.DateTime), 50+10*math.Sin(day), 12-4*math.Cos(day))
	}
	path := filepath.Join(dir, "load.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
	spec := data.CSVSpec{Drive: []string{"temperature"}, UnitLen: 48} // split: 70/15/15 by default
	tab, err := data.ReadCSV(path, spec)
	if err != nil {
		panic(err)
	}
	r := tab.Spec // resolved: every default explicit
	fmt.Println(r.Name, "time:", r.Time, "step:", r.Step, "state:", r.State, "drive:", r.Drive, "+", data.CalendarNamesFor(tab.Step))
	d, err := tab.Dataset()
	if err != nil {
		panic(err)
	}
	fmt.Println("units:", len(d.Train), len(d.Val), len(d.Test), "of", d.Train[0].Len(), "steps; state dim", d.StateDim, "drive dim", d.DriveDim)
	// Output:
	// load time: timestamp step: 1h state: [load] drive: [temperature] + [hour_sin hour_cos weekday_sin weekday_cos yearday_sin yearday_cos]
	// units: 10 2 2 of 48 steps; state dim 1 drive dim 7
}
