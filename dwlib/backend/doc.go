// Package backend picks the GoMLX backend once for the whole project and fixes the gaps of the
// pure-Go backend that the Internal-DW models hit.
//
// Two decisions live here, so that no other package has to repeat them:
//
//   - Which backend. The pure-Go backend ("go") is the default, because it runs everywhere with no
//     native libraries. GoMLX itself would default to XLA when it is linked in, and XLA then tries to
//     download a PJRT plugin at start-up (which fails on machines without network). So the project's
//     default is explicit: DefaultConfig, overridable with GOMLX_BACKEND. XLA is compiled in and used
//     only when GOMLX_BACKEND asks for it; a missing plugin is then a clear error, never a download.
//
//   - Faster gradients. GoMLX's stock VJP of Dot builds a broadcast tensor of shape [m, k, n] and
//     reduces it: on the pure-Go backend that is several times slower than two matrix products. This
//     package replaces it, through GoMLX's public graph.VJPRegistration, with the textbook rule
//     dA = v·Bᵀ, dB = Aᵀ·v written as DotGeneral. The replacement is installed by importing this
//     package (see RegisterGradients) and is checked against finite differences and the stock rule.
//
// The pure-Go backend does not implement Pad (so gradients through Slice fail) nor Reverse
// (convolution gradients). The project's models avoid both by construction (separate projections
// instead of split slices, a rolling list of nodes for the causal-convolution buffer); see
// dwlib/model.
package backend
