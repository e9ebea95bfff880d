package eval

import "fmt"

// packer fills ForecastBatch calls of exactly size windows from consecutive units, scoring each
// call's forecasts in order as it returns and closing a unit after its last origin.
type packer struct {
	bf    BatchForecaster
	H     int
	size  int
	units []Unit
	score func(u, o int, pred [][]float64, X [][]float64) error
	acc   *accumulator

	ws   []Window
	at   []packed
	last []bool // at[i] is its unit's last origin
}

// packed names the unit and origin of a queued window.
type packed struct{ u, o int }

// add queues one window; a full queue is forecast and scored at once.
func (p *packer) add(w Window, u, o int, lastOfUnit bool) error {
	p.ws, p.at, p.last = append(p.ws, w), append(p.at, packed{u, o}), append(p.last, lastOfUnit)
	if len(p.ws) < p.size {
		return nil
	}
	return p.flush()
}

// flush forecasts and scores the queued windows (nothing when none are queued).
func (p *packer) flush() error {
	if len(p.ws) == 0 {
		return nil
	}
	preds, err := p.bf.ForecastBatch(p.ws, p.H)
	if err != nil {
		return fmt.Errorf("eval.Evaluate: %s: forecaster: %w", p.describe(), err)
	}
	if len(preds) != len(p.ws) {
		return fmt.Errorf("eval.Evaluate: %s: forecaster returned %d forecasts for %d origins", p.describe(), len(preds), len(p.ws))
	}
	for i, pred := range preds {
		a := p.at[i]
		if err := p.score(a.u, a.o, pred, p.units[a.u].X); err != nil {
			return err
		}
		if p.last[i] {
			if err := p.acc.endUnit(); err != nil { // unreachable: a unit's last origin was scored
				return fmt.Errorf("eval.Evaluate: unit %d: %w", a.u, err)
			}
		}
	}
	p.ws, p.at, p.last = p.ws[:0], p.at[:0], p.last[:0]
	return nil
}

// describe names the queued windows by unit and origins, as errors report them.
func (p *packer) describe() string {
	s := ""
	for i := 0; i < len(p.at); {
		j := i
		var os []int
		for ; j < len(p.at) && p.at[j].u == p.at[i].u; j++ {
			os = append(os, p.at[j].o)
		}
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("unit %d, origins %v", p.at[i].u, os)
		i = j
	}
	return s
}
