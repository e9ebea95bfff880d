package knownsnr

import "fmt"

// HorizonGains are gains averaged over the layers at each forecast horizon k = 1..K
// (Alpha[k-1], M[k-1]).
type HorizonGains struct {
	Alpha, M []float64
}

// Mean returns the mean α and m over horizons lo..hi (1-based, inclusive).
func (h HorizonGains) Mean(lo, hi int) (alpha, m float64) {
	for k := lo; k <= hi; k++ {
		alpha += h.Alpha[k-1]
		m += h.M[k-1]
	}
	n := float64(hi - lo + 1)
	return alpha / n, m / n
}

// LayerMeanGains averages a flat [K][L][2] gain vector over its L layers, horizon by horizon.
func LayerMeanGains(flat []float64, K int) (HorizonGains, error) {
	if K < 1 || len(flat) == 0 || len(flat)%(2*K) != 0 {
		return HorizonGains{}, fmt.Errorf("knownsnr: %d gains do not form [K=%d][L][2]", len(flat), K)
	}
	L := len(flat) / (2 * K)
	h := HorizonGains{Alpha: make([]float64, K), M: make([]float64, K)}
	for k := range K {
		for l := range L {
			i := k*L + l
			h.Alpha[k] += flat[2*i] / float64(L)
			h.M[k] += flat[2*i+1] / float64(L)
		}
	}
	return h, nil
}

// GainsByHorizon returns the DW gains and the oracle's, as recorded at the last evaluated
// minibatch, averaged over layers per horizon. Set beside each other they show where the two
// disagree, which is what decides whether misplacing the DW gains helps or hurts.
func (r *Risk) GainsByHorizon() (dw, oracle HorizonGains, err error) {
	K := len(r.PerHorizon[SettingFull])
	if dw, err = LayerMeanGains(r.Gains, K); err != nil {
		return
	}
	oracle, err = LayerMeanGains(r.OracleGains, K)
	return
}
