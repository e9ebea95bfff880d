package eval

// Unit is one held-out test unit (a trajectory, subject, chunk, segment or
// clip; Table "Dataset sizes after preprocessing"): the series the origins of
// eq. (8) are taken from.
type Unit struct {
	// X is the (normalised) state series, X[t] the state at model step t.
	// All rows of a unit have the same dimension d.
	X [][]float64
	// Drive is the observed exogenous input aligned with X (Drive[t] is
	// observed at step t), or nil for autonomous systems. When non-nil it
	// must have len(X) rows.
	Drive [][]float64
}

// Window is what a forecaster sees at one origin o of a unit (see Origins
// for the origin convention). All slices alias the unit's data: a forecaster
// must treat them as read-only.
type Window struct {
	// History is X[o-history : o], oldest first: the observed states that
	// warm the model up. The last row is the state at step o-1.
	History [][]float64
	// HistoryDrive is Drive[o-history : o], aligned row by row with History,
	// or nil when the unit has no drive.
	HistoryDrive [][]float64
	// FutureDrive is Drive[o : o+H]: FutureDrive[h-1] is the observed drive
	// aligned with target step h (the state X[o+h-1]). Nil when the unit has
	// no drive. Which of these a model consumes for each transition (u_t or
	// u_{t+1}) is the model's convention; the window simply offers the
	// observed drive of the whole forecast span, as in the paper's drive
	// probes ("observed future drive").
	FutureDrive [][]float64
}

// Forecaster is the contract between the evaluation protocol and a model.
//
// Forecast must return exactly H predicted states, row h-1 being the
// forecast of X[o+h-1], each with the dimension of the unit's states.
// Following Appendix "How Forecasting Error Is Evaluated", the model is
// rolled out once from the origin "without resets": after warming up on the
// history it runs H autoregressive steps feeding back its own predictions,
// with no ground-truth refresh and no reset of its recurrent state between
// steps h. Each call is an independent rollout; a forecaster must not carry
// state from one call to the next. Returned slices are owned by the caller
// after return (Evaluate only reads them).
//
// A returned error aborts the evaluation; it is wrapped with the unit and
// origin.
type Forecaster interface {
	Forecast(w Window, H int) ([][]float64, error)
}

// BatchForecaster is the batched variant of Forecaster, for models that
// roll out many origins at once (e.g. on an accelerator). ForecastBatch
// receives the windows of one unit, in origin order, or, if the forecaster is
// a BatchSizer, calls of MaxBatch() windows filled from consecutive units in
// unit and origin order (the last call may be shorter), and returns one
// H-step forecast per window, in the same order and with the same contract
// as Forecaster.Forecast. Windows of a batch share H and the state
// dimension, so they can be stacked into one tensor.
type BatchForecaster interface {
	ForecastBatch(ws []Window, H int) ([][][]float64, error)
}

// BatchSizer is optionally implemented by a BatchForecaster to bound the
// number of windows per ForecastBatch call (e.g. by accelerator memory for
// large states). Evaluate fills every call but the last, across units, so a
// forecaster that pads each call to its bound wastes nothing on units with
// fewer origins. MaxBatch() <= 0 means no bound: one call per unit.
type BatchSizer interface {
	MaxBatch() int
}

// ForecasterFunc adapts an ordinary function to the Forecaster interface.
type ForecasterFunc func(w Window, H int) ([][]float64, error)

// Forecast implements Forecaster by calling f.
func (f ForecasterFunc) Forecast(w Window, H int) ([][]float64, error) { return f(w, H) }
