package experiment

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// memoryTerm is one part of a run's memory estimate: the configuration fields it grows with and a
// lower bound on its bytes.
type memoryTerm struct {
	fields, what string
	bytes        float64
}

// memoryTerms are lower bounds on what a run of c holds in memory, each far below the truth (no
// graph, no backend, no temporaries are counted), so that a configuration refused by them could
// never have run: a size typed with a few zeros too many ("hidden": 100000, "num_traj": 1e9) is
// refused at once instead of ending in "fatal error: runtime: out of memory" after minutes of
// graph building. Computed in float64, so no size overflows.
func (c RunConfig) memoryTerms() []memoryTerm {
	mc := c.Model
	hidden, layers := float64(max(mc.Hidden, 1)), float64(max(mc.Layers, 1))
	if mc.Hidden == 0 || mc.Layers == 0 {
		d, _ := c.modelConfig(1, 0)
		d = d.Defaults()
		hidden, layers = float64(d.Hidden), float64(d.Layers)
	}
	word := 4.0
	if mc.DType == "float64" {
		word = 8
	}
	numTraj, length := defaultSizes(c.Testbed)
	if c.Data.NumTraj > 0 {
		numTraj = c.Data.NumTraj
	}
	if c.Data.Length > 0 {
		length = c.Data.Length
	}
	window := float64(max(mc.Window, 1))
	return []memoryTerm{
		// Every kind's block has a hidden × hidden projection at least (Mamba's out-projection is
		// expand × hidden²), and training keeps values, gradients and Adam's two moments.
		{"model.hidden and model.layers", "the parameters, their gradients and Adam's two moments", 4 * layers * hidden * hidden * word},
		// The generated trajectories, raw and standardised, in float64.
		{"data.num_traj and data.length", "the generated trajectories", 2 * float64(numTraj) * float64(length) * 8},
		// Backpropagation through a rollout keeps at least one hidden vector per step and layer.
		{"train.batch_size", "the activations backpropagation keeps", float64(max(c.Train.BatchSize, 1)) * (window + float64(c.Train.K)) * layers * hidden * word},
		// A forward-only evaluation call holds at least one hidden vector per window and step.
		{"fit.eval_batch", "one evaluation call's activations", float64(max(c.Fit.EvalBatch, 1)) * float64(max(c.EvalWindow, 1)+c.HEval) * hidden * word},
	}
}

// checkMemory refuses a configuration whose lower-bound memory estimate exceeds the machine's
// memory (physical, from /proc/meminfo; no check where it cannot be read), naming the largest
// part's fields and the estimate.
func (c RunConfig) checkMemory() error {
	total, ok := machineMemory()
	if !ok {
		return nil
	}
	return c.checkMemoryOf(total)
}

func (c RunConfig) checkMemoryOf(total float64) error {
	terms := c.memoryTerms()
	sum, big := 0.0, terms[0]
	for _, t := range terms {
		sum += t.bytes
		if t.bytes > big.bytes {
			big = t
		}
	}
	if sum <= total {
		return nil
	}
	return fmt.Errorf("experiment: %s: %s need at least %s for %s (at least %s in all), more than this machine's %s of memory; choose smaller sizes",
		c.Name(), big.fields, formatBytes(big.bytes), big.what, formatBytes(sum), formatBytes(total))
}

// memoryEstimate is the sum of c's memory terms, a lower bound on a run's memory in bytes.
func (c RunConfig) memoryEstimate() float64 {
	sum := 0.0
	for _, t := range c.memoryTerms() {
		sum += t.bytes
	}
	return sum
}

// formatBytes writes a byte count in binary units.
func formatBytes(b float64) string {
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"} {
		if b < 1024 {
			return fmt.Sprintf("%.3g %s", b, u)
		}
		b /= 1024
	}
	return fmt.Sprintf("%.3g EiB", b)
}

// machineMemory is the machine's physical memory in bytes (MemTotal in /proc/meminfo).
func machineMemory() (float64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}

// runOverhead is added to each run's estimate when capping a sweep's concurrent runs: what a
// quick run holds beyond its sizes (its graphs, backend buffers and the Go runtime), measured as
// 13.9 GB for 1000 quick runs at once (issue 40), about 14 MB each.
const runOverhead = 16 << 20

// jobCap is the most runs of cfgs a sweep trains at once on a machine of memory bytes: each
// counted at its lower-bound estimate plus runOverhead, the largest run's for all. At least 1.
func jobCap(cfgs []RunConfig, memory float64) int {
	per := 0.0
	for _, c := range cfgs {
		per = max(per, c.memoryEstimate())
	}
	return max(1, int(min(memory/(per+runOverhead), 1<<20)))
}
