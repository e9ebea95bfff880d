package experiment

import (
	"math"
	"slices"
	"testing"
)

// TestDriveBoundary: the weak-drive row pairs Mackey–Glass Full and DW on both seeds; the
// strong-drive row leaves out the seed whose Full run is missing and has no interval with one
// seed; values, the change and the paper's numbers are the runs' and the table's.
func TestDriveBoundary(t *testing.T) {
	opt := quickOptions(t)
	jobs := append(Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0, 1}}.Jobs(),
		Grid{Testbeds: []string{"driven-mg"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0}}.Jobs()...)
	jobs = append(jobs, Job{Testbed: "driven-mg", Method: "dw", Seed: 1})
	outs, err := Sweep(Quick, jobs, opt)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, o := range outs {
		score[o.Config.Name()] = o.Result.Test.RelL2
	}
	rows, err := DriveBoundary(opt, Quick, []uint64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Testbed != "mackey-glass" || rows[1].Testbed != "driven-mg" {
		t.Fatalf("rows %+v", rows)
	}
	weak, strong := rows[0], rows[1]
	wantFull := []float64{score["quick/mackey-glass/full-K8-s0"], score["quick/mackey-glass/full-K8-s1"]}
	wantDW := []float64{score["quick/mackey-glass/dw-K8-s0"], score["quick/mackey-glass/dw-K8-s1"]}
	if !slices.Equal(weak.Seeds, []uint64{0, 1}) || !slices.Equal(weak.Full, wantFull) || !slices.Equal(weak.DW, wantDW) {
		t.Errorf("weak row %+v, want Full %v, DW %v", weak, wantFull, wantDW)
	}
	d := ((wantDW[0] - wantFull[0]) + (wantDW[1] - wantFull[1])) / 2
	if weak.Paired == nil || math.Abs(weak.Paired.Mean-d) > 1e-15 {
		t.Errorf("weak paired %+v, want mean %v", weak.Paired, d)
	}
	change := 100 * ((wantDW[0]+wantDW[1])/2 - (wantFull[0]+wantFull[1])/2) / ((wantFull[0] + wantFull[1]) / 2)
	if math.Abs(weak.Change()-change) > 1e-12 {
		t.Errorf("weak change %v, want %v", weak.Change(), change)
	}
	if !slices.Equal(strong.Seeds, []uint64{0}) || strong.Paired != nil || strong.DW[0] != score["quick/driven-mg/dw-K8-s0"] {
		t.Errorf("strong row %+v: want seed 0 only, no interval", strong)
	}
	if weak.PaperFull.Mean != 1.0541 || strong.PaperDW.Mean != .79157 {
		t.Errorf("paper values %v, %v", weak.PaperFull, strong.PaperDW)
	}
}
