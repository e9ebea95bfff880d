package model

import (
	"fmt"
	"slices"
)

// Window shifts (Config.Shift, Spec.Shift): a level-invariant read-in. Before a rollout, each
// window's history is shifted by a per-window, per-coordinate offset c computed from the history
// alone; the forecaster runs on x − c and its forecasts are shifted back by + c. A constant added
// to a window's history then adds exactly that constant to its forecasts, whatever the
// parameters: the model learns the series' motion, not the levels it saw in training (ETT's
// training year holds each load level once; the test months sit elsewhere).
//
// The shift is applied outside the graphs, by dwlib/train's Trainer (to every training batch:
// history and targets) and Predictor (to every forecast window), so the step and unrolled
// engines, every method and the DW probes are unchanged: a constant shift changes neither the
// residuals x̂ − x* nor any Jacobian. It leaves the mean squared error unchanged too, but not the
// relative L2's denominator ‖x*‖, which is why a shifted model trains with the MSE loss (the
// Trainer refuses rel-L2). Scores are always computed on the unshifted forecasts.
const (
	ShiftNone = ""     // no shift (the paper's read-in)
	ShiftLast = "last" // c = the window's last observed state: a zero forecast of x − c is persistence
	ShiftMean = "mean" // c = the mean of the window's observed states, per coordinate
)

// Shifts lists the valid Shift values.
var Shifts = []string{ShiftNone, ShiftLast, ShiftMean}

// checkShift names an unknown shift.
func checkShift(field, s string) error {
	if !slices.Contains(Shifts, s) {
		return fmt.Errorf("model: %s = %q, valid values are %q (none), %q and %q", field, s, ShiftNone, ShiftLast, ShiftMean)
	}
	return nil
}

// ShiftOffsets returns the offsets c [N, D] of n windows whose histories hist hold [N, W, D]
// values (row-major, oldest state first) for the given shift; nil for ShiftNone.
func ShiftOffsets(shift string, hist []float64, n, w, d int) ([]float64, error) {
	if err := checkShift("shift", shift); err != nil {
		return nil, err
	}
	if len(hist) != n*w*d || w < 1 {
		return nil, fmt.Errorf("model: ShiftOffsets: %d history values for %d windows of %d states of dimension %d", len(hist), n, w, d)
	}
	if shift == ShiftNone {
		return nil, nil
	}
	c := make([]float64, n*d)
	for i := range n {
		win := hist[i*w*d : (i+1)*w*d]
		ci := c[i*d : (i+1)*d]
		switch shift {
		case ShiftLast:
			copy(ci, win[(w-1)*d:])
		case ShiftMean:
			for t := range w {
				for j := range d {
					ci[j] += win[t*d+j]
				}
			}
			for j := range ci {
				ci[j] /= float64(w)
			}
		}
	}
	return c, nil
}

// SubtractOffsets returns a copy of xs ([N, T, D] row-major) with each window's offset c[i] ([N, D])
// subtracted from every one of its T states; AddOffsets adds it back. Both leave xs unchanged.
func SubtractOffsets(xs, c []float64, n, t, d int) []float64 { return addOffsets(xs, c, n, t, d, -1) }

// AddOffsets is SubtractOffsets' inverse: each window's offset added to its T states, in a copy.
func AddOffsets(xs, c []float64, n, t, d int) []float64 { return addOffsets(xs, c, n, t, d, 1) }

func addOffsets(xs, c []float64, n, t, d int, sign float64) []float64 {
	out := make([]float64, len(xs))
	for i := range n {
		for s := range t {
			off := (i*t + s) * d
			for j := range d {
				out[off+j] = xs[off+j] + sign*c[i*d+j]
			}
		}
	}
	return out
}
