// Package backend picks the GoMLX backend once for the whole project and fixes the gaps of the
// pure-Go backend that the Internal-DW models hit.
//
// Two decisions live here, so that no other package has to repeat them:
//
//   - Which backend. The pure-Go backend ("go", with an unbounded worker pool: see DefaultConfig)
//     is the default, because it runs everywhere with no native libraries. GoMLX itself would
//     default to XLA when it is linked in, and XLA then tries to download a PJRT plugin at
//     start-up (which fails on machines without network). So the project's
//     default is explicit: DefaultConfig, overridable with GOMLX_BACKEND. XLA is compiled in and used
//     only when GOMLX_BACKEND asks for it; a missing plugin is then a clear error, never a download.
//
//   - Faster gradients. GoMLX's VJP of DotGeneral builds each operand's gradient as a matrix
//     product with the cotangent always as the left operand, then transposes it back to the
//     operand's axis order even when that order is already right. On the pure-Go backend both
//     cost full element-by-element copies: of the cotangent into the matrix-product layout, and of
//     the result. This package replaces the rule, through GoMLX's public graph.VJPRegistration,
//     with the same products in the operand order that needs the fewest copies and without
//     identity transposes (vjp.go; checked against GoMLX's rule). The replacement is installed by
//     importing this package (see RegisterGradients).
//
// The pure-Go backend does not implement Pad (so gradients through Slice fail) nor Reverse
// (convolution gradients). The project's models avoid both by construction (separate projections
// instead of split slices, a rolling list of nodes for the causal-convolution buffer); see
// dwlib/model.
package backend
