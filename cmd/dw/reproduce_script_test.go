package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproduceScriptArchivesInterruptedStage runs scripts/reproduce.sh with a stand-in dw
// (DW_BIN) that logs its subcommand and exits with a chosen status for sweep: a finished stage
// is archived and the next one starts; an interrupted one (130, as dw exits on Ctrl-C; 75, as
// -stop-after) is archived too, even though archive then fails on its unfinished runs, and the
// script stops there with dw's status.
func TestReproduceScriptArchivesInterruptedStage(t *testing.T) {
	bash, script := reproduceScript(t)
	for _, tc := range []struct {
		sweepStatus string
		wantStatus  int
		wantCalls   string // subcommands in order, over the stages "controls" then "ett"
	}{
		{"0", 0, "sweep archive sweep archive"},
		{"130", 130, "sweep archive"},
		{"75", 75, "sweep archive"},
	} {
		t.Run("sweep exits "+tc.sweepStatus, func(t *testing.T) {
			dir := t.TempDir()
			calls := filepath.Join(dir, "calls")
			fake := filepath.Join(dir, "dw")
			// archive fails like dw archive with unfinished runs whenever the sweep did not finish.
			body := "#!/bin/sh\necho \"$1\" >> " + calls + "\n" +
				"case \"$1\" in sweep) exit " + tc.sweepStatus + ";; archive) [ " + tc.sweepStatus + " = 0 ] || exit 1;; esac\n"
			if err := os.WriteFile(fake, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bash, script, "controls", "ett")
			cmd.Env = append(os.Environ(), "DW_BIN="+fake)
			out, err := cmd.CombinedOutput()
			status := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.wantStatus {
				t.Errorf("exit status %d, want %d; output:\n%s", status, tc.wantStatus, out)
			}
			got, err := os.ReadFile(calls)
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(strings.Fields(string(got)), " "); g != tc.wantCalls {
				t.Errorf("dw called as %q, want %q; output:\n%s", g, tc.wantCalls, out)
			}
			if tc.wantStatus != 0 && !strings.Contains(string(out), "run the same command again") {
				t.Errorf("an interrupted stage does not say how to continue; output:\n%s", out)
			}
		})
	}
}

// TestReproduceScriptStatus: --status asks dw sweep -plan about each chosen stage's grid and
// prints its summary line under the stage's name, training nothing.
func TestReproduceScriptStatus(t *testing.T) {
	bash, script := reproduceScript(t)
	dir := t.TempDir()
	calls, fake := filepath.Join(dir, "calls"), filepath.Join(dir, "dw")
	body := "#!/bin/sh\necho \"$*\" >> " + calls + "\necho \"paper-cpu/x/full-K32-s0  finished (archive)\"\necho \"1 runs: summary of $4 $6\"\n"
	if err := os.WriteFile(fake, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, script, "--status", "controls", "ksweep-ettm2-standard")
	cmd.Env = append(os.Environ(), "DW_BIN="+fake)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "controls (paper-cpu): 1 runs: summary of paper-cpu mackey-glass\n" +
		"ksweep-ettm2-standard (standard): 1 runs: summary of standard ettm2\n"
	if string(out) != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	got, _ := os.ReadFile(calls)
	if !strings.HasPrefix(string(got), "sweep -plan -profile paper-cpu -testbeds mackey-glass -methods static,clip,jreg,tbptt -seeds 0\n") || strings.Count(string(got), "\n") != 2 {
		t.Errorf("dw called as:\n%s", got)
	}
}

// reproduceScript returns bash and the absolute path of scripts/reproduce.sh (skipping the test
// without bash).
func reproduceScript(t *testing.T) (bash, script string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	script, err = filepath.Abs(filepath.Join("..", "..", "scripts", "reproduce.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return bash, script
}
