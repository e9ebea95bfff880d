package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/train"
)

// RunState is where one run of a grid stands: what a sweep would do with it. A plan that says
// which runs are done, which continue and which start from nothing is what a person picking a
// long sweep back up (another session, another machine, a cluster job) needs first.
type RunState struct {
	// Finished says where a finished run's result is read back from: InRunDir or InArchive;
	// "" for a run that has not finished.
	Finished string
	// Epoch is the last finished epoch of an unfinished run's checkpoint: where a resumed sweep
	// continues (0: no checkpoint, a fresh start). Epochs is the run's planned epoch count.
	Epoch, Epochs int
}

// Where a finished run's result is found (RunState.Finished).
const (
	InRunDir  = "run directory"
	InArchive = "archive"
)

// String says the state in a few words: "finished (archive)", "part-way: epoch 11 of 100",
// "not started".
func (s RunState) String() string {
	switch {
	case s.Finished != "":
		return "finished (" + s.Finished + ")"
	case s.Epoch > 0:
		return fmt.Sprintf("part-way: epoch %d of %d", s.Epoch, s.Epochs)
	}
	return "not started"
}

// StateOf reads cfg's state from its run directory and the archive (as opt resolves them)
// without changing either. A result of another run, or a checkpoint that cannot be read, is an
// error naming the file: a sweep would refuse it too.
func StateOf(cfg RunConfig, opt Options) (RunState, error) {
	st := RunState{Epochs: cfg.Fit.Epochs}
	dir, err := opt.Dir(cfg)
	if err != nil {
		return st, err
	}
	r, p, err := ReadFinished(cfg, opt)
	if err != nil {
		return st, err
	}
	if r != nil {
		st.Finished = InArchive
		if p == filepath.Join(dir, ResultFile) {
			st.Finished = InRunDir
		}
		return st, nil
	}
	ckpt := filepath.Join(dir, CheckpointFile)
	info, err := train.Inspect(ckpt)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("experiment: %s: %w", ckpt, err)
	}
	st.Epoch = info.Epoch
	return st, nil
}
