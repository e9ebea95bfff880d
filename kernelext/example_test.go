package kernelext_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/kernelext"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Outside a notebook ShowTable prints Markdown.
func ExampleShowTable() {
	kernelext.ShowTable("Noise sweep",
		[]string{"sigma", "MSE", "note"},
		[][]string{{"0.1", "0.012", "ok"}, {"1", "0.3", "diverged early"}})
	// Output:
	// **Noise sweep**
	//
	// | sigma |   MSE | note           |
	// | ----: | ----: | :------------- |
	// |   0.1 | 0.012 | ok             |
	// |     1 |   0.3 | diverged early |
}

func ExampleTableOf() {
	type Row struct {
		Model string  `table:"Model"`
		Loss  float64 `table:"Test loss,%.3f"`
		Acc   float64 // FloatFormat (%.4g)
		debug string  // unexported: not a column
	}
	t, err := kernelext.TableOf("Results", []Row{{"dw", 0.1234, 0.98765, ""}, {"base", 0.5, 0.9, ""}})
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Markdown())
	// Output:
	// **Results**
	//
	// | Model | Test loss |    Acc |
	// | :---- | --------: | -----: |
	// | dw    |     0.123 | 0.9877 |
	// | base  |     0.500 |    0.9 |
}

// ShowPlot saves <figures>/<name>.svg and .png and displays the figure (in a
// notebook) or prints where it went. $DW_FIGURES_DIR redirects the files.
func ExampleShowPlot() {
	dir, _ := os.MkdirTemp("", "figures")
	defer os.RemoveAll(dir)
	os.Setenv(kernelext.FiguresEnv, dir)
	defer os.Unsetenv(kernelext.FiguresEnv)

	p := plot.New()
	p.Title.Text = "y = x²"
	line, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 4}})
	p.Add(line)
	kernelext.Output = os.Stderr // keep the temporary path out of the example output.
	defer func() { kernelext.Output = nil }()
	if err := kernelext.ShowPlot(p, "example/square", 4*vg.Inch, 3*vg.Inch); err != nil {
		panic(err)
	}
	for _, ext := range []string{".svg", ".png"} {
		_, err := os.Stat(filepath.Join(dir, "example", "square"+ext))
		fmt.Println("square"+ext, err == nil)
	}
	// Output:
	// square.svg true
	// square.png true
}

// Library code takes a progress.Reporter; a notebook passes NewReporter().
// Outside a notebook the progress goes to stderr.
func ExampleNewProgress() {
	p := kernelext.NewProgress("training", 3)
	for epoch := range 3 {
		p.Add(1, fmt.Sprintf("epoch %d loss %.2f", epoch, 1/float64(epoch+1)))
	}
	p.Done()
}

// Cached memoizes a computation on disk, keyed by name, config and data seed.
func ExampleCached() {
	dir, _ := os.MkdirTemp("", "runs")
	defer os.RemoveAll(dir)
	os.Setenv("DW_CACHE_DIR", dir) // default: <repo>/data/cache/runs
	defer os.Unsetenv("DW_CACHE_DIR")

	type Config struct{ Epochs int }
	for range 2 {
		loss, err := kernelext.Cached("train", Config{Epochs: 5}, 42, func() (float64, error) {
			fmt.Println("training (only once)")
			return 0.125, nil
		})
		fmt.Println(loss, err)
	}
	// Output:
	// training (only once)
	// 0.125 <nil>
	// 0.125 <nil>
}

func ExampleByProfile() {
	os.Setenv(kernelext.ProfileEnv, "standard")
	defer os.Unsetenv(kernelext.ProfileEnv)
	fmt.Println(kernelext.Profile(), kernelext.ByProfile(5, 50, 500))
	// Output: standard 50
}

// ReadableTicks labels a narrow error axis with round steps, every label exact.
func ExampleReadableTicks() {
	for _, t := range (kernelext.ReadableTicks{}).Ticks(0.92, 1.06) {
		if !t.IsMinor() {
			fmt.Print(t.Label, " ")
		}
	}
	fmt.Println()
	// Output: 0.95 1.00 1.05
}
