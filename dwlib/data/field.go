package data

import "fmt"

// Field is the spatial layout of a field testbed's states: each state vector X[t] holds Channels
// fields of Height rows of Width values, channel-major,
//
//	X[t][c·Height·Width + y·Width + x]   (channel c, row y, column x),
//
// the layout of dwlib/fields' frames, model.UNetConfig and noise.SpectralConfig, so that a state
// passes between them without any reshuffling.
type Field struct {
	Channels, Height, Width int
	// Names are the channels' names, in order (shear: tracer, pressure, u, v).
	Names []string
}

// Dim is Channels·Height·Width, the state dimension.
func (f Field) Dim() int { return f.Channels * f.Height * f.Width }

// Validate checks the sizes and that Names, when given, has one name per channel.
func (f Field) Validate() error {
	if f.Channels < 1 || f.Height < 1 || f.Width < 1 {
		return fmt.Errorf("data: field layout %d x %d x %d (channels x height x width): each must be >= 1", f.Channels, f.Height, f.Width)
	}
	if f.Names != nil && len(f.Names) != f.Channels {
		return fmt.Errorf("data: field layout has %d channel names for %d channels", len(f.Names), f.Channels)
	}
	return nil
}

// FieldShape returns the field layout of ds and true for a field testbed (shear), and false for
// the time-series testbeds, whose states have no spatial structure.
func FieldShape(ds *Dataset) (Field, bool) {
	if ds == nil || ds.Field == nil {
		return Field{}, false
	}
	return *ds.Field, true
}

// IsField reports whether the named testbed is a spatial field (its datasets carry a Field).
func IsField(name string) bool { return name == ShearName }
