package experiment

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/train"
)

func TestEpochSeconds(t *testing.T) {
	for _, c := range []struct {
		name   string
		epochs []train.EpochRecord
		want   float64
	}{
		{"no epochs", nil, 0},
		{"one epoch", []train.EpochRecord{{TrainSeconds: 2, ValSeconds: 0.5}}, 2.5},
		// A run resumed after epoch 2: its history keeps the first process's epochs.
		{"resumed", []train.EpochRecord{{TrainSeconds: 2, ValSeconds: 1}, {TrainSeconds: 3, ValSeconds: 1}, {TrainSeconds: 4, ValSeconds: 0.25}}, 11.25},
	} {
		r := &Result{Epochs: c.epochs, WallSeconds: 1}
		if got := r.EpochSeconds(); got != c.want {
			t.Errorf("%s: EpochSeconds = %v, want %v", c.name, got, c.want)
		}
	}
}
