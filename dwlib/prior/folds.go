package prior

import (
	"fmt"
)

// Span is a half-open range [Start, End) of rows of the concatenated
// training timeline (sequences laid end to end in order).
type Span struct{ Start, End int }

// Len is End-Start.
func (s Span) Len() int { return s.End - s.Start }

// TimeFold is one fold of blocked cross-fitting (App. "iEEG: Predicting
// Shared Temporal Factors"): the contiguous held-out block H_f and the fit
// set I_f, which excludes H_f and Gap rows on both sides of it.
type TimeFold struct {
	// Block is the whole held-out block on the timeline.
	Block Span
	// Held are the pieces of Block inside single sequences (Block itself when
	// sequence boundaries are ignored); held-out origins lie in them.
	Held []Span
	// Fit are the fit segments: maximal runs of rows outside
	// [Block.Start-Gap, Block.End+Gap) and, unless sequence boundaries are
	// ignored, inside one sequence. A lag window that is complete inside one
	// fit segment therefore never touches the held-out block or its gap.
	Fit []Span
	// Gap is the purge gap used on both sides.
	Gap int
}

// TimeFolds cuts the timeline of sequences with the given lengths into folds
// contiguous held-out blocks of (nearly) equal length, block f being
// [floor(f*N/folds), floor((f+1)*N/folds)) for N rows in all, and returns
// each block with its purged fit segments.
//
// crossSequences = false (the paper: "complete lag window inside one fit
// segment") splits blocks and segments at sequence boundaries, so no lag
// window spans two sequences. true is the authors' code
// (scripts/probes/probe_ieeg_blocked_longmemory_templates.py flattens the
// training chunks into one series), where a window may cross a chunk
// boundary.
func TimeFolds(lengths []int, folds, gap int, crossSequences bool) ([]TimeFold, error) {
	if folds < 2 {
		return nil, fmt.Errorf("prior: TimeFolds: folds=%d must be >= 2", folds)
	}
	if gap < 0 {
		return nil, fmt.Errorf("prior: TimeFolds: purge gap=%d must be >= 0", gap)
	}
	if len(lengths) == 0 {
		return nil, fmt.Errorf("prior: TimeFolds: no sequences")
	}
	var seqs []Span
	n := 0
	for i, l := range lengths {
		if l < 1 {
			return nil, fmt.Errorf("prior: TimeFolds: sequence %d has length %d, must be >= 1", i, l)
		}
		seqs = append(seqs, Span{n, n + l})
		n += l
	}
	if n < folds {
		return nil, fmt.Errorf("prior: TimeFolds: %d rows cannot make %d folds", n, folds)
	}
	if crossSequences {
		seqs = []Span{{0, n}}
	}
	out := make([]TimeFold, folds)
	for f := range folds {
		b := Span{f * n / folds, (f + 1) * n / folds}
		excl := Span{b.Start - gap, b.End + gap}
		tf := TimeFold{Block: b, Gap: gap}
		for _, s := range seqs {
			if h := intersect(s, b); h.Len() > 0 {
				tf.Held = append(tf.Held, h)
			}
			if l := intersect(s, Span{s.Start, excl.Start}); l.Len() > 0 {
				tf.Fit = append(tf.Fit, l)
			}
			if r := intersect(s, Span{excl.End, s.End}); r.Len() > 0 {
				tf.Fit = append(tf.Fit, r)
			}
		}
		out[f] = tf
	}
	return out, nil
}

func intersect(a, b Span) Span {
	s := Span{max(a.Start, b.Start), min(a.End, b.End)}
	if s.End < s.Start {
		s.End = s.Start
	}
	return s
}

// originsIn lists origins o (first target row) in the spans whose history
// o-hist..o-1 and targets o..o+K-1 lie inside one span, every stride-th one
// starting at span.Start+hist. hist is at least 1: the predictors need the
// last observed row.
func originsIn(spans []Span, hist, K, stride int) []int {
	hist = max(hist, 1)
	var out []int
	for _, s := range spans {
		for o := s.Start + hist; o+K <= s.End; o += stride {
			out = append(out, o)
		}
	}
	return out
}

// concatRows lays sequences end to end, aliasing their rows, and returns the
// rows with the sequence lengths. Rows must all have the same dimension.
func concatRows(who string, seqs [][][]float64) (rows [][]float64, lengths []int, D int, err error) {
	if len(seqs) == 0 {
		return nil, nil, 0, fmt.Errorf("prior: %s: no sequences", who)
	}
	for i, s := range seqs {
		if len(s) == 0 {
			return nil, nil, 0, fmt.Errorf("prior: %s: sequence %d is empty", who, i)
		}
		for t, r := range s {
			if i == 0 && t == 0 {
				D = len(r)
				if D == 0 {
					return nil, nil, 0, fmt.Errorf("prior: %s: sequence 0 row 0 has dimension 0", who)
				}
			}
			if len(r) != D {
				return nil, nil, 0, fmt.Errorf("prior: %s: sequence %d row %d has dimension %d, want %d", who, i, t, len(r), D)
			}
		}
		rows = append(rows, s...)
		lengths = append(lengths, len(s))
	}
	return rows, lengths, D, nil
}
