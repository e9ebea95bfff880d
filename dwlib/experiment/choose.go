package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Criteria of ChooseByValidation: both read the validation split only.
const (
	// ByValLoss compares the runs' best validation losses: eq. (8) over h = 1..K from the
	// training context, the loss that picks each run's checkpoint.
	ByValLoss = "val-loss"
	// ByValAtTest compares their checkpoints on the validation split under the test protocol
	// (Result.ValAtTest): the horizon, context and origins the test reads, under which the
	// baselines are chosen too.
	ByValAtTest = "val-at-test"
)

// ProfileChoice is the profile ChooseByValidation picks from rows of Compare.
type ProfileChoice struct {
	Profile   string
	Criterion string // ByValLoss or ByValAtTest
	// Seeds are the seeds every candidate finished, on which the choice was made; MeanVal holds
	// each candidate's mean best validation loss over them, in the rows' order.
	Seeds   []uint64
	MeanVal []float64
}

// ChooseByValidation picks, among Compare rows of one testbed and method, the profile with the
// lowest mean validation score under criterion (ByValLoss or ByValAtTest) over the seeds that
// every row has finished and scored: the selection rule of a recipe, which never reads the test
// split. Both scores are eq. (8) whatever the training loss, so profiles that train on different
// losses compare. A tie goes to the earlier row. It is an error when no seed has a score under
// every profile.
func ChooseByValidation(rows []CompareRow, criterion string) (ProfileChoice, error) {
	if len(rows) == 0 {
		return ProfileChoice{}, fmt.Errorf("experiment: ChooseByValidation: no candidates")
	}
	score := func(r CompareRow, i int) float64 { return r.BestVal[i] }
	switch criterion {
	case ByValLoss:
	case ByValAtTest:
		score = func(r CompareRow, i int) float64 {
			if i < len(r.ValAtTest) {
				return r.ValAtTest[i]
			}
			return math.NaN()
		}
	default:
		return ProfileChoice{}, fmt.Errorf("experiment: ChooseByValidation: criterion %q, want %q or %q", criterion, ByValLoss, ByValAtTest)
	}
	scored := func(r CompareRow, s uint64) bool {
		i := slices.Index(r.Seeds, s)
		return i >= 0 && !math.IsNaN(score(r, i))
	}
	common := slices.Clone(rows[0].Seeds)
	for _, r := range rows {
		common = slices.DeleteFunc(common, func(s uint64) bool { return !scored(r, s) })
	}
	if len(common) == 0 {
		var names []string
		for _, r := range rows {
			names = append(names, fmt.Sprintf("%s (seeds %v)", r.Profile, r.Seeds))
		}
		return ProfileChoice{}, fmt.Errorf("experiment: ChooseByValidation (%s): no seed has a score under every profile: %s", criterion, strings.Join(names, ", "))
	}
	c := ProfileChoice{Criterion: criterion, Seeds: common}
	best := -1
	for i, r := range rows {
		sum := 0.0
		for _, s := range common {
			sum += score(r, slices.Index(r.Seeds, s))
		}
		c.MeanVal = append(c.MeanVal, sum/float64(len(common)))
		if best < 0 || c.MeanVal[i] < c.MeanVal[best] {
			best = i
		}
	}
	c.Profile = rows[best].Profile
	return c, nil
}
