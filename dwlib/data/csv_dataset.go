package data

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// LoadCSV reads a time-series CSV file ([ReadCSV]) and builds its
// [Dataset] ([CSVTable.Dataset]): the general path for data that is not a
// built-in testbed.
func LoadCSV(path string, spec CSVSpec) (*Dataset, error) {
	tab, err := ReadCSV(path, spec)
	if err != nil {
		return nil, err
	}
	return tab.Dataset()
}

// Dataset splits the table in time order as t.Spec.Split says, cuts each
// split into non-overlapping units of t.Spec.UnitLen rows from the split's
// first row (a trailing partial unit is dropped, so no unit straddles two
// splits), attaches the drive (the Drive columns, then the calendar
// coordinates of each row's timestamp) and standardises state and drive
// separately with statistics of the training units only: nothing about
// validation or test leaks into the inputs. Split records the units'
// indices counted from the first row across all splits.
//
// A split too short for one unit is an error naming the rows it holds, so
// a file that is too short, or a unit that is too long, is found before any
// training.
func (t *CSVTable) Dataset() (*Dataset, error) {
	spec := t.Spec
	name := spec.Name
	if name == "" {
		name = CSVName(t.Path)
	}
	unitLen := spec.UnitLen
	if unitLen == 0 {
		unitLen = DefaultCSVUnitLen
	}
	if unitLen < 1 {
		return nil, fmt.Errorf("data: %s: unit length must be >= 1, got %d", name, unitLen)
	}
	n := len(t.Values)
	if len(t.Time) != 0 && len(t.Time) != n || len(t.Drive) != 0 && len(t.Drive) != n {
		return nil, fmt.Errorf("data: %s: %s: %d rows of state, %d timestamps and %d rows of drive", name, t.Path, n, len(t.Time), len(t.Drive))
	}
	bounds, err := spec.Split.bounds(n, t.Time)
	if err != nil {
		return nil, fmt.Errorf("data: %s: %s: %w", name, t.Path, err)
	}
	calendar, step := spec.Calendar != CalendarNone && len(t.Time) > 0, t.step()
	var parts [3][]Series
	var idx [3][]int
	var rows []int // the table rows the units hold, for checkStandardized
	unit := 0
	for k := range 3 {
		lo, hi := bounds[k], bounds[k+1]
		for start := lo; start+unitLen <= hi; start += unitLen {
			s := Series{X: make([][]float64, unitLen)}
			for r := range unitLen {
				rows = append(rows, start+r)
				s.X[r] = slices.Clone(t.Values[start+r])
				var d []float64
				if t.Drive != nil {
					d = slices.Clone(t.Drive[start+r])
				}
				if calendar {
					d = append(d, CalendarFeaturesFor(t.Time[start+r], step)...)
				}
				if d != nil {
					s.Drive = append(s.Drive, d)
				}
			}
			parts[k] = append(parts[k], s)
			idx[k] = append(idx[k], unit)
			unit++
		}
		if len(parts[k]) == 0 {
			return nil, fmt.Errorf("data: %s: %s: the %s split %s has %d rows%s, fewer than one unit of %d steps; use a shorter unit length (unit_len) or more rows (the file has %d data rows)",
				name, t.Path, splitNames[k], spec.Split, max(0, hi-lo), t.rowRange(lo, hi), unitLen, n)
		}
	}
	// NewDataset fits the same normaliser; checking here first names the line and column.
	if err := t.checkStandardized(FitNormalizer(parts[0], true), rows); err != nil {
		return nil, err
	}
	d, err := NewDataset(name, parts[0], parts[1], parts[2], true)
	if err != nil {
		return nil, err
	}
	d.Split = Split{Train: idx[0], Val: idx[1], Test: idx[2]}
	return d, nil
}

var splitNames = [3]string{"training", "validation", "test"}

// rowRange describes rows [lo, hi) for errors: 1-based data rows and, with
// a time column, their first and last timestamps.
func (t *CSVTable) rowRange(lo, hi int) string {
	if hi <= lo {
		return ""
	}
	s := fmt.Sprintf(" (data rows %d–%d", lo+1, hi)
	if len(t.Time) > 0 {
		s += fmt.Sprintf(", %s to %s", t.Time[lo].Format(time.DateTime), t.Time[hi-1].Format(time.DateTime))
	}
	return s + ")"
}

// step is the table's step: Step, else the spec's, else the most common
// difference of its timestamps (tables built in memory may set only Time).
func (t *CSVTable) step() time.Duration {
	if t.Step > 0 {
		return t.Step
	}
	if d, err := ParseStep(t.Spec.Step); t.Spec.Step != "" && err == nil {
		return d
	}
	if len(t.Time) > 1 {
		return modeStep(t.Time)
	}
	return 0
}

// bounds returns the row boundaries of the split: train is rows
// [b[0], b[1]), validation [b[1], b[2]), test [b[2], b[3]); rows from b[3]
// on are unused. times are the rows' timestamps (nil without a time
// column, which a split by dates needs).
func (sp CSVSplit) bounds(n int, times []time.Time) ([4]int, error) {
	sp = sp.withDefaults()
	switch {
	case sp.byRows():
		need := sp.TrainRows + sp.ValRows + sp.TestRows
		if n < need {
			return [4]int{}, fmt.Errorf("%d data rows, the split %s needs %d", n, sp, need)
		}
		return [4]int{0, sp.TrainRows, sp.TrainRows + sp.ValRows, need}, nil
	case sp.byDates():
		if len(times) == 0 {
			return [4]int{}, errors.New("a split by dates needs a time column")
		}
		at := func(s string) int {
			t, _ := parseAnyTime(s) // validated with the spec
			i, _ := slices.BinarySearchFunc(times, t, func(a, b time.Time) int { return a.Compare(b) })
			return i
		}
		end := n
		if sp.End != "" {
			end = at(sp.End)
		}
		return [4]int{0, at(sp.ValStart), at(sp.TestStart), end}, nil
	}
	cum := func(f float64) int { return min(n, int(math.Round(f*float64(n)))) }
	return [4]int{0, cum(sp.Train), cum(sp.Train + sp.Val), cum(sp.Train + sp.Val + sp.Test)}, nil
}
