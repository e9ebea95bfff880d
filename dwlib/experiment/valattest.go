package experiment

import (
	"fmt"
	"path/filepath"
)

// RecordValAtTest scores the best checkpoint of the finished run in dir on the validation split
// under the test protocol and writes it into the run's result as Result.ValAtTest (runs trained
// since the field exists have it already: it is returned unchanged). A result written before
// checksums existed is not rewritten.
func RecordValAtTest(dir string, opt Options) (TestScore, error) {
	path := filepath.Join(dir, ResultFile)
	r, err := ReadResult(path)
	if err != nil {
		return TestScore{}, err
	}
	if r.ValAtTest != nil {
		return *r.ValAtTest, nil
	}
	if !r.HasChecksum() {
		return TestScore{}, fmt.Errorf("experiment: %s was written before results had checksums; it is not rewritten", path)
	}
	_, s, err := EvaluateRunSpec(dir, EvalSpec{Split: SplitVal, Protocol: SplitTest}, opt)
	if err != nil {
		return TestScore{}, err
	}
	r.ValAtTest = &s
	return s, WriteResult(path, r)
}
