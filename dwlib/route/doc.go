// Package route implements Internal-DW's routed residual merge in a GoMLX graph.
//
// At a residual block y = x + F(x), ordinary backpropagation maps the gradient v arriving at y to
// v + J_Fᵀv. Internal-DW (paper, eq. 2) keeps the forward value and replaces the backward map by
//
//	v ↦ α·v + m·J_Fᵀv,
//
// with one gain pair (α, m) per rollout step k and residual layer ℓ. Block builds exactly that: two
// forward-identity nodes with custom gradients, one on the identity route (scaled by α) and one on
// the input of F (scaled by m, after J_Fᵀ has been applied). F's parameters therefore see the
// incoming v unscaled: only transport back to x is reweighted (paper, App. C.2).
//
// Gains are graph inputs, so changing them never recompiles. The route probes of App. C.3 need the
// same graph differentiated with every route fully open: OpenGradient builds a gradient during which
// every routed merge of that graph passes v through unscaled, and Router.ProbeMoments reduces the
// recorded two-route messages d = [dq/dy, J_Fᵀ dq/dy] to the three moments (1/D_ℓ)(II, IJ, JJ) per
// (k, ℓ) inside the graph. Probe gradients are separate outputs; they never reach the parameter
// update.
package route
