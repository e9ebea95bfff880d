package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// TestSameFlagNames: train, config, table and sweep take -testbed(s), -method(s) and -seed(s) under
// either name, each a list; train trains the product in turn and table reads the same runs back.
func TestSameFlagNames(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	out, err := dw(t, "train", "-profile", "quick", "-testbeds", "narma5", "-methods", "full,dw", "-seeds", "3", "-runs", runs, "-cache", cache)
	if err != nil {
		t.Fatal(err)
	}
	got := relL2.FindAllStringSubmatch(out, -1)
	if len(got) != 2 || !strings.Contains(out, "quick/narma5/full-K8-s3") || !strings.Contains(out, "quick/narma5/dw-K8-s3") {
		t.Fatalf("train with lists trained %d runs:\n%s", len(got), out)
	}
	table, err := dw(t, "table", "-profile", "quick", "-testbed", "narma5", "-method", "full,dw", "-seed", "3", "-runs", runs, "-cache", cache, "-baselines=false")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range got {
		if !strings.Contains(table, rounded(t, m[1])) {
			t.Errorf("table does not show train's rel-L2 %s:\n%s", m[1], table)
		}
	}

	cfgs, err := dw(t, "config", "-profile", "quick", "-testbed", "narma5", "-method", "dw", "-seed", "0,1")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(cfgs))
	var seeds []uint64
	for dec.More() {
		var c struct{ Seed uint64 }
		if err := dec.Decode(&c); err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, c.Seed)
	}
	if fmt.Sprint(seeds) != "[0 1]" {
		t.Errorf("dw config -seed 0,1 printed seeds %v, want [0 1]", seeds)
	}
}

// rounded is a printed score as the table shows it (4 decimals).
func rounded(t *testing.T, score string) string {
	t.Helper()
	v, err := strconv.ParseFloat(score, 64)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("| %.4f |", v)
}

func TestSynonymsRefused(t *testing.T) {
	runs := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-testbed", "narma5", "-method", "dw", "-seed", "0", "-seeds", "1", "-runs", runs}, "-seed and -seeds are the same flag"},
		{[]string{"sweep", "-testbed", "narma5", "-testbeds", "mackey-glass", "-methods", "dw", "-runs", runs}, "-testbed and -testbeds are the same flag"},
		{[]string{"ksweep", "-testbed", "narma5,mackey-glass", "-K", "8,16,24", "-H", "24", "-runs", runs}, "dw ksweep takes one testbed"},
		{[]string{"regime", "-testbeds", "narma5,mackey-glass", "-runs", runs}, "dw regime takes one testbed"},
		{[]string{"runtime", "-seeds", "0,1", "-runs", runs}, "dw runtime takes one seed"},
		{[]string{"train", "-testbed", "narma5", "-method", "dw", "-seed", "1,1", "-runs", runs}, "seed 1 is given twice"},
	} {
		_, err := dw(t, tc.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("dw %v: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestHintsNameFlags: a library hint that names an option field reads as dw's flag.
func TestHintsNameFlags(t *testing.T) {
	_, err := dw(t, "train", "-profile", "quick", "-testbed", "ettm1", "-method", "full", "-runs", t.TempDir(), "-ett", t.TempDir())
	if err == nil {
		t.Fatal("training ettm1 from an empty -ett directory succeeded")
	}
	msg := explain(err)
	if !strings.Contains(msg, "ETTm1.csv.gz") || !strings.Contains(msg, "(give -ett DIR)") || strings.Contains(msg, "Options") {
		t.Errorf("explain: %q, want the missing file and \"(give -ett DIR)\" without Go option names", msg)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("outer: %w", &data.SettingError{Err: errors.New("no cache"), Settings: []string{"data.Options.CacheDir", "data.Options.NoCache"}}), "outer: no cache (give -cache DIR)"},
		{&data.SettingError{Err: errors.New("x"), Settings: []string{"data.Options.NoCache"}}, "x (set data.Options.NoCache)"},
		{errors.New("plain"), "plain"},
	} {
		if got := explain(tc.err); got != tc.want {
			t.Errorf("explain(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
