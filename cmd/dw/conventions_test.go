package main

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// TestUsageErrors: a bad name, flag or value on any command's line exits 2 with one line naming
// the bad value (and, for a name, the valid ones), with no job number or package prefix for a
// single run, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	runs := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"train", "-profile", "quick", "-testbed", "nope", "-method", "dw", "-runs", runs}, []string{`unknown testbed "nope"; valid testbeds: `, "mackey-glass"}},
		{[]string{"train", "-profile", "nope", "-testbed", "mackey-glass", "-method", "dw", "-runs", runs}, []string{`unknown profile "nope"; valid profiles: `, "paper-cpu"}},
		{[]string{"train", "-testbed", "mackey-glass", "-method", "nope", "-runs", runs}, []string{`unknown method "nope"; valid methods: full, clip`}},
		{[]string{"train", "-testbed", "mackey-glass", "-method", "dw", "-K", "600", "-runs", runs}, []string{"K = 600 is too long for mackey-glass"}},
		{[]string{"config", "-testbed", "lorenz", "-method", "dw"}, []string{`unknown testbed "lorenz"`}},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass,nope", "-methods", "dw", "-runs", runs}, []string{`unknown testbed "nope"`}},
		{[]string{"table", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "nope", "-runs", runs}, []string{`unknown method "nope"`}},
		{[]string{"baselines", "-profile", "huge", "-testbeds", "mackey-glass", "-runs", runs}, []string{`unknown profile "huge"`}},
		{[]string{"regime", "-profiles", "paper-cpu,huge", "-runs", runs}, []string{`unknown profile "huge"`}},
		{[]string{"ksweep", "-testbed", "lorenz", "-K", "8,16,32", "-H", "48", "-runs", runs}, []string{`unknown testbed "lorenz"`}},
		{[]string{"runtime", "-profile", "huge", "-testbeds", "mackey-glass"}, []string{`unknown profile "huge"`}},
		{[]string{"diagnose", "-testbed", "lorenz"}, []string{`unknown testbed "lorenz"`}},
		{[]string{"graphs", "-profile", "huge", "-testbed", "mackey-glass", "-method", "dw"}, []string{`unknown profile "huge"`}},
		{[]string{"train", "-tesbed", "mackey-glass"}, []string{"flag provided but not defined: -tesbed", "(dw train -h lists the flags)"}},
		{[]string{"sweep", "-sedes", "0"}, []string{"-sedes", "(dw sweep -h lists the flags)"}},
		{[]string{"list", "extra"}, []string{`unexpected arguments ["extra"]`, "dw list -h"}},
		{[]string{"fly"}, []string{`unknown command "fly"; commands: list, config, train`}},
	} {
		t.Run(strings.Join(tc.args[:min(2, len(tc.args))], " "), func(t *testing.T) {
			out, logs, err := dwLogs(t, tc.args...)
			if exitCode(err) != exitUsage {
				t.Fatalf("exit %d (%v), want %d", exitCode(err), err, exitUsage)
			}
			msg := explain(err)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") || strings.Contains(msg, "job 1") || strings.Contains(msg, "experiment:") {
				t.Errorf("error is not one plain line: %q", msg)
			}
			if out != "" || logs != "" {
				t.Errorf("printed besides the error:\nstdout %q\nstderr %q", out, logs)
			}
		})
	}
}

// TestHelp: dw -h and every command's -h print the usage to stdout and exit 0; each command that
// takes seeds states the one default they all share.
func TestHelp(t *testing.T) {
	out, logs, err := dwLogs(t, "-h")
	if exitCode(err) != 0 || !strings.HasPrefix(out, "usage: dw <command>") || logs != "" {
		t.Errorf("dw -h: exit %d, stdout %q, stderr %q", exitCode(err), out, logs)
	}
	seeded := map[string]bool{"config": true, "train": true, "graphs": true, "sweep": true, "table": true, "baselines": true, "regime": true, "compare": true, "attribution": true, "ksweep": true}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			out, logs, err := dwLogs(t, c.name, "-h")
			if !errors.Is(err, flag.ErrHelp) || exitCode(err) != 0 {
				t.Errorf("exit %d (%v), want 0", exitCode(err), err)
			}
			if !strings.HasPrefix(out, "usage: dw "+c.name) || logs != "" {
				t.Errorf("stdout %q, stderr %q: want the usage on stdout only", out, logs)
			}
			if seeded[c.name] && !strings.Contains(out, seedsHelp) {
				t.Errorf("-h does not state the seed default %q:\n%s", seedsHelp, out)
			}
		})
	}
}

// TestRunNotices: a quick-profile run says it is a smoke run, and a CSV split with fewer than 3
// test units warns, naming the file and what to change; a standard run on a built-in testbed says
// nothing.
func TestRunNotices(t *testing.T) {
	csv := func(rows int) string {
		var b bytes.Buffer
		b.WriteString("step,x\n")
		for i := range rows {
			b.WriteString(strconv.Itoa(i) + "," + strconv.FormatFloat(math.Sin(float64(i)/5), 'f', 4, 64) + "\n")
		}
		p := filepath.Join(t.TempDir(), "series.csv")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small, large := csv(1000), csv(3000)
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the notices; none: no notice
	}{
		{"standard testbed", []string{"-profile", "standard", "-testbed", "mackey-glass"}, nil},
		{"quick testbed", []string{"-profile", "quick", "-testbed", "mackey-glass"}, []string{"smoke run", "numbers are not meaningful"}},
		{"small CSV", []string{"-profile", "quick", "-data", small, "-time", "none"}, []string{"smoke run", small + ": the test split has 2 unit(s) (fewer than 3)", "-split", "-unit-len"}},
		{"large CSV", []string{"-profile", "quick", "-data", large, "-time", "none"}, []string{"smoke run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfgs, rf, _, err := selectRuns("train", append(tc.args, "-method", "full"), true)
			if err != nil {
				t.Fatal(err)
			}
			var w bytes.Buffer
			runNotices(&w, cfgs, rf.options())
			got := w.String()
			if len(tc.want) == 0 && got != "" {
				t.Errorf("notices %q, want none", got)
			}
			for _, s := range tc.want {
				if !strings.Contains(got, s) {
					t.Errorf("notices %q lack %q", got, s)
				}
			}
			if tc.name == "large CSV" && strings.Contains(got, "test split") {
				t.Errorf("a split with enough test units warns: %q", got)
			}
		})
	}
	if c, err := experiment.Resolve(experiment.Quick, "mackey-glass", "dw", 0, 0); err != nil || c.Profile != experiment.Quick {
		t.Fatalf("the quick profile's configuration: %v", err)
	}
}
