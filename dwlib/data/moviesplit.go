package data

import (
	"fmt"
	"math"
)

// MovieSplitPlan is the movie-time split of the paper's iEEG protocol: every
// recording of the same movie is split at the same movie times, 70/15/15,
// with an exclusion of Gap steps before each boundary so that no training
// chunk's last step is within Gap steps of a validation step (and likewise
// validation before test), then cut into chunks of ChunkLen steps from each
// segment's start (a trailing partial chunk is dropped).
type MovieSplitPlan struct {
	ChunkLen, Gap int
	// Bounds: train [0, Bounds[0]-Gap), val [Bounds[0], Bounds[1]-Gap),
	// test [Bounds[1], Length).
	Bounds [2]int
	Length int
	// Starts are the chunk start steps of each split.
	Train, Val, Test []int
}

// MovieSplit plans the split of a movie of length steps. The boundaries are
// round(0.70 length) and round(0.85 length). Each split needs at least one
// chunk; otherwise the error names the split and its steps.
func MovieSplit(length, chunk, gap int) (MovieSplitPlan, error) {
	if chunk < 1 || gap < 0 {
		return MovieSplitPlan{}, fmt.Errorf("chunk length %d must be >= 1 and gap %d >= 0", chunk, gap)
	}
	b1 := int(math.Round(.70 * float64(length)))
	b2 := int(math.Round(.85 * float64(length)))
	p := MovieSplitPlan{ChunkLen: chunk, Gap: gap, Bounds: [2]int{b1, b2}, Length: length}
	return p, p.cut()
}

// cut fills the chunk starts of p from its bounds, gap and length; a split
// without a whole chunk is an error naming it and its steps.
func (p *MovieSplitPlan) cut() error {
	b1, b2, gap, chunk := p.Bounds[0], p.Bounds[1], p.Gap, p.ChunkLen
	segs := [3][2]int{{0, b1 - gap}, {b1, b2 - gap}, {b2, p.Length}}
	dst := [3]*[]int{&p.Train, &p.Val, &p.Test}
	for k, s := range segs {
		*dst[k] = nil
		for st := s[0]; st+chunk <= s[1]; st += chunk {
			*dst[k] = append(*dst[k], st)
		}
		if len(*dst[k]) == 0 {
			return fmt.Errorf("the %s split has steps [%d, %d), fewer than one chunk of %d steps (gap %d): use a longer movie or shorter chunks",
				splitNames[k], s[0], max(s[0], s[1]), chunk, gap)
		}
	}
	return nil
}

// cutChunks returns the chunks of each recording at the given starts,
// recording-major, with their unit indices (recording r's chunk c of the
// whole movie is unit r*perRec + its position among all starts).
func cutChunks(recs []Series, starts []int, chunk int) []Series {
	var out []Series
	for _, r := range recs {
		for _, st := range starts {
			s := Series{X: r.X[st : st+chunk]}
			if r.Drive != nil {
				s.Drive = r.Drive[st : st+chunk]
			}
			out = append(out, s.Clone())
		}
	}
	return out
}

// movieDataset splits recordings of one movie by MovieSplit and standardises
// with the training chunks' statistics only (the drive keeps its raw scale).
func movieDataset(name string, recs []Series, p MovieSplitPlan, fit func([]Series) Normalizer) (*Dataset, error) {
	tr := cutChunks(recs, p.Train, p.ChunkLen)
	va := cutChunks(recs, p.Val, p.ChunkLen)
	te := cutChunks(recs, p.Test, p.ChunkLen)
	d, err := newDataset(name, tr, va, te, fit)
	if err != nil {
		return nil, err
	}
	idx := func(n int, off int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = off + i
		}
		return out
	}
	d.Split = Split{Train: idx(len(tr), 0), Val: idx(len(va), len(tr)), Test: idx(len(te), len(tr)+len(va))}
	return d, nil
}

// IEEGSplitPlan is the movie-time split ieeg-synth uses for a movie of
// length steps (0: DefaultIEEGLength): chunks of 1024 and exclusions of 256
// steps at the default length, scaled with the length below it.
func IEEGSplitPlan(length int) (MovieSplitPlan, error) {
	c := DefaultIEEGSynthConfig()
	if length > 0 {
		c.Length = length
	}
	chunk, gap := c.chunkGap()
	return MovieSplit(c.Length, chunk, gap)
}
