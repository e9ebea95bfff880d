package data

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCSVHostile is the hostile-input suite of issue 40 for CSV files: every case is a file a
// careless or malicious user could write, and each must be refused before training with the file,
// the line and the column at fault (load: through LoadCSV, so the standardisation is checked too).
func TestCSVHostile(t *testing.T) {
	hourly := func(header string, rows int) []string {
		return strings.Split(strings.TrimSuffix(seriesCSV(header, jan1, time.Hour, "2006-01-02 15:04:05", rows, wave, input), "\n"), "\n")
	}
	setLoad := func(lines []string, line int, v string) []string { // the load field (field 2) of a line
		out := slices.Clone(lines)
		f := strings.Split(out[line-1], ",")
		f[1] = v
		out[line-1] = strings.Join(f, ",")
		return out
	}
	join := func(lines []string) string { return strings.Join(lines, "\n") + "\n" }
	h := hourly("date,load,temp", 400)
	alternating := slices.Clone(h)
	for i := 2; i <= 200; i++ {
		alternating = setLoad(alternating, i, map[bool]string{true: "1e200", false: "-1e200"}[i%2 == 0])
	}
	// Training rows constant 5, a test value 1e25: finite and far below float32's limit, but 1e25
	// training standard deviations from the mean (the spread is the constant's unit scale).
	flatThenHuge := hourly("date,load,temp", 400)
	for i := 2; i <= 401; i++ {
		flatThenHuge = setLoad(flatThenHuge, i, "5")
	}
	flatThenHuge = setLoad(flatThenHuge, 345, "1e25") // in the test unit (rows 340-371)
	for _, tc := range []struct {
		name    string
		content string
		spec    CSVSpec
		load    bool // LoadCSV rather than ReadCSV
		wants   []string
	}{
		// Defect 1: a magnitude that cannot survive standardisation and float32.
		{"1e308 in training", join(setLoad(h, 20, "1e308")), CSVSpec{UnitLen: 32}, true, []string{"line 20:", "field 2 (load)", `"1e308"`, "magnitude"}},
		{"alternating ±1e200", join(alternating), CSVSpec{UnitLen: 32}, true, []string{"line 2:", "field 2 (load)", "magnitude"}},
		{"-1e39 below float32", join(setLoad(h, 30, "-1e39")), CSVSpec{UnitLen: 32}, false, []string{"line 30:", "field 2 (load)", "magnitude"}},
		{"outlier far outside the training spread", join(flatThenHuge), CSVSpec{UnitLen: 32}, true, []string{"line 345:", `column "load"`, "standard deviations", "training"}},
		// Defect 4: duplicate column names, read as state without a spec naming them.
		{"duplicate state columns", join(hourly("date,load,load", 40)), CSVSpec{}, false, []string{"line 1:", `"load" appears twice`, "fields 2 and 3"}},
		{"duplicate after a trailing space", join(hourly("date,load,load ", 40)), CSVSpec{}, false, []string{"line 1:", `"load" appears twice`, "fields 2 and 3", `"load "`}},
		{"duplicate time column", join(hourly("date,load,date", 40)), CSVSpec{}, false, []string{"line 1:", `"date" appears twice`, "fields 1 and 3"}},
		// Defect 3: a header that is not UTF-8.
		{"non-UTF-8 header", join(hourly("date,lo\xffad,temp", 40)), CSVSpec{}, false, []string{"line 1:", "field 2", "not valid UTF-8"}},
		// Minor: a column with an empty header is not dropped silently.
		{"unnamed middle column", join(hourly("date,,temp", 40)), CSVSpec{}, false, []string{"line 1:", "field 2", "no name"}},
		// Defect 7: split sizes whose sum overflows.
		{"split rows overflow", join(h), CSVSpec{Split: CSVSplit{TrainRows: 4611686018427387904, ValRows: 4611686018427387904, TestRows: 4611686018427387904}}, true, []string{"split", "train_rows"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, "hostile.csv", tc.content, false)
			var err error
			if tc.load {
				_, err = LoadCSV(path, tc.spec)
			} else {
				_, err = ReadCSV(path, tc.spec)
			}
			if err == nil {
				t.Fatal("no error")
			}
			wants := tc.wants
			if !strings.HasPrefix(tc.name, "split") {
				wants = append([]string{path}, wants...)
			}
			for _, w := range wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestCSVMixedOffsets (defect 2): the same instants written with alternating UTC offsets give
// exactly the calendar drive of the file written in UTC: calendar features are computed in UTC.
func TestCSVMixedOffsets(t *testing.T) {
	const layout = "2006-01-02T15:04:05Z07:00"
	utc := seriesCSV("date,load", jan1, time.Hour, layout, 400, wave)
	lines := strings.Split(strings.TrimSuffix(utc, "\n"), "\n")
	plusOne := time.FixedZone("", 3600)
	for i := 1; i < len(lines); i += 2 {
		ts := jan1.Add(time.Duration(i-1) * time.Hour).In(plusOne).Format(layout)
		lines[i] = ts + lines[i][strings.Index(lines[i], ","):]
	}
	mixed := strings.Join(lines, "\n") + "\n"
	if !strings.Contains(mixed, "+01:00") || !strings.Contains(mixed, "Z,") {
		t.Fatalf("test file has not both offsets:\n%s", mixed[:300])
	}
	a, err := LoadCSV(writeTemp(t, "utc.csv", utc, false), CSVSpec{UnitLen: 32})
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadCSV(writeTemp(t, "mixed.csv", mixed, false), CSVSpec{UnitLen: 32})
	if err != nil {
		t.Fatal(err)
	}
	for k, pair := range [][2][]Series{{a.Train, b.Train}, {a.Val, b.Val}, {a.Test, b.Test}} {
		for u := range pair[0] {
			for r := range pair[0][u].Drive {
				if !slices.Equal(pair[0][u].Drive[r], pair[1][u].Drive[r]) {
					t.Fatalf("split %d unit %d row %d: drive %v in UTC, %v with mixed offsets", k, u, r, pair[0][u].Drive[r], pair[1][u].Drive[r])
				}
			}
		}
	}
}
