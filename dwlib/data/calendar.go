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
// Each phase p gives (sin 2 pi p, cos 2 pi p). The raw features are later
// standardised with training statistics (they are not zero-mean over a
// 12-month training window that is not a whole number of years).
func CalendarFeatures(t time.Time) []float64 {
	hour := float64(t.Hour()*60+t.Minute()) / 1440
	week := float64((int(t.Weekday())+6)%7) / 7
	days := 365.0
	if y := t.Year(); y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 366
	}
	year := float64(t.YearDay()-1) / days
	out := make([]float64, 0, CalendarDim)
	for _, p := range []float64{hour, week, year} {
		s, c := math.Sincos(2 * math.Pi * p)
		out = append(out, s, c)
	}
	return out
}
