package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// dataFlags select a user's CSV file instead of a built-in testbed: -data names the file,
// -data-spec a JSON data.CSVSpec, and the column, split and unit flags override the spec's
// fields, so the common cases need no JSON at all.
type dataFlags struct {
	file, spec, time, state, drive, split string
	unitLen                               int
	fs                                    *flag.FlagSet
}

// dataSynopsis is the data flags in a command's usage line.
const dataSynopsis = "-data FILE.csv [-data-spec SPEC.json] [-time COL] [-state a,b] [-drive c,d] [-split 0.7,0.15,0.15] [-unit-len N]"

func (d *dataFlags) register(fs *flag.FlagSet) {
	d.fs = fs
	fs.StringVar(&d.file, "data", "", "your own time series: a CSV file (plain or gzip) used instead of a built-in testbed (docs/cli.md, \"Your own data\")")
	fs.StringVar(&d.spec, "data-spec", "", "JSON file of -data's columns, split, step and unit length (fields of data.CSVSpec); the flags below override it")
	fs.StringVar(&d.time, "time", "", "-data's time column, or \"none\" (default: the first column when named date, time, datetime or timestamp); its calendar drive is computed in UTC, whatever offset a timestamp carries")
	fs.StringVar(&d.state, "state", "", "-data's comma-separated state columns, the ones forecast (default: every column but the time and drive columns)")
	fs.StringVar(&d.drive, "drive", "", "-data's comma-separated observed-drive columns: inputs known one step ahead, read but not forecast")
	fs.StringVar(&d.split, "split", "", "-data's chronological split: fractions train,val,test or dates val_start,test_start[,end] (default 0.7,0.15,0.15)")
	fs.IntVar(&d.unitLen, "unit-len", 0, "-data's unit length in rows (default 256; the quick profile cuts it to 64)")
}

// args returns the data flags as they were given ("-data F -drive d ..."), for printing a command
// line that reads the same file the same way.
func (d *dataFlags) args() []string {
	var out []string
	d.fs.Visit(func(f *flag.Flag) {
		if slices.Contains([]string{"data", "data-spec", "time", "state", "drive", "split", "unit-len"}, f.Name) {
			out = append(out, "-"+f.Name, f.Value.String())
		}
	})
	return out
}

// given reports whether -data was given.
func (d *dataFlags) given() bool { return d.file != "" }

// csv reads and checks the CSV file the flags select (nil when -data is not given). Every
// malformed row is reported here, before any run starts.
func (d *dataFlags) csv() (*experiment.CSVData, error) {
	set := map[string]bool{}
	d.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !d.given() {
		for _, n := range []string{"data-spec", "time", "state", "drive", "split", "unit-len"} {
			if set[n] {
				return nil, usageError{fmt.Errorf("-%s describes a CSV file: give the file with -data FILE", n)}
			}
		}
		return nil, nil
	}
	var spec data.CSVSpec
	if d.spec != "" {
		var err error
		if spec, err = data.ReadCSVSpec(d.spec); err != nil {
			return nil, err
		}
	}
	if set["time"] {
		spec.Time = d.time
	}
	if set["state"] {
		spec.State = splitList(d.state)
	}
	if set["drive"] {
		spec.Drive = splitList(d.drive)
	}
	if set["unit-len"] {
		spec.UnitLen = d.unitLen
	}
	if set["split"] {
		sp, err := parseSplit(d.split)
		if err != nil {
			return nil, err
		}
		spec.Split = sp
	}
	if err := spec.Validate(); err != nil {
		return nil, usageError{fmt.Errorf("-data %s: the spec from -data-spec and the flags: %w", d.file, err)}
	}
	return experiment.NewCSVData(d.file, spec)
}

// parseSplit reads -split: three fractions, or two or three dates.
func parseSplit(s string) (data.CSVSplit, error) {
	parts := splitList(s)
	bad := usageError{fmt.Errorf("-split: %q is neither fractions train,val,test (0.7,0.15,0.15) nor dates val_start,test_start[,end] (2024-01-01,2024-03-01)", s)}
	var fr []float64
	for _, p := range parts {
		if v, err := strconv.ParseFloat(p, 64); err == nil {
			fr = append(fr, v)
		}
	}
	switch {
	case len(fr) == 3 && len(parts) == 3:
		return data.CSVSplit{Train: fr[0], Val: fr[1], Test: fr[2]}, nil
	case len(fr) == 0 && (len(parts) == 2 || len(parts) == 3):
		sp := data.CSVSplit{ValStart: parts[0], TestStart: parts[1]}
		if len(parts) == 3 {
			sp.End = parts[2]
		}
		return sp, nil
	}
	return data.CSVSplit{}, bad
}

// errTestbedAndData refuses a command line naming both a built-in testbed and a CSV file.
var errTestbedAndData = usageError{errors.New("-testbed(s) and -data are mutually exclusive: train on a built-in testbed (dw list) or on your CSV file, not both")}
