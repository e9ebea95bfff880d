package resultsdoc

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"

	"github.com/internal-dw/dwgo/dwlib/train"
)

// gradNorm reads an archived run (data/results/runs/<run>/result.json.gz, run as
// "profile/testbed/method-K32-s0") and says how large its gradient grew before clipping
// (train.GradNormRange): "L at epoch E (median M)", both norms to two significant digits.
func (s *source) gradNorm(run string) (string, error) {
	name := "runs/" + run + "/result.json.gz"
	doc, err := s.read(name)
	if err != nil {
		return "", err
	}
	zr, err := gzip.NewReader(bytes.NewReader([]byte(doc)))
	if err != nil {
		return "", fmt.Errorf("data/results/%s: %w", name, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return "", fmt.Errorf("data/results/%s: %w", name, err)
	}
	var r struct {
		Epochs []train.EpochRecord `json:"epochs"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("data/results/%s: %w", name, err)
	}
	largest, median, epoch := train.GradNormRange(r.Epochs)
	if epoch == 0 {
		return "", fmt.Errorf("data/results/%s: no epoch records a gradient norm", name)
	}
	return fmt.Sprintf("%.2g at epoch %d (median %.2g)", largest, epoch, median), nil
}
