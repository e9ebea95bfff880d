package train

import "math"

func sqrtOr1(s float64) float64 {
	if s <= 0 {
		return 1
	}
	return math.Sqrt(s)
}
