package resultsdoc

import (
	"fmt"
	"slices"
)

// paired is one matched-seed difference of a summary's paired table (`dw table`): "mean [lo, hi]"
// as the table prints them, for the row of testbed and difference ("clip − full"). A summary
// with a paired table but no such row gives "–": the method has fewer than two seeds matched
// with Full there, so there is no interval to quote, and a table of several recipes can say so
// in place. A summary with no paired table at all is an error, as is a missing file: the template
// names the wrong file.
func (s *source) paired(name, testbed, diff string) (string, error) {
	doc, err := s.read(name)
	if err != nil {
		return "", err
	}
	ts := parseTables(doc)
	i := slices.IndexFunc(ts, func(t table) bool { return indexOf(t.header, "difference") == 1 })
	if i < 0 {
		return "", fmt.Errorf("data/results/%s: no paired table (a column \"difference\" after \"testbed\")", name)
	}
	t := ts[i]
	mean, iv := indexOf(t.header, "mean"), indexOf(t.header, "95% interval")
	if mean < 0 || iv < 0 {
		return "", fmt.Errorf("data/results/%s: the paired table lacks the column \"mean\" or \"95%% interval\"", name)
	}
	for _, r := range t.rows {
		if len(r) > max(mean, iv) && r[0] == testbed && r[1] == diff {
			return r[mean] + " " + r[iv], nil
		}
	}
	return "–", nil
}
