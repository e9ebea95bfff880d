// Package kernelext is the notebook toolkit of the dwgo project: it shows
// figures, tables and live progress in GoNB notebooks (kernel "gonb-dwgo",
// see scripts/setup.sh) and saves figures under <repo>/figures.
//
// Every function also works outside a notebook (plain `go test`, commands):
// instead of displaying, it writes files and prints text to Output, so code
// written in a notebook can move to a test or a command unchanged.
//
// Pieces, one file each:
//
//   - ShowPlot / SavePlot (plot.go) and ShowGrid (grid.go): render gonum
//     plots to PNG and SVG, save both, display both in one output.
//   - BarChart and LineChart (charts.go): grouped bars with error bars, and
//     curves with a legend and vertical marks, the two plots the notebooks
//     draw most; ScatterChart (scatter.go): labelled point series and paths
//     on axes that keep the origin (the predictive-regime map).
//   - ShowTable, Table (table.go) and TableOf (structtable.go): HTML tables
//     in notebooks, aligned Markdown otherwise.
//   - NewProgress / NewReporter (progress.go): a live bar with ETA updated in
//     place in the notebook, a terminal bar or log lines otherwise. Library
//     code depends only on the tiny interface dwlib/progress.Reporter.
//   - Cached (cache.go): on-disk memoization of runs, see kernelext/runcache.
//   - Profile / ByProfile (profile.go): the run size (quick, standard, paper)
//     chosen by scripts/run-notebooks.sh through $DW_PROFILE.
//
// Plot helpers, so that no notebook cell carries more than a few lines of
// plotting:
//
//   - HeatScale, HeatMap (heatmap.go): a matrix as a heat map on a fixed
//     (or fitted, optionally logarithmic) colour scale with an overflow
//     colour; ShowHeatGrid and HeatGridLayout (heatgrid.go): panels with one
//     colour bar.
//   - AddContours, ContourSegments and AddLevelCurves (contour.go): level sets
//     at exactly the requested levels, traced on a grid or given in closed
//     form.
//   - Trace, NewPlot, AddTraces (trace.go): curves in a style of one's own;
//     LineFamily and FamilyColor (family.go): one line per epoch, light to
//     dark.
//   - Rect, AddVeil, AddOutline, LabelledPoint, AddVMark (annotate.go), and
//     IntegerTicks, TicksAt, ReadableTicks (ticks.go); RoomForLegend
//     (legendroom.go): a top legend kept clear of the data.
//   - PerHorizonPlot, LossPlot, ValidationCurve, FlatCurve (runplots.go) and
//     RegimePlots (regimeplots.go): the plots of trained runs beside their
//     baselines.
package kernelext
