// Package runmeasure makes the appdiag measurements at a finished run's checkpoints (where DW's
// noise moment comes from, the held-out gradient utility, the gains under added noise) once, and
// keeps them in the run cache (kernelext/runcache), keyed so that a notebook and `dw attribution`
// or `dw diagnose` share each entry.
//
// It lives outside kernelext so that the command line does not depend on the notebook toolkit
// (GoNB): kernelext's AttributionOf, UtilityOf and NoiseResponseOf call it with a notebook
// progress bar, cmd/dw with a terminal one. It knows neither notebooks nor the command line.
package runmeasure
