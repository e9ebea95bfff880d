package data

import (
	"math"
	"time"
)

// CalendarDim is the number of calendar drive coordinates.
const CalendarDim = 6

// CalendarNames labels the coordinates returned by [CalendarFeatures].
var CalendarNames = []string{"hour_sin", "hour_cos", "weekday_sin", "weekday_cos", "yearday_sin", "yearday_cos"}

// CalendarFeatures encodes a timestamp as the observed future drive of the
// ETT testbeds (Appendix F.1: "sine and cosine encodings of hour of day, day
// of week, and day of year"). The phases are
//
//   - hour of day: minute-of-day / 1440, so the 15-minute steps within an
//     hour are distinguished (a continuous time-of-day phase);
//   - day of week: weekday / 7 with Monday = 0;
//   - day of year: (yearday - 1) / days-in-that-year (365 or 366).
//
// The phases are those of the instant in UTC: a timestamp written with an offset is converted
// first, so the same instant has the same features however it is written (a file alternating
// "Z" and "+01:00" would otherwise jitter the hour of day), and timestamps without a zone, which
// are parsed as UTC, keep their wall-clock hour. A series recorded in local time with an offset
// therefore has its daily phase shifted by that offset, the same on every row.
//
// Each phase p gives (sin 2 pi p, cos 2 pi p). The raw features are later
// standardised with training statistics (they are not zero-mean over a
// 12-month training window that is not a whole number of years).
func CalendarFeatures(t time.Time) []float64 {
	return calendarEncode(t, [3]bool{true, true, true})
}

// CalendarFeaturesFor is [CalendarFeatures] restricted to the phases that
// vary at the given sampling step (see [CalendarNamesFor]). A daily series
// has the same hour of day on every row, so its hour coordinates would be
// constant: they carry no information and are left out rather than fed to
// the model as a constant input. At 15 minutes (ETT) all six are kept, in
// the order of [CalendarNames].
func CalendarFeaturesFor(t time.Time, step time.Duration) []float64 {
	return calendarEncode(t, calendarPhases(step))
}

// CalendarNamesFor labels the coordinates of [CalendarFeaturesFor] at this
// step: hour of day unless the step is a whole number of days, day of week
// unless it is a whole number of weeks, and day of year always (a year is
// not a whole number of any fixed step).
func CalendarNamesFor(step time.Duration) []string {
	var out []string
	for k, on := range calendarPhases(step) {
		if on {
			out = append(out, CalendarNames[2*k], CalendarNames[2*k+1])
		}
	}
	return out
}

// calendarPhases says which of hour of day, day of week and day of year vary
// between rows spaced by step (a non-positive step keeps all three).
func calendarPhases(step time.Duration) [3]bool {
	const day = 24 * time.Hour
	if step <= 0 {
		return [3]bool{true, true, true}
	}
	return [3]bool{step%day != 0, step%(7*day) != 0, true}
}

func calendarEncode(t time.Time, on [3]bool) []float64 {
	t = t.UTC()
	hour := float64(t.Hour()*60+t.Minute()) / 1440
	week := float64((int(t.Weekday())+6)%7) / 7
	days := 365.0
	if y := t.Year(); y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 366
	}
	year := float64(t.YearDay()-1) / days
	out := make([]float64, 0, CalendarDim)
	for k, p := range []float64{hour, week, year} {
		if !on[k] {
			continue
		}
		s, c := math.Sincos(2 * math.Pi * p)
		out = append(out, s, c)
	}
	return out
}
