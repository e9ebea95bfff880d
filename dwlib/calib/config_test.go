package calib

import (
	"strings"
	"testing"
)

func TestConfigValidate(t *testing.T) {
	ok := DefaultConfig(4, 2)
	tests := []struct {
		name string
		edit func(c *Config)
		want string // "" for valid
	}{
		{"paper defaults", func(c *Config) {}, ""},
		{"no warm-up", func(c *Config) { c.Warmup = 0 }, ""},
		{"K zero", func(c *Config) { c.K = 0 }, "Config.K = 0"},
		{"L negative", func(c *Config) { c.L = -1 }, "Config.L = -1"},
		{"negative warm-up", func(c *Config) { c.Warmup = -1 }, "Config.Warmup = -1"},
		{"period zero", func(c *Config) { c.Period = 0 }, "Config.Period = 0"},
		{"EMA zero", func(c *Config) { c.RouteEMA = 0 }, "Config.RouteEMA = 0"},
		{"EMA one", func(c *Config) { c.RouteEMA = 1 }, "Config.RouteEMA = 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want containing %q", err, tc.want)
			}
			if _, err := New(c, nil); err == nil {
				t.Error("New accepted an invalid config")
			}
		})
	}
	if ok.Warmup != 8 || ok.Period != 4 || ok.RouteEMA != 0.95 {
		t.Errorf("DefaultConfig = %+v, want W/C = 8/4 and RouteEMA .95", ok)
	}
}

func TestSchedule(t *testing.T) {
	tests := []struct {
		name   string
		W, C   int
		wantUp []int // calibration minibatches among b < 30
	}{
		{"paper W/C = 8/4", 8, 4, []int{8, 12, 16, 20, 24, 28}},
		{"WB2 W/C = 2/1", 2, 1, []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29}},
		{"no warm-up, period 7", 0, 7, []int{0, 7, 14, 21, 28}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{K: 1, L: 1, Warmup: tc.W, Period: tc.C, RouteEMA: 0.95}
			var got []int
			for b := range 30 {
				if cfg.CalibrationsBefore(b) != len(got) {
					t.Errorf("CalibrationsBefore(%d) = %d, want %d", b, cfg.CalibrationsBefore(b), len(got))
				}
				if cfg.IsCalibration(b) {
					got = append(got, b)
				}
			}
			if !equalInts(got, tc.wantUp) {
				t.Errorf("calibration minibatches %v, want %v", got, tc.wantUp)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
