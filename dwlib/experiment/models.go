package experiment

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// KindUNet is ModelConfig.Kind of the residual U-Net of the field testbeds (model.UNet); the
// other kinds ("mamba", "mlp") are model.Forecaster's steppers.
const KindUNet = "unet"

// isUNet reports whether the run trains the U-Net.
func (c RunConfig) isUNet() bool { return c.Model.Kind == KindUNet }

// unetConfig is the U-Net of the run: the field layout, widths and context of ModelConfig, the
// run's seed and dtype.
func (c RunConfig) unetConfig() (model.UNetConfig, error) {
	dt, err := parseDType(c.Model.DType)
	if err != nil {
		return model.UNetConfig{}, err
	}
	m := c.Model
	return model.UNetConfig{Channels: m.Channels, Height: m.Height, Width: m.Width, Frames: m.Frames, Base: m.Base, Mult: m.Mult,
		Depth: m.Depth, Window: m.Window, BurnIn: m.BurnIn, Seed: c.Seed, DType: dt}.Defaults(), nil
}

// validateModel checks the model part of the configuration for its kind: the U-Net on a field
// testbed only, a Mamba/MLP stepper on a time series only.
func (c RunConfig) validateModel() error {
	field := data.IsField(c.Testbed) && c.Data.CSV == nil
	if c.isUNet() {
		if !field {
			return fmt.Errorf("experiment: model kind %q needs a field testbed (%s), not %s", KindUNet, data.ShearName, c.Testbed)
		}
		u, err := c.unetConfig()
		if err != nil {
			return err
		}
		return u.Validate()
	}
	if field {
		return fmt.Errorf("experiment: testbed %s is a spatial field: it needs model kind %q (a shear profile), not %q", c.Testbed, KindUNet, c.Model.Kind)
	}
	// The data's dimensions are not known here: one coordinate, with one drive column where the
	// model pairs drive columns with coordinates (the data's pairing is checked when it is loaded).
	placeholderDrive := 0
	if c.Model.ChannelDrive == model.ChannelDriveOwn {
		placeholderDrive = 1
	}
	mc, err := c.modelConfig(1, placeholderDrive)
	if err != nil {
		return err
	}
	return mc.Defaults().Validate()
}

// runModel is what a run needs of its model beyond train.Model: a description and a size for
// its result.
type runModel interface {
	train.Model
	String() string
	NumParameters() int
}

// buildModel builds the run's untrained model for the dataset: the U-Net (whose field layout
// must be the dataset's) or a Forecaster.
func buildModel(cfg RunConfig, ds *data.Dataset) (runModel, error) {
	if cfg.isUNet() {
		f, ok := data.FieldShape(ds)
		m := cfg.Model
		if !ok || f.Channels != m.Channels || f.Height != m.Height || f.Width != m.Width {
			return nil, fmt.Errorf("experiment: %s: the U-Net reads %d x %d x %d fields (channels x height x width), but the %s data are %d x %d x %d",
				cfg.Name(), m.Channels, m.Height, m.Width, ds.Name, f.Channels, f.Height, f.Width)
		}
		u, err := cfg.unetConfig()
		if err != nil {
			return nil, err
		}
		return model.NewUNet(u)
	}
	if cfg.Model.ChannelDrive == model.ChannelDriveOwn && ds.DriveDim != ds.StateDim {
		return nil, fmt.Errorf("experiment: %s: model.channel_drive %q feeds coordinate c drive column c, but %s has %d drive columns for %d state coordinates",
			cfg.Name(), cfg.Model.ChannelDrive, ds.Name, ds.DriveDim, ds.StateDim)
	}
	mc, err := cfg.modelConfig(ds.StateDim, ds.DriveDim)
	if err != nil {
		return nil, err
	}
	return model.New(mc)
}

// setupModel loads the data and builds the (untrained) model of a run, of any kind.
func setupModel(cfg RunConfig, opt Options) (*data.Dataset, runModel, error) {
	ds, err := LoadData(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	m, err := buildModel(cfg, ds)
	if err != nil {
		return nil, nil, err
	}
	return ds, m, nil
}

// forecasterOf returns m as the Mamba/MLP forecaster that a diagnostic needs, or an error naming
// the run, its testbed and model kind, and what asked.
func forecasterOf(cfg RunConfig, m train.Model, what string) (*model.Forecaster, error) {
	if f, ok := m.(*model.Forecaster); ok {
		return f, nil
	}
	return nil, &KindError{Run: cfg.Name(), Testbed: cfg.Testbed, Kind: cfg.Model.Kind, What: what}
}

// KindError says that a path of the experiment layer that needs the time-series forecaster
// (*model.Forecaster: the diagnostics, the known-SNR analyses) was asked for a run of another
// model kind (the U-Net of a field testbed).
type KindError struct {
	Run, Testbed, Kind, What string
}

func (e *KindError) Error() string {
	return fmt.Sprintf("experiment: %s needs a Mamba/MLP forecaster (*model.Forecaster), but run %s (testbed %s) trains model kind %q; it supports the time-series testbeds only",
		e.What, e.Run, e.Testbed, e.Kind)
}
