package data

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Flags returns the command-line flags of `dw train`, `config`, `sweep`, `table` and `baselines`
// (-time, -state, -drive, -split, -unit-len) that read a CSV file as s does, for printing the
// command that trains on the file from the shell. Fields left at their defaults give no flag.
// It fails, naming the field, when s needs the JSON spec (-data-spec) instead: a name, time
// layout, step, calendar or delimiter, a split by row counts, or a column name containing a comma.
func (s CSVSpec) Flags() ([]string, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	for _, f := range []struct{ field, v string }{
		{"name", s.Name}, {"time_layout", s.TimeLayout}, {"step", s.Step}, {"delimiter", s.Delimiter},
	} {
		if f.v != "" {
			return nil, fmt.Errorf("data: CSVSpec.Flags: %s %q has no flag: write the spec as JSON (-data-spec)", f.field, f.v)
		}
	}
	if s.Calendar != "" && s.Calendar != CalendarAuto {
		return nil, fmt.Errorf("data: CSVSpec.Flags: calendar %q has no flag: write the spec as JSON (-data-spec)", s.Calendar)
	}
	var out []string
	if s.Time != TimeAuto {
		out = append(out, "-time", s.Time)
	}
	for _, c := range []struct {
		flag string
		cols []string
	}{{"-state", s.State}, {"-drive", s.Drive}} {
		if len(c.cols) == 0 {
			continue
		}
		for _, col := range c.cols {
			if strings.Contains(col, ",") || strings.TrimSpace(col) != col {
				return nil, fmt.Errorf("data: CSVSpec.Flags: column %q cannot be written in a comma-separated %s list: write the spec as JSON (-data-spec)", col, c.flag)
			}
		}
		out = append(out, c.flag, strings.Join(c.cols, ","))
	}
	sp := s.Split
	switch {
	case sp.byRows():
		return nil, errors.New("data: CSVSpec.Flags: a split by row counts has no flag: write the spec as JSON (-data-spec)")
	case sp.byFractions():
		f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		out = append(out, "-split", f(sp.Train)+","+f(sp.Val)+","+f(sp.Test))
	case sp.byDates():
		dates := sp.ValStart + "," + sp.TestStart
		if sp.End != "" {
			dates += "," + sp.End
		}
		out = append(out, "-split", dates)
	}
	if s.UnitLen != 0 {
		out = append(out, "-unit-len", strconv.Itoa(s.UnitLen))
	}
	return out, nil
}
