package kernelext

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/kernelext/repo"
)

// TestRunNotebooksUsesThisCheckout runs a one-cell notebook through scripts/run-notebooks.sh with
// the user's kernelspec pointing at a checkout that no longer exists (what a deleted CI clone that
// last ran setup.sh leaves behind): the runner must still execute the notebook with this checkout's
// kernel, and must leave the user's kernelspec as it was.
func TestRunNotebooksUsesThisCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a notebook (-short)")
	}
	if _, err := exec.LookPath("jupyter"); err != nil {
		t.Skip("jupyter not installed (scripts/setup.sh installs it)")
	}
	out, err := exec.Command("jupyter", "kernelspec", "list", "--json").Output()
	if err != nil {
		t.Skipf("jupyter kernelspec list: %v", err)
	}
	var specs struct {
		Kernelspecs map[string]struct {
			ResourceDir string `json:"resource_dir"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &specs); err != nil {
		t.Fatalf("jupyter kernelspec list --json: %v", err)
	}
	installed, ok := specs.Kernelspecs["gonb-dwgo"]
	if !ok {
		t.Skip(`Jupyter kernel "gonb-dwgo" not installed (scripts/setup.sh installs it)`)
	}
	specJSON, err := os.ReadFile(filepath.Join(installed.ResourceDir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(specJSON, &spec); err != nil {
		t.Fatal(err)
	}

	// A user data directory whose gonb-dwgo spec points at a checkout that is gone.
	dataDir := t.TempDir()
	stale := filepath.Join(t.TempDir(), "gone")
	spec["argv"] = []any{filepath.Join(stale, "scripts", "kernel", "launch.sh"), "{connection_file}"}
	spec["metadata"] = map[string]any{"dwgo_root": stale}
	staleJSON, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	staleFile := filepath.Join(dataDir, "kernels", "gonb-dwgo", "kernel.json")
	if err := os.MkdirAll(filepath.Dir(staleFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(staleFile, staleJSON, 0o644); err != nil {
		t.Fatal(err)
	}

	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".tools", "bin", "gonb")); err != nil {
		t.Skipf("this checkout has no GoNB of its own yet (scripts/setup.sh builds it): %v", err)
	}
	// The notebook lives inside the module (GoNB cells import it through the repository's go.mod).
	if err := os.MkdirAll(filepath.Join(root, ".tools"), 0o755); err != nil { // git-ignored
		t.Fatal(err)
	}
	nbDir, err := os.MkdirTemp(filepath.Join(root, ".tools"), "runnb-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(nbDir) })
	nb := `{"cells": [{"cell_type": "code", "execution_count": null, "id": "c0", "metadata": {}, "outputs": [],
  "source": ["%%\n", "fmt.Println(\"checkout ok\")"]}],
 "metadata": {"kernelspec": {"display_name": "Go (dwgo, GoNB)", "language": "go", "name": "gonb-dwgo"}},
 "nbformat": 4, "nbformat_minor": 5}`
	nbFile := filepath.Join(nbDir, "tiny.ipynb")
	if err := os.WriteFile(nbFile, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(nbDir, "out")
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "run-notebooks.sh"), "--profile", "quick", "--no-html", "--out", outDir, nbFile)
	cmd.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir)
	if msg, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(outDir, "logs", "tiny.log"))
		t.Fatalf("run-notebooks.sh with a stale user kernelspec: %v\n%s\n%s", err, msg, log)
	}
	executed, err := os.ReadFile(filepath.Join(outDir, "tiny.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(executed), "checkout ok") {
		t.Errorf("executed notebook has no output of its cell:\n%s", executed)
	}
	if after, err := os.ReadFile(staleFile); err != nil || string(after) != string(staleJSON) {
		t.Errorf("the user's kernelspec changed (%v):\n%s", err, after)
	}
}
