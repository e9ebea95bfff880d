package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// LockFile is the lock file of a run directory, present while a Run works there.
const LockFile = "lock"

// ErrLocked is returned (as a *LockedError) when another process, or another Run in this one,
// holds the run directory.
var ErrLocked = errors.New("run directory is in use")

// LockHolder is what a lock file says about the Run holding it, so that a refused one can name it.
type LockHolder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Start   time.Time `json:"start"`
	Command string    `json:"command"`
}

// LockedError says who holds a run directory.
type LockedError struct {
	Dir    string
	Holder *LockHolder // nil when the holder has not written its name yet
}

func (e *LockedError) Error() string {
	if h := e.Holder; h != nil {
		return fmt.Sprintf("experiment: run directory %s is in use by pid %d on %s since %s (%s); wait for it to end or stop it",
			e.Dir, h.PID, h.Host, h.Start.Format(time.RFC3339), h.Command)
	}
	return fmt.Sprintf("experiment: run directory %s is in use by another process; wait for it to end or stop it", e.Dir)
}

func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// runLock is an exclusive lock on a run directory: flock(2) on <dir>/lock, taken without waiting
// before Run reads or writes anything there and held until it returns. Two processes (or two Runs
// in one process: flock locks belong to the open file, not the process) can therefore never train
// into one directory, and the second is refused at once with the first one's pid, host, start time
// and command line. The kernel drops the lock when its process ends however it ends (kill -9
// included), so a file left by a killed process never blocks anyone: its content only names a
// holder, and is rewritten by the next one.
//
// release removes the lock file before unlocking; a process that opened the file just before that
// finds, once it holds the lock, that the path no longer names its file, and starts again on the
// current one. When Run made the directory itself and wrote nothing into it (a run refused after
// its checks, or failing on its data), release removes the directory too, and the parents it made.
type runLock struct {
	f       *os.File
	path    string
	created []string // the directories lockRunDir made, deepest first
}

// lockRunDir takes the lock of dir, creating dir (and its parents) if needed, and removes the
// temporary files a killed writer may have left there (with the lock held, no one is writing).
func lockRunDir(dir string) (*runLock, error) {
	var created []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) || d == filepath.Dir(d) {
			break
		}
		created = append(created, d)
	}
	path := filepath.Join(dir, LockFile)
	for attempt := 0; ; attempt++ {
		if attempt == 10 {
			return nil, fmt.Errorf("experiment: locking %s: the lock file keeps being replaced", dir)
		}
		// A releasing holder may remove the (empty) directories between these steps: start again.
		if err := os.MkdirAll(dir, 0o755); errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		// O_NOFOLLOW: a link planted under the lock's name would have its target overwritten by
		// the holder's name (ELOOP is what the open returns for a link).
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if errors.Is(err, syscall.ELOOP) {
			return nil, symlinkError(path)
		}
		if err != nil {
			return nil, fmt.Errorf("experiment: locking %s: %w", dir, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder := readHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &LockedError{Dir: dir, Holder: holder}
			}
			return nil, fmt.Errorf("experiment: locking %s: %w", path, err)
		}
		if cur, err := os.Stat(path); err != nil || !sameFile(f, cur) {
			f.Close() // we locked a file its holder removed on release: take the current one
			continue
		}
		l := &runLock{f: f, path: path, created: created}
		if err := refuseSymlinks(dir); err != nil {
			l.release()
			return nil, err
		}
		if err := l.writeHolder(); err != nil {
			l.release()
			return nil, err
		}
		removeStaleTemps(dir)
		return l, nil
	}
}

func sameFile(f *os.File, fi os.FileInfo) bool {
	mine, err := f.Stat()
	return err == nil && os.SameFile(mine, fi)
}

// writeHolder records this process in the lock file.
func (l *runLock) writeHolder() error {
	host, _ := os.Hostname()
	b, _ := json.Marshal(LockHolder{PID: os.Getpid(), Host: host, Start: time.Now().Round(time.Second), Command: strings.Join(os.Args, " ")})
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("experiment: writing %s: %w", l.path, err)
	}
	if _, err := l.f.WriteAt(append(b, '\n'), 0); err != nil {
		return fmt.Errorf("experiment: writing %s: %w", l.path, err)
	}
	return nil
}

// readHolder reads the holder a lock file names (nil if it names none yet).
func readHolder(f *os.File) *LockHolder {
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, 0)
	var h LockHolder
	if json.Unmarshal(buf[:n], &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}

// runFiles are the files a Run reads and writes in its directory besides the lock.
var runFiles = []string{ConfigFile, ResultFile, CheckpointFile, BestFile}

// refuseSymlinks refuses a run directory in which one of runFiles is a symbolic link. The files are
// written by renaming a temporary file over them, which replaces a link rather than following it,
// but they are read first: a link would make the run resume from, compare with or report a file
// outside its directory. Checked with the lock held, so no Run of this project changes them
// meanwhile.
func refuseSymlinks(dir string) error {
	for _, name := range runFiles {
		path := filepath.Join(dir, name)
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return symlinkError(path)
		}
	}
	return nil
}

func symlinkError(path string) error {
	return fmt.Errorf("experiment: %s is a symbolic link: a run writes only its own files, never through a link; remove it (the file it points to is left as it is)", path)
}

// removeStaleTemps removes the temporary files of a run directory's files (see
// dwlib/internal/atomicfile), which only a writer killed mid-write leaves.
func removeStaleTemps(dir string) {
	for _, f := range runFiles {
		tmps, _ := filepath.Glob(filepath.Join(dir, "."+f+".*.tmp"))
		for _, t := range tmps {
			os.Remove(t)
		}
	}
}

// release removes the lock file and unlocks; it removes the directories lockRunDir made as well
// if they are empty (nothing was written).
func (l *runLock) release() error {
	rmErr := os.Remove(l.path)
	closeErr := l.f.Close() // unlocks
	for _, d := range l.created {
		os.Remove(d) // fails, as it should, unless the directory is empty
	}
	if rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
		return fmt.Errorf("experiment: releasing the lock: %w", rmErr)
	}
	return closeErr
}
