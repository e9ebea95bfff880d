package experiment

import (
	"fmt"
	"slices"
	"strings"
)

// ProfileChoice is the profile ChooseByValidation picks from rows of Compare.
type ProfileChoice struct {
	Profile string
	// Seeds are the seeds every candidate finished, on which the choice was made; MeanVal holds
	// each candidate's mean best validation loss over them, in the rows' order.
	Seeds   []uint64
	MeanVal []float64
}

// ChooseByValidation picks, among Compare rows of one testbed and method, the profile with the
// lowest mean best validation loss over the seeds that every row has finished: the selection
// rule of a recipe, which never reads the test split. The validation loss is eq. (8) over
// h = 1..K whatever the training loss, so profiles that train on different losses compare. A
// tie goes to the earlier row. It is an error when no seed has finished under every profile.
func ChooseByValidation(rows []CompareRow) (ProfileChoice, error) {
	if len(rows) == 0 {
		return ProfileChoice{}, fmt.Errorf("experiment: ChooseByValidation: no candidates")
	}
	common := slices.Clone(rows[0].Seeds)
	for _, r := range rows[1:] {
		common = slices.DeleteFunc(common, func(s uint64) bool { return !slices.Contains(r.Seeds, s) })
	}
	if len(common) == 0 {
		var names []string
		for _, r := range rows {
			names = append(names, fmt.Sprintf("%s (seeds %v)", r.Profile, r.Seeds))
		}
		return ProfileChoice{}, fmt.Errorf("experiment: ChooseByValidation: no seed has finished under every profile: %s", strings.Join(names, ", "))
	}
	c := ProfileChoice{Seeds: common}
	best := -1
	for i, r := range rows {
		sum := 0.0
		for _, s := range common {
			sum += r.BestVal[slices.Index(r.Seeds, s)]
		}
		c.MeanVal = append(c.MeanVal, sum/float64(len(common)))
		if best < 0 || c.MeanVal[i] < c.MeanVal[best] {
			best = i
		}
	}
	c.Profile = rows[best].Profile
	return c, nil
}
