package train

import (
	"fmt"

	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// Model is what the Trainer, Session, Predictor and checkpoints need of a forecaster:
// *model.Forecaster (the paper's steppers) and *model.Custom (a user's own GoMLX step, see
// model.FromCell) implement it.
//
// Rollout must build the K-step closed-loop rollout from the last state of in.History with every
// residual merge of rollout step k built as router.Block(k, ℓ, ...) (plain merges when router is
// nil), honouring every RolloutOptions: the methods full, clip, jreg, tbptt, static and dw differ
// only in the options and gains they pass. Trainable parameters live in Store under ModelScope;
// the trainer adds its optimizer state to the same store.
type Model interface {
	Store() *mlmodel.Store
	NumLayers() int
	Spec() model.Spec
	Rollout(router *route.Router, in model.Inputs, K int, opts model.RolloutOptions) model.Rollout
}

var (
	_ Model = (*model.Forecaster)(nil)
	_ Model = (*model.Custom)(nil)
	_ Model = (*model.UNet)(nil)
)

// customJSON is the "model" part of a checkpoint's identity for a Model that is not a
// *model.Forecaster: its Spec and the names, dtypes and shapes of its parameters, so a checkpoint is
// never loaded into a different model.
type customJSON struct {
	Custom                                     string
	StateDim, DriveDim, Layers, Window, BurnIn int
	DType                                      string
	Seed                                       uint64
	HiddenDim                                  int      `json:",omitempty"` // a recurrent cell's; absent for a stateless one, as before
	Variables                                  []string // "path dtype[dims]" under ModelScope, in store order
	Shift                                      string   `json:",omitempty"` // absent when none, as before
}

// modelIdentityOf is the "model" part of the run identity: a Forecaster's configuration (as it has
// always been, so existing checkpoints stay valid), or customJSON for any other Model.
func modelIdentityOf(m Model) any {
	if f, ok := m.(*model.Forecaster); ok {
		return toModelJSON(f.Config())
	}
	s := m.Spec()
	id := customJSON{Custom: s.Name, StateDim: s.StateDim, DriveDim: s.DriveDim, Layers: m.NumLayers(), Window: s.Window,
		BurnIn: s.BurnIn, DType: s.DType.String(), Seed: s.Seed, HiddenDim: s.HiddenDim, Shift: s.Shift}
	for v := range m.Store().IterVariables() {
		if inScope(v.Scope(), ModelScope) {
			id.Variables = append(id.Variables, fmt.Sprintf("%s %s%v", v.Path(), v.Shape().DType, v.Shape().Dimensions))
		}
	}
	return id
}
