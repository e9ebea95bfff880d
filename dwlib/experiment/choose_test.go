package experiment

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestChooseByValidation(t *testing.T) {
	row := func(p string, seeds []uint64, val []float64) CompareRow {
		return CompareRow{Profile: p, Seeds: seeds, BestVal: val, Test: make([]float64, len(seeds))}
	}
	for _, tc := range []struct {
		name  string
		rows  []CompareRow
		want  string
		seeds []uint64
		means []float64
	}{
		{"lowest mean wins", []CompareRow{row("a", []uint64{0, 1}, []float64{0.5, 0.7}), row("b", []uint64{0, 1}, []float64{0.4, 0.6})},
			"b", []uint64{0, 1}, []float64{0.6, 0.5}},
		// Only the seeds both finished count: b's bad seed 2 is not compared with a missing one.
		{"common seeds only", []CompareRow{row("a", []uint64{0, 1}, []float64{0.5, 0.5}), row("b", []uint64{0, 1, 2}, []float64{0.4, 0.4, 9})},
			"b", []uint64{0, 1}, []float64{0.5, 0.4}},
		{"seed order differs", []CompareRow{row("a", []uint64{1, 0}, []float64{0.3, 0.9}), row("b", []uint64{0, 1}, []float64{0.5, 0.5})},
			"b", []uint64{1, 0}, []float64{0.6, 0.5}},
		{"a tie goes to the first", []CompareRow{row("a", []uint64{0}, []float64{0.5}), row("b", []uint64{0}, []float64{0.5})},
			"a", []uint64{0}, []float64{0.5, 0.5}},
	} {
		c, err := ChooseByValidation(tc.rows, ByValLoss)
		if err != nil || c.Profile != tc.want || !slices.Equal(c.Seeds, tc.seeds) || len(c.MeanVal) != len(tc.means) {
			t.Errorf("%s: %+v, %v; want %s on seeds %v", tc.name, c, err, tc.want, tc.seeds)
			continue
		}
		for i := range c.MeanVal {
			if d := c.MeanVal[i] - tc.means[i]; d > 1e-15 || d < -1e-15 {
				t.Errorf("%s: means %v, want %v", tc.name, c.MeanVal, tc.means)
			}
		}
	}
	if _, err := ChooseByValidation([]CompareRow{row("a", []uint64{0}, []float64{1}), row("b", []uint64{1}, []float64{1})}, ByValLoss); err == nil ||
		!strings.Contains(err.Error(), "a (seeds [0])") || !strings.Contains(err.Error(), "b (seeds [1])") {
		t.Errorf("disjoint seeds: %v, want an error naming both profiles and their seeds", err)
	}
	if _, err := ChooseByValidation(nil, ByValLoss); err == nil {
		t.Error("no rows: no error")
	}
	if _, err := ChooseByValidation([]CompareRow{row("a", []uint64{0}, []float64{1})}, "test"); err == nil || !strings.Contains(err.Error(), `"test"`) {
		t.Errorf("an unknown criterion: %v", err)
	}
}

// TestChooseByValAtTest: the test-protocol criterion reads ValAtTest, can disagree with the
// validation loss, and skips seeds whose result has no ValAtTest (NaN).
func TestChooseByValAtTest(t *testing.T) {
	nan := math.NaN()
	rows := []CompareRow{
		{Profile: "a", Seeds: []uint64{0, 1, 2}, BestVal: []float64{0.39, 0.39, 0.39}, ValAtTest: []float64{0.42, 0.43, nan}},
		{Profile: "b", Seeds: []uint64{0, 1, 2}, BestVal: []float64{0.40, 0.40, 0.40}, ValAtTest: []float64{0.41, 0.41, 0.30}},
	}
	byLoss, err := ChooseByValidation(rows, ByValLoss)
	if err != nil || byLoss.Profile != "a" || len(byLoss.Seeds) != 3 {
		t.Errorf("by validation loss: %+v, %v; want a on three seeds", byLoss, err)
	}
	atTest, err := ChooseByValidation(rows, ByValAtTest)
	if err != nil || atTest.Profile != "b" || !slices.Equal(atTest.Seeds, []uint64{0, 1}) || atTest.Criterion != ByValAtTest {
		t.Errorf("at the test protocol: %+v, %v; want b on seeds 0 and 1", atTest, err)
	}
	if math.Abs(atTest.MeanVal[0]-0.425) > 1e-15 || math.Abs(atTest.MeanVal[1]-0.41) > 1e-15 {
		t.Errorf("means at the test protocol %v, want [0.425 0.41]", atTest.MeanVal)
	}
	old := []CompareRow{{Profile: "a", Seeds: []uint64{0}, BestVal: []float64{1}, ValAtTest: []float64{nan}}}
	if _, err := ChooseByValidation(old, ByValAtTest); err == nil {
		t.Error("no ValAtTest anywhere: no error")
	}
}

// TestCompareMarkdownValAtTest: the table's val-at-test column averages the seeds that record it
// and says how many those are.
func TestCompareMarkdownValAtTest(t *testing.T) {
	rows := []CompareRow{
		{Profile: "a", Seeds: []uint64{0, 1}, BestVal: []float64{0.5, 0.7}, BestEpoch: []int{1, 2}, Epochs: []int{3, 3}, Test: []float64{0.4, 0.6},
			ValAtTest: []float64{0.45, math.NaN()}},
		{Profile: "b", Seeds: []uint64{0}, BestVal: []float64{0.5}, BestEpoch: []int{1}, Epochs: []int{3}, Test: []float64{0.4}, ValAtTest: []float64{math.NaN()}},
		{Profile: "c", Seeds: []uint64{0, 1}, BestVal: []float64{0.5, 0.5}, BestEpoch: []int{1, 1}, Epochs: []int{3, 3}, Test: []float64{0.4, 0.4},
			ValAtTest: []float64{0.25, 0.35}},
	}
	md := CompareMarkdown("x", "full", rows)
	for _, want := range []string{"| val at test (mean) |", "| a | – | 2 | 0.6000 | 0.4500 (1 of 2 seeds) | 1/3, 2/3 |", "| b | – | 1 | 0.5000 | – |", "| c | – | 2 | 0.5000 | 0.3000 | 1/3, 1/3 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("CompareMarkdown lacks %q:\n%s", want, md)
		}
	}
}
