// Package train trains forecasters with full BPTT and the paper's controls through one code path;
// the methods differ only where the paper says they do (App. F.2):
//
//	full    full BPTT, global-norm clip 1
//	clip    full BPTT with a stronger global-norm clip (the threshold is the method's hyperparameter)
//	jreg    full BPTT + forward-Jacobian penalty (see Penalty below), clip 1
//	tbptt   gradients cut every Segment steps, clip 1
//	static  every routed merge at α = m = c, clip 1
//	dw      Internal-DW: gains from the calibration controller and a noise sampler, clip 1
//
// A training step is one compiled graph per mode: the K-step rollout, the relative-L2 task loss,
// the task gradient with the committed gains, global-norm clipping and the Adam update; on a
// calibration minibatch the same graph also differentiates the probes q_tot and q_noise with every
// route open and reduces their route messages to moments (App. C.3; both probes carry the scale
// 1/(NK), see route.Router.ProbeMoments). Gains, noise and data are graph
// inputs, so nothing recompiles as they change. The Go side then follows Algorithm 1: stage the
// moments and gains, stage the sampler's residual template, and commit both only after the update.
//
// Task loss. The relative L2 over the rollout, mean_{i,k} ‖x̂_{i,k} − x*_{i,k}‖ / max(‖x*_{i,k}‖, 1e-8),
// with √(Σe² + 1e-12) so the gradient stays finite at a perfect prediction.
//
// JReg penalty (our reading of "target norm 1, finite-difference scale 1e-3"): at every rollout
// step, with a random unit direction u per sample (fresh each minibatch, from the run's seed),
// n = ‖(step(x+εu) − step(x))/ε‖ with ε = 1e-3, and the penalty coef · mean_{i,k} max(n − 1, 0)²
// penalises only amplification beyond unit norm. Each microbatch and epoch reports the gains the
// penalty saw (JRegStats: mean, largest, share above 1, the penalty before the coefficient), so a
// run shows whether its coefficient could act at all.
//
// Models. Everything here takes a Model: the paper's *model.Forecaster, or a user's own GoMLX step
// made a *model.Custom by model.FromCell (see Example_ownModel). A checkpoint records the model's
// identity (a Forecaster's Config; a custom model's Spec and its parameters' names, dtypes and
// shapes) and is refused by a different model.
package train
