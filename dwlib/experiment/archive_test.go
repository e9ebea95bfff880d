package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchive: a finished run's result, archived, is read back from the archive by Run and
// FinishedRun with an empty run tree (nothing trained, nothing written there); Force ignores it;
// an unfinished run cannot be archived; a result of another configuration is refused by name.
func TestArchive(t *testing.T) {
	cfg, err := Resolve(Quick, "narma5", "dw", 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	src, archive, empty := quickOptions(t), t.TempDir(), t.TempDir()
	if _, err := ArchiveRun(cfg, Options{RunsDir: src.RunsDir, Archive: archive}); err == nil || !strings.Contains(err.Error(), "has not finished") {
		t.Errorf("archiving an unstarted run: %v, want \"has not finished\"", err)
	}
	want, err := Run(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := ArchiveRun(cfg, Options{RunsDir: src.RunsDir, Archive: archive})
	if err != nil || dst != filepath.Join(archive, "quick", "narma5", "dw-K8-s4", ArchivedResultFile) {
		t.Fatalf("ArchiveRun = %q, %v", dst, err)
	}

	opt := Options{RunsDir: empty, Archive: archive, DataCache: src.DataCache}
	// Archiving again where the run directory has no result (another machine's checkout) finds
	// the archived copy: nothing to do, and not an unfinished run.
	if again, err := ArchiveRun(cfg, opt); !errors.Is(err, ErrAlreadyArchived) || again != dst {
		t.Errorf("archiving a run only in the archive: %q, %v; want %q, ErrAlreadyArchived", again, err, dst)
	}
	got, err := Run(cfg, opt)
	if err != nil || got.Test.RelL2 != want.Test.RelL2 || len(got.Epochs) != len(want.Epochs) {
		t.Fatalf("Run from the archive: %v, %v; want test rel-L2 %v", got, err, want.Test.RelL2)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("reading an archived run wrote %d entries into the run tree", len(entries))
	}
	fin, err := FinishedRun(opt, Quick, "narma5", "dw", 4)
	if err != nil || fin == nil || fin.Test.RelL2 != want.Test.RelL2 {
		t.Errorf("FinishedRun from the archive: %v, %v", fin, err)
	}
	if has, err := opt.HasBest(cfg); has || err != nil {
		t.Errorf("HasBest of a run read from the archive = %v, %v; want false (the archive keeps no parameters)", has, err)
	}
	if has, err := src.HasBest(cfg); !has || err != nil {
		t.Errorf("HasBest of the finished run = %v, %v; want true", has, err)
	}
	if r, _, err := ReadFinished(cfg, Options{RunsDir: empty}); r != nil || err != nil {
		t.Errorf("without an archive, an empty run tree has a result: %v, %v", r, err)
	}
	if r, _, err := ReadFinished(cfg, Options{RunsDir: empty, Archive: archive, NoArchive: true}); r != nil || err != nil {
		t.Errorf("with NoArchive, the archived result was read: %v, %v", r, err)
	}

	forced := opt
	forced.Force = true
	if _, err := Run(cfg, forced); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(empty, "quick", "narma5", "dw-K8-s4", ResultFile)); err != nil {
		t.Errorf("Force did not train into the run tree: %v", err)
	}

	other, err := Resolve(Quick, "narma5", "dw", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(archive, filepath.FromSlash(other.Name()), ArchivedResultFile)
	if err := os.MkdirAll(filepath.Dir(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteResult(foreign, want); err != nil {
		t.Fatal(err)
	}
	if _, p, err := ReadFinished(other, Options{RunsDir: t.TempDir(), Archive: archive}); err == nil || p != foreign || !strings.Contains(err.Error(), foreign) {
		t.Errorf("a result of another configuration in the archive: %q, %v; want an error naming it", p, err)
	}
	if err := os.WriteFile(foreign, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFinished(other, Options{RunsDir: t.TempDir(), Archive: archive}); err == nil || !strings.Contains(err.Error(), foreign+" is not a valid gzip file") {
		t.Errorf("a corrupt archived result: %v; want it named", err)
	}
	plain, _ := os.Stat(filepath.Join(src.RunsDir, "quick", "narma5", "dw-K8-s4", ResultFile))
	packed, _ := os.Stat(dst)
	if plain == nil || packed == nil || packed.Size()*3 > plain.Size() {
		t.Errorf("the archived result is not compact: %v vs %v", packed, plain)
	}
}

func TestArchiveDefaults(t *testing.T) {
	if got := (Options{RunsDir: t.TempDir()}).archiveDir(); got != "" {
		t.Errorf("with a run tree of its own, the archive is %q, want none", got)
	}
	if got := (Options{}).archiveDir(); !strings.HasSuffix(got, filepath.Join("data", "results", "runs")) {
		t.Errorf("default archive %q, want <repo>/data/results/runs", got)
	}
	if got := (Options{RunsDir: "x", Archive: "y"}).archiveDir(); got != "y" {
		t.Errorf("explicit archive %q, want y", got)
	}
	if got := (Options{Archive: "y", NoArchive: true}).archiveDir(); got != "" {
		t.Errorf("NoArchive with an explicit archive: %q, want none", got)
	}
	if got := (Options{NoArchive: true}).archiveDir(); got != "" {
		t.Errorf("NoArchive: default archive %q, want none", got)
	}
}
