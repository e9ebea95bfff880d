package data

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseCSVSpec(t *testing.T) {
	good := `{"name": "grid-load", "time": "timestamp", "state": ["load"], "drive": ["temp"],
		"split": {"val_start": "2017-06-26", "test_start": "2017-10-24"}, "unit_len": 128, "step": "1h"}`
	s, err := ParseCSVSpec(strings.NewReader(good), "spec.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "grid-load" || s.Time != "timestamp" || !slices.Equal(s.Drive, []string{"temp"}) || s.UnitLen != 128 || s.Split.ValStart != "2017-06-26" {
		t.Errorf("parsed %+v", s)
	}
	path := writeTemp(t, "spec.json", good, false)
	if f, err := ReadCSVSpec(path); err != nil || f.Name != s.Name {
		t.Errorf("ReadCSVSpec: %+v, %v", f, err)
	}
	if _, err := ReadCSVSpec(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("missing spec file: no error")
	}
	for _, tc := range []struct {
		name, json string
		want       []string
	}{
		{"unknown field", `{"stat": ["load"]}`, []string{`unknown field "stat"`}},
		{"wrong type", `{"unit_len": "long"}`, []string{`field "unit_len"`}},
		{"wrong type inside split", `{"split": {"train": "most"}}`, []string{`field "split.train"`}},
		{"trailing data", `{} {}`, []string{"data after the JSON object"}},
		{"not JSON", `name: x`, []string{"invalid character"}},
		{"name", `{"name": "My Data"}`, []string{"name:", `"My Data"`, "a-z, 0-9"}},
		{"negative unit", `{"unit_len": -5}`, []string{"unit_len: -5"}},
		{"bad step", `{"step": "hourly"}`, []string{"step:", `"hourly"`}},
		{"step without time", `{"time": "none", "step": "1h"}`, []string{"step:", `time is "none"`}},
		{"layout without time", `{"time": "none", "time_layout": "2006"}`, []string{"time_layout:"}},
		{"calendar", `{"calendar": "yes"}`, []string{"calendar:", `"yes"`}},
		{"calendar without time", `{"time": "none", "calendar": "auto"}`, []string{"calendar:", "needs a time column"}},
		{"delimiter", `{"delimiter": ";;"}`, []string{"delimiter:", `";;"`}},
		{"space delimiter", `{"delimiter": " "}`, []string{"delimiter:", "a tab is fine"}},
		{"state twice", `{"state": ["a", "b", "a"]}`, []string{"state[2]:", `"a" is already the state column`}},
		{"state is drive", `{"state": ["a"], "drive": ["a"]}`, []string{"drive[0]:", `"a" is already the state column`}},
		{"time is state", `{"time": "t", "state": ["t"]}`, []string{"state[0]:", "already the time column"}},
		{"empty column name", `{"drive": [" "]}`, []string{"drive[0]: empty column name"}},
		{"fraction out of range", `{"split": {"train": 0.8, "val": 0.2, "test": 0}}`, []string{"split.test: 0, must be in (0, 1)"}},
		{"fractions over 1", `{"split": {"train": 0.8, "val": 0.2, "test": 0.2}}`, []string{"split: train + val + test = 1.2"}},
		{"mixed split", `{"split": {"train": 0.8, "val_start": "2020-01-01"}}`, []string{"split: give fractions", "not a mix"}},
		{"dates without test", `{"split": {"val_start": "2020-01-01"}}`, []string{"needs both val_start and test_start"}},
		{"bad date", `{"split": {"val_start": "2020-01-01", "test_start": "next year"}}`, []string{"split.test_start:", `"next year"`}},
		{"dates out of order", `{"split": {"val_start": "2020-02-01", "test_start": "2020-01-01"}}`, []string{"split.test_start: 2020-01-01 is not after val_start"}},
		{"end before test", `{"split": {"val_start": "2020-01-01", "test_start": "2020-02-01", "end": "2020-01-15"}}`, []string{"split.end:"}},
		{"dates without time", `{"time": "none", "split": {"val_start": "2020-01-01", "test_start": "2020-02-01"}}`, []string{"split.val_start:", "needs a time column"}},
		{"rows", `{"split": {"train_rows": 100, "val_rows": 0, "test_rows": 10}}`, []string{"split.val_rows: 0, must be >= 1"}},
		{"key twice", `{"unit_len": 64, "unit_len": 32}`, []string{`field "unit_len" is given twice`}},
		{"key twice inside split", `{"split": {"train": 0.5, "val": 0.2, "train": 0.6, "test": 0.1}}`, []string{`field "split.train" is given twice`}},
		{"rows overflow", `{"split": {"train_rows": 4611686018427387904, "val_rows": 4611686018427387904, "test_rows": 1}}`, []string{"split: train_rows + val_rows + test_rows", "overflows"}},
		{"long name", `{"name": "` + strings.Repeat("a", 5000) + `"}`, []string{"name:", "5000 bytes long, at most 64"}},
		{"oversized", `{"name": "x"}` + strings.Repeat(" ", 2<<20), []string{"more than 1048576 bytes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCSVSpec(strings.NewReader(tc.json), "my-spec.json")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append([]string{"data: CSV spec my-spec.json: "}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestCSVName(t *testing.T) {
	for in, want := range map[string]string{
		"/data/ETTh1.csv": "etth1", "Hourly Load (2020).csv.gz": "hourly-load--2020", "x.tsv": "x", "...csv": "data", "a_b-c.txt": "a_b-c", strings.Repeat("x", 300) + ".csv": strings.Repeat("x", MaxNameLen),
	} {
		if got := CSVName(in); got != want {
			t.Errorf("CSVName(%q) = %q, want %q", in, got, want)
		}
	}
}
