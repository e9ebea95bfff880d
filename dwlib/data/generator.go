package data

import "fmt"

// Generator names accepted by Options.Generator, MGConfig.Generator and
// NARMAConfig.Generator.
//
// The project's generators and the authors' released ones
// (docs/paper-vs-code.md §2, §9.6) integrate the same equations but differ
// in initial history, delay handling, sampling offset and drive alignment.
// Both are kept: the project's is the default, so existing runs and caches
// keep their numbers, and the authors' lets a run reproduce the release's
// data recipe (with this package's own random streams: bit-identity with
// numpy is neither possible nor the goal).
const (
	// GeneratorProject is this project's recipe; "" means the same.
	GeneratorProject = "project"
	// GeneratorAuthors is the recipe of the authors' release.
	GeneratorAuthors = "authors"
)

// authorsTestbeds lists the testbeds that implement GeneratorAuthors.
const authorsTestbeds = "mackey-glass, driven-mg, narma5"

// checkGenerator validates a generator name; field names the option being
// checked so the message points at what to change.
func checkGenerator(field, g string) error {
	switch g {
	case "", GeneratorProject, GeneratorAuthors:
		return nil
	}
	return fmt.Errorf("data: %s %q is not a generator; valid values: %q (same as %q), %q, %q",
		field, g, "", GeneratorProject, GeneratorProject, GeneratorAuthors)
}

// isAuthors reports whether g selects the authors' recipe.
func isAuthors(g string) bool { return g == GeneratorAuthors }
