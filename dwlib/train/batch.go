package train

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// Batch is a minibatch of rollout windows in flat row-major float64 slices.
type Batch struct {
	N, Window, K, D, J int
	History            []float64 // [N, Window, D]: observed states, the last is the rollout's start
	Targets            []float64 // [N, K, D]: x*_{o+1..o+K}
	Drive              []float64 // [N, Window−1+K, J], nil when J = 0
}

// Validate checks sizes and finiteness, naming the field.
func (b *Batch) Validate() error {
	check := func(name string, xs []float64, want int) error {
		if len(xs) != want {
			return fmt.Errorf("train: Batch.%s has %d values, want %d", name, len(xs), want)
		}
		for i, v := range xs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("train: Batch.%s[%d] = %v", name, i, v)
			}
		}
		return nil
	}
	if err := check("History", b.History, b.N*b.Window*b.D); err != nil {
		return err
	}
	if err := check("Targets", b.Targets, b.N*b.K*b.D); err != nil {
		return err
	}
	if b.J > 0 {
		return check("Drive", b.Drive, b.N*(b.Window-1+b.K)*b.J)
	}
	return nil
}

// ToTensor copies float64 values into a new tensor of dtype (Float32 or Float64) and shape dims.
func ToTensor(dtype dtypes.DType, data []float64, dims ...int) *tensors.Tensor {
	if dtype == dtypes.Float64 {
		return tensors.FromFlatDataAndDimensions(append([]float64(nil), data...), dims...)
	}
	f := make([]float32, len(data))
	for i, v := range data {
		f[i] = float32(v)
	}
	return tensors.FromFlatDataAndDimensions(f, dims...)
}

// FromTensor copies a Float32 or Float64 tensor's values to float64 and finalizes the tensor.
func FromTensor(t *tensors.Tensor) []float64 {
	defer t.FinalizeAll()
	switch t.DType() {
	case dtypes.Float64:
		return tensors.MustCopyFlatData[float64](t)
	default:
		f := tensors.MustCopyFlatData[float32](t)
		out := make([]float64, len(f))
		for i, v := range f {
			out[i] = float64(v)
		}
		return out
	}
}

// Rows returns the windows [lo, hi) of b as a new batch sharing b's storage.
func (b *Batch) Rows(lo, hi int) *Batch {
	out := &Batch{N: hi - lo, Window: b.Window, K: b.K, D: b.D, J: b.J,
		History: b.History[lo*b.Window*b.D : hi*b.Window*b.D],
		Targets: b.Targets[lo*b.K*b.D : hi*b.K*b.D]}
	if b.J > 0 {
		n := (b.Window - 1 + b.K) * b.J
		out.Drive = b.Drive[lo*n : hi*n]
	}
	return out
}

// ModelBatch is MakeBatch shifted as m's Trainer shifts its batches (model.Spec.Shift): what a
// diagnostic that feeds m's graphs directly must give them to see what training saw.
func ModelBatch(m Model, units []data.Series, picks []Pick, g Geometry) (*Batch, error) {
	b, err := MakeBatch(units, picks, g)
	if err != nil {
		return nil, err
	}
	return ShiftBatch(b, m.Spec().Shift)
}

// ShiftBatch returns b with each window's offset (model.ShiftOffsets of its history) subtracted
// from its history and targets, in new storage; the drive is shared, unshifted. ShiftNone returns
// b itself.
func ShiftBatch(b *Batch, shift string) (*Batch, error) {
	c, err := model.ShiftOffsets(shift, b.History, b.N, b.Window, b.D)
	if err != nil || c == nil {
		return b, err
	}
	out := *b
	out.History = model.SubtractOffsets(b.History, c, b.N, b.Window, b.D)
	out.Targets = model.SubtractOffsets(b.Targets, c, b.N, b.K, b.D)
	return &out, nil
}
