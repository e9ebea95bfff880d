package diag_test

import (
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

func TestSplitRows(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	ds, err := diag.NonIdentifiable(T, []float64{0.3, 0.7})
	if err != nil {
		t.Fatal(err)
	}
	rows, maxLaw, err := diag.SplitRows(T, ds, 20_000)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ds) || maxLaw > 1e-15 {
		t.Fatalf("%d rows for %d splits, largest |law - T| %v", len(rows), len(ds), maxLaw)
	}
	for i, r := range rows {
		d := ds[i]
		if r.Shape != d.Shape || r.Fraction != d.Fraction || r.R != diag.Moment(d.R) || r.Unconstrained != d.Unconstrained || r.Constrained != d.Constrained {
			t.Errorf("row %d = %+v does not match split %+v", i, r, d)
		}
		// 2·10⁴ samples: the sampled moment is within a few 1/√n of T.
		if !close(r.Sample.II, T.II, 0.05) || !close(r.Sample.IJ, T.IJ, 0.05) || !close(r.Sample.JJ, T.JJ, 0.05) {
			t.Errorf("row %d: sample moment %v far from T", i, r.Sample)
		}
	}
	if got := diag.Moment(T).String(); got != "(1.000, 0.400, 0.800)" {
		t.Errorf("Moment = %q", got)
	}
	if got := (diag.Gains{1, 0.4375}).String(); got != "(1.000, 0.438)" {
		t.Errorf("Gains = %q", got)
	}
}

func TestExcessRiskTable(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	ds, err := diag.NonIdentifiable(T, []float64{0.5})
	if err != nil {
		t.Fatal(err)
	}
	header, rows := diag.ExcessRiskTable(ds)
	if len(header) != len(ds)+1 || len(rows) != len(ds)+1 {
		t.Fatalf("%d columns and %d rows for %d splits", len(header), len(rows), len(ds))
	}
	for i := range ds {
		if rows[i][i+1] != "0.000" {
			t.Errorf("diagonal entry %d = %s, want 0.000", i, rows[i][i+1])
		}
		for j := range ds {
			if strings.HasPrefix(rows[i][j+1], "-") {
				t.Errorf("row %d column %d = %s: the right gains are never beaten", i, j, rows[i][j+1])
			}
		}
	}
	if last := rows[len(rows)-1]; last[0] != "BPTT (1.000, 1.000)" {
		t.Errorf("last row %q, want BPTT's", last)
	}
	// Anti-correlated noise leaves w* at (1, 1): its row equals BPTT's.
	anti := rows[3]
	if anti[1] != rows[4][1] || anti[2] != rows[4][2] {
		t.Errorf("anti-correlated row %q differs from BPTT's %q", anti, rows[4])
	}
}

func TestCurves(t *testing.T) {
	pts, err := diag.GainsVsSNR(wiener.Sym2{II: 1, IJ: 0.3, JJ: 0.5}, wiener.Sym2{II: 0.2, IJ: -0.05, JJ: 1}, diag.LogSpace(1e-2, 1e2, 5))
	if err != nil {
		t.Fatal(err)
	}
	c := diag.Curves(pts)
	for i, p := range pts {
		if c.SNR[i] != p.SNR || c.Alpha[i] != p.Alpha || c.M[i] != p.M || c.UncAlpha[i] != p.Unconstrained[0] || c.UncM[i] != p.Unconstrained[1] {
			t.Errorf("column %d differs from point %+v", i, p)
		}
	}
	if len(c.SNR) != 5 || len(c.UncM) != 5 {
		t.Errorf("columns of %d and %d values, want 5", len(c.SNR), len(c.UncM))
	}
}
