package kernelext

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

type Meta struct {
	Seed int64 `table:"Seed"`
}

type Loss float64

type runRow struct {
	Meta                   // promoted: Seed
	Name     string        `table:"Model"`
	Loss     Loss          `table:"Test loss,%.3f"`
	Acc      float64       // default FloatFormat
	Steps    int           `table:",%d steps"`
	Took     time.Duration // Stringer
	Err      error
	Note     *string
	Skipped  []byte `table:"-"`
	internal int
}

func TestTableOf(t *testing.T) {
	note := "best"
	rows := []runRow{
		{Meta: Meta{Seed: 1}, Name: "dw", Loss: 0.12345, Acc: 0.987654, Steps: 100, Took: 1500 * time.Millisecond, Note: &note, internal: 7},
		{Meta: Meta{Seed: 2}, Name: "base", Loss: 1, Acc: math.NaN(), Steps: 5, Err: errors.New("diverged")},
	}
	wantHeader := []string{"Seed", "Model", "Test loss", "Acc", "Steps", "Took", "Err", "Note"}
	wantRows := [][]string{
		{"1", "dw", "0.123", "0.9877", "100 steps", "1.5s", "", "best"},
		{"2", "base", "1.000", "NaN", "5 steps", "0s", "diverged", ""},
	}
	tests := []struct {
		name string
		in   any
		rows [][]string
	}{
		{"slice of structs", rows, wantRows},
		{"slice of pointers with nil", []*runRow{&rows[0], nil}, [][]string{wantRows[0], make([]string, len(wantHeader))}},
		{"array", [1]runRow{rows[1]}, wantRows[1:]},
		{"empty", []runRow{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := TableOf("runs", tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tab.Header, wantHeader) {
				t.Errorf("header = %q, want %q", tab.Header, wantHeader)
			}
			if len(tab.Rows) != len(tc.rows) {
				t.Fatalf("got %d rows, want %d", len(tab.Rows), len(tc.rows))
			}
			for i := range tc.rows {
				if !slices.Equal(tab.Rows[i], tc.rows[i]) {
					t.Errorf("row %d = %q, want %q", i, tab.Rows[i], tc.rows[i])
				}
			}
		})
	}
}

func TestTableOfErrors(t *testing.T) {
	for _, in := range []any{nil, 3, runRow{}, []int{1}, map[string]runRow{}} {
		if _, err := TableOf("x", in); err == nil {
			t.Errorf("TableOf(%T) succeeded, want error", in)
		}
	}
}

func TestTableOfNilEmbeddedPointer(t *testing.T) {
	type withPtr struct {
		*Meta
		Name string
	}
	tab, err := TableOf("", []withPtr{{Name: "a"}, {Meta: &Meta{Seed: 3}, Name: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"", "a"}, {"3", "b"}}
	for i := range want {
		if !slices.Equal(tab.Rows[i], want[i]) {
			t.Errorf("row %d = %q, want %q", i, tab.Rows[i], want[i])
		}
	}
}
