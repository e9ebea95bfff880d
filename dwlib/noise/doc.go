// Package noise provides the output-noise samplers Q_d of Internal-DW.
//
// A sampler supplies K-step, zero-mean noise trajectories eps_{i,1:K} that are
// inserted into the noise probe (paper eq. gaussian-noise-probe, App. C.3)
//
//	q_noise = mean_{i,k} xhat_{i,k}' eps_{i,k}.
//
// Backpropagating q_noise through the fully open graph gives the route messages
// d^noise whose second moments estimate R_{k,l} (eq. plugin-route-moments, §3.2).
// Every construction in App. D has the same pipeline x -> xhat -> e -> eps, so
// all samplers share the [Sampler] interface (App. D.5 "How Sampler Outputs
// Enter Internal-DW"); only the assumed noise distribution changes.
//
// # Per-minibatch protocol (Algorithm 1 and App. C.5)
//
// A sampler keeps a COMMITTED state and a STAGED update:
//
//  1. On a calibration minibatch the noise probe draws from the committed state
//     with [Sampler.Sample]; horizons reported not ready by [Sampler.Ready] are
//     zero and their noise moments must not be updated.
//  2. On every minibatch (calibration or not, App. D.1) the detached residuals
//     e = x* - xhat are recorded with [Sampler.Stage]. Nothing visible changes.
//  3. After the task backward and the parameter update, [Sampler.Commit] makes
//     the staged statistics current, so a probe never sees statistics of the
//     minibatch it is probing, and the current task update is not affected.
//
// Random numbers come from a caller-owned *math/rand/v2.Rand, so the caller
// controls seeding and reproducibility.
//
// Samplers are created by name with [New]; DW-Generic (App. D.1) is registered
// as "generic". Other samplers (DW-Prior residual bank, spatial spectrum) can
// be added with [Register]. Every sampler serialises its whole state, including
// its configuration, with MarshalJSON, so a checkpoint stores (name, JSON).
package noise
