package model

import (
	"strings"
	"testing"
)

func TestConfigChannelDriveValidated(t *testing.T) {
	for _, tc := range []struct {
		name        string
		ci          bool
		drive       string
		state, jdim int
		want        string // "" for valid, else a substring of the error
	}{
		{"whole drive", true, ChannelDriveAll, 3, 2, ""},
		{"own drive", true, ChannelDriveOwn, 3, 3, ""},
		{"own without channel independence", false, ChannelDriveOwn, 3, 3, "needs ChannelIndependent"},
		{"own with fewer drive columns", true, ChannelDriveOwn, 3, 1, "DriveDim (1) must equal StateDim (3)"},
		{"own without a drive", true, ChannelDriveOwn, 3, 0, "DriveDim (0) must equal StateDim (3)"},
		{"unknown", true, "mine", 3, 3, `Config.ChannelDrive = "mine"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{StateDim: tc.state, DriveDim: tc.jdim, ChannelIndependent: tc.ci, ChannelDrive: tc.drive}.Defaults()
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate: %v, want an error containing %q", err, tc.want)
			}
			if tc.want == "" {
				if _, err := New(c); err != nil {
					t.Errorf("New: %v", err)
				}
			}
		})
	}
}
