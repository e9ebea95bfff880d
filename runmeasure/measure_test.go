package runmeasure

import (
	"errors"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/kernelext/runcache"
)

// A measurement of a run that has not finished is a *MissingRunError naming it, before anything
// is computed or cached.
func TestMissingRun(t *testing.T) {
	cfg, err := experiment.Resolve(experiment.Quick, "mackey-glass", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	opt := experiment.Options{RunsDir: t.TempDir(), NoArchive: true}
	c, err := runcache.DefaultIn(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"attribution": func() error {
			_, _, err := AttributionOf(c, cfg, appdiag.AtBest, appdiag.AttributionConfig{}, opt, nil)
			return err
		},
		"utility": func() error { _, _, err := UtilityOfIn(c, cfg, appdiag.UtilityConfig{}, opt, nil); return err },
		"noise": func() error {
			_, _, err := NoiseResponseOfIn(c, cfg, appdiag.DefaultNoiseSplit(cfg.Testbed), appdiag.NoiseConfig{}, opt, nil)
			return err
		},
	} {
		var e *MissingRunError
		if err := call(); !errors.As(err, &e) || e.Finished || !strings.Contains(err.Error(), cfg.Name()+" has not finished") {
			t.Errorf("%s: %v, want a MissingRunError naming %s", name, err, cfg.Name())
		}
	}
	if got := (&MissingRunError{Run: "p/t/r", Finished: true}).Error(); !strings.Contains(got, "finished elsewhere") {
		t.Errorf("Finished error = %q", got)
	}
}
