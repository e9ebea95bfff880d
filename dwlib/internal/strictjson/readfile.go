package strictjson

import (
	"fmt"
	"io"
	"os"
)

// MaxFileBytes bounds a JSON file a user hands the project (a run configuration, a data spec):
// the largest the project writes is a few kilobytes, and reading a file of any size whole before
// refusing it would let a mistaken path (a data file, a device) take the memory and the time
// of the machine.
const MaxFileBytes = 1 << 20

// ReadFile reads a file of at most MaxFileBytes, refusing a larger one by its size without
// reading it whole.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("%s: more than %d bytes, at most %d for a JSON configuration (is it the file you meant?)", path, MaxFileBytes, MaxFileBytes)
	}
	return b, nil
}
