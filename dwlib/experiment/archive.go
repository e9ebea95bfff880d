package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// The archive is a read-only tree of finished runs' results, laid out like the run directories
// (<archive>/<profile>/<testbed>/<run>/result.json.gz, compact gzip JSON) and small enough to
// commit: checkpoints stay
// behind, so a fresh clone reads the project's finished runs back (tables, regime maps,
// notebooks) without training them again, while anything that needs the parameters (dw eval,
// diagnostics at a checkpoint) still needs the run itself. A result in the run directory comes
// first; Force ignores the archive.

// ArchivedResultFile is a run's result in the archive.
const ArchivedResultFile = ResultFile + ".gz"

// DefaultArchiveDir is <repo>/data/results/runs, the archive committed with the project.
func DefaultArchiveDir() (string, error) {
	root, err := data.FindRepoRoot("")
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "data", "results", "runs"), nil
}

// archiveDir is where finished results are also looked for: none with opt.NoArchive, else
// opt.Archive, or the project's archive when the run directories are the project's too ("" when neither: a test's or a user's own
// RunsDir never reads the project's results by surprise).
func (opt Options) archiveDir() string {
	switch {
	case opt.NoArchive:
		return ""
	case opt.Archive != "":
		return opt.Archive
	case opt.RunsDir != "":
		return ""
	}
	dir, err := DefaultArchiveDir()
	if err != nil {
		return ""
	}
	return dir
}

// ReadFinished returns the result of cfg's finished run from its run directory or, failing that,
// from the archive, with the file it came from; nil (and no error) when neither has it. A result
// that is there but unreadable or of another configuration is an error naming the file.
func ReadFinished(cfg RunConfig, opt Options) (*Result, string, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, "", err
	}
	paths := []string{filepath.Join(dir, ResultFile)}
	if a := opt.archiveDir(); a != "" {
		paths = append(paths, filepath.Join(a, filepath.FromSlash(cfg.Name()), ArchivedResultFile))
	}
	// A run's own result is never read through a link (lock.go, refuseSymlinks).
	if fi, err := os.Lstat(paths[0]); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, paths[0], symlinkError(paths[0])
	}
	for _, p := range paths {
		r, err := ReadResult(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, p, err
		}
		if err := sameRun(r, cfg, opt, p); err != nil {
			return nil, p, err
		}
		return r, p, nil
	}
	return nil, "", nil
}

// ErrAlreadyArchived is ArchiveRun's answer for a run that is only in the archive: nothing to copy.
var ErrAlreadyArchived = errors.New("already archived")

// ArchiveRun copies the result of cfg's finished run from its run directory into the archive
// (opt.Archive, or the project's) and returns the file written. The run's fixed-horizon scores
// (FixedHorizonFile, a horizon sweep's evaluations) go with it: they need the checkpoint to be
// computed again, so without them an archived run drops out of a sweep. An unfinished run is an
// error; a run whose directory has no result but whose archived result is there and valid (it
// was archived on this or another machine and is read back from there) returns that file with
// ErrAlreadyArchived.
func ArchiveRun(cfg RunConfig, opt Options) (string, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return "", err
	}
	src := filepath.Join(dir, ResultFile)
	r, err := ReadResult(src)
	if errors.Is(err, fs.ErrNotExist) {
		withArchive := opt
		withArchive.NoArchive = false
		if _, p, err := ReadFinished(cfg, withArchive); err != nil {
			return "", err
		} else if p != "" && p != src {
			return p, ErrAlreadyArchived
		}
		return "", fmt.Errorf("experiment: %s has not finished (no %s)", cfg.Name(), src)
	}
	if err != nil {
		return "", err
	}
	if err := sameRun(r, cfg, opt, src); err != nil {
		return "", err
	}
	archive := opt.Archive
	if archive == "" {
		if archive, err = DefaultArchiveDir(); err != nil {
			return "", err
		}
	}
	dst := filepath.Join(archive, filepath.FromSlash(cfg.Name()), ArchivedResultFile)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	if err := WriteResult(dst, r); err != nil {
		return "", err
	}
	scores, err := filepath.Glob(filepath.Join(dir, fixedHorizonFiles))
	if err != nil {
		return "", err
	}
	for _, src := range scores {
		b, err := os.ReadFile(src)
		if err != nil {
			return "", err
		}
		if err := writeFileAtomic(filepath.Join(filepath.Dir(dst), filepath.Base(src)), b); err != nil {
			return "", err
		}
	}
	return dst, nil
}

// ArchiveAfterRun is an Options.AfterRun that archives each run of a sweep as it finishes
// (ArchiveRun with opt), so a sweep cut short by the end of a session or a job's time limit
// leaves every run it finished in the archive, not only in run directories that may not
// outlive the machine. A run read back from the archive is already there.
func ArchiveAfterRun(opt Options) func(Outcome) error {
	return func(o Outcome) error {
		if _, err := ArchiveRun(o.Config, opt); err != nil && !errors.Is(err, ErrAlreadyArchived) {
			return err
		}
		return nil
	}
}
