package data

import (
	"slices"
	"strings"
	"testing"
)

func TestCSVSpecFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		spec    CSVSpec
		want    []string
		wantErr string
	}{
		{name: "defaults", spec: CSVSpec{}, want: nil},
		{name: "everything", spec: CSVSpec{Time: "timestamp", State: []string{"load", "pressure"}, Drive: []string{"temperature"},
			Split: CSVSplit{Train: 0.7, Val: 0.15, Test: 0.15}, UnitLen: 64},
			want: []string{"-time", "timestamp", "-state", "load,pressure", "-drive", "temperature", "-split", "0.7,0.15,0.15", "-unit-len", "64"}},
		{name: "dates", spec: CSVSpec{Split: CSVSplit{ValStart: "2024-01-01", TestStart: "2024-03-01"}},
			want: []string{"-split", "2024-01-01,2024-03-01"}},
		{name: "dates with end", spec: CSVSpec{Split: CSVSplit{ValStart: "2024-01-01", TestStart: "2024-03-01", End: "2024-04-01"}},
			want: []string{"-split", "2024-01-01,2024-03-01,2024-04-01"}},
		{name: "no time", spec: CSVSpec{Time: TimeNone, State: []string{"x"}}, want: []string{"-time", "none", "-state", "x"}},
		{name: "calendar auto", spec: CSVSpec{Calendar: CalendarAuto, Drive: []string{"d"}}, want: []string{"-drive", "d"}},
		{name: "rows", spec: CSVSpec{Split: CSVSplit{TrainRows: 10, ValRows: 5, TestRows: 5}}, wantErr: "row counts"},
		{name: "step", spec: CSVSpec{Step: "1h"}, wantErr: "step"},
		{name: "name", spec: CSVSpec{Name: "grid"}, wantErr: "name"},
		{name: "calendar none", spec: CSVSpec{Calendar: CalendarNone}, wantErr: "calendar"},
		{name: "delimiter", spec: CSVSpec{Delimiter: ";"}, wantErr: "delimiter"},
		{name: "comma in a column", spec: CSVSpec{State: []string{"a,b"}}, wantErr: `"a,b"`},
		{name: "invalid", spec: CSVSpec{UnitLen: -1}, wantErr: "unit_len"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.spec.Flags()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Flags() = %q, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("Flags() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
