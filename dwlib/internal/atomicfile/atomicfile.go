// Package atomicfile writes files so that a reader, a concurrent writer or a crash never sees a
// half-written file under the final name.
//
// A write goes to a temporary file of its own in the target's directory (os.CreateTemp, so two
// writers of one file never share a temporary name), which is flushed to disk (fsync) before it is
// renamed over the target; the directory is then flushed too, so the rename itself survives a
// power loss. A failed write removes its temporary file: nothing is left behind. A symbolic link
// under the target's name is replaced by the file, never written through (the temporary file is
// created with O_EXCL, and a rename replaces a link rather than following it).
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data (creating path's directory if needed). The file gets mode perm.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close() // a no-op error after a successful Close
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	// Flush the data before the rename: otherwise a crash can leave the new name on empty blocks.
	if err := f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// SyncDir flushes a directory's entries (renames, creations, removals) to disk.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}
