package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptWhileBuilding (issue 40): a run whose graphs take minutes to build (the quick
// profile at 200 layers: about 110 s on 2 cores) quits at the first SIGINT during the build, with
// exit status 130 and no files but its configuration, instead of finishing the build first.
func TestInterruptWhileBuilding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the dw binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "dw")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfgOut, err := dw(t, "config", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal([]byte(cfgOut), &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["model"].(map[string]any)["layers"] = 200
	b, _ := json.Marshal(cfg)
	cfgFile := filepath.Join(dir, "big.json")
	if err := os.WriteFile(cfgFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	cmd := exec.Command(bin, "train", "-config", cfgFile, "-runs", runs, "-cache", filepath.Join(dir, "cache"))
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // into the build (data generation takes well under a second)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("dw did not quit within 60 s of SIGINT while building (the build alone takes about 110 s)\n%s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want status %d\n%s", err, exitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "while building the graphs") {
		t.Errorf("stderr does not say the build was interrupted:\n%s", stderr.String())
	}
	for _, f := range []string{"result.json", "last.ckpt", "best.ckpt"} {
		if m, _ := filepath.Glob(filepath.Join(runs, "*", "*", "*", f)); len(m) > 0 {
			t.Errorf("%s written by an interrupted build", m[0])
		}
	}
	t.Logf("quit %.1f s after SIGINT", time.Since(sent).Seconds())
}
