// Package model holds the autoregressive forecasters of the Internal-DW paper, written so every
// residual merge of every rollout step goes through dwlib/route.
//
// A Forecaster predicts an increment added to the current state, x̂_{t+1} = x_t + readout(...), and
// runs in recurrent (step) mode: each rollout step is one application of the stack, so rollout step
// k and layer ℓ is one routed merge with gains (α_{k,ℓ}, m_{k,ℓ}). The outer autoregressive update
// x_t + Δ stays fully open (paper, App. C.2).
//
// Two steppers share the read-in, read-out and rollout code:
//
//   - "mamba": the paper's sequence model (App. F.2): residual Mamba blocks (selective SSM with state
//     16, causal depthwise convolution of width 4, expansion 2), pre-RMSNorm, linear read-in and a
//     two-layer read-out. The SSM state and the convolution buffer are the recurrent state carried
//     between steps; inside a routed merge they are routed with the nonlinear coefficient m.
//   - "mlp": a residual MLP stepper (RMSNorm → dense → tanh → dense) for fast tests and benchmarks.
//
// A user's own model: a Cell is one step written in GoMLX whose residual merges go through the Merge
// it is given; FromCell turns it into a Custom model that dwlib/train trains like a Forecaster.
//
// Window and burn-in. The paper trains with "a 16-step input window, a 32-step burn-in". We read it
// as: each rollout origin is preceded by a Window of observed states (default 16) that the stepper
// consumes teacher-forced, fully open and without loss, to build its recurrent state; the first
// BurnIn (default 32) steps of every unit are never used, so origins start at BurnIn+Window-1. The
// known-SNR evaluation's "16-step observed history" is the same Window. This choice is applied in
// training, validation and evaluation alike.
//
// The models avoid Slice and Pad on differentiated paths (the pure-Go backend has no Pad, so Slice
// has no gradient there): the in-projection is two matrices instead of one split, and the
// convolution buffer is a list of nodes shifted in Go.
package model
