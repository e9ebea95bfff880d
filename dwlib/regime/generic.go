package regime

import "fmt"

// GenericConfig is a probe configuration for data the paper never probed (a user's CSV file):
// the paper's procedure with settings chosen the way its settings table chooses them for its
// own testbeds. The history PCA keeps min(8, stateDim) components, q = 32; the horizons are
// 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128 up to the training horizon K (the long-horizon scores
// average k >= 8, so K must reach 8); the candidate widths are 1, 2, 4, 8, 16, 32 that fit in a
// unit of unitLen rows beside the longest horizon. The test split is scored (the paper's text).
//
// DriveShift is −1: in this project's CSV convention row t's drive acts over the step t → t+1, so
// the drive that produced the states X[s..s+k−1] is Drive[s−1..s+k−2] (see Config.DriveShift).
func GenericConfig(stateDim, K, unitLen int) (Config, error) {
	if stateDim < 1 {
		return Config{}, fmt.Errorf("regime: GenericConfig: state dimension %d, want >= 1", stateDim)
	}
	var hs []int
	for _, h := range []int{1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128} {
		if h <= K && h < unitLen {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 || hs[len(hs)-1] < 8 {
		return Config{}, fmt.Errorf("regime: GenericConfig: the long-horizon scores need a horizon of at least 8 steps; "+
			"the training horizon K = %d and the unit length %d allow %v", K, unitLen, hs)
	}
	maxH := hs[len(hs)-1]
	var ws []int
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		if w+maxH <= unitLen {
			ws = append(ws, w)
		}
	}
	return Config{Horizons: hs, Windows: ws, PCADim: min(8, stateDim), Neighbors: DefaultNeighbors,
		Score: ScoreTest, DriveShift: -1}.withDefaults()
}
