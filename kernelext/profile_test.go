package kernelext

import "testing"

func TestProfile(t *testing.T) {
	tests := []struct {
		env, want string
		epochs    int
	}{
		{"", Quick, 1},
		{"quick", Quick, 1},
		{"standard", Standard, 10},
		{"paper", Paper, 100},
	}
	for _, tc := range tests {
		t.Setenv(ProfileEnv, tc.env)
		if got := Profile(); got != tc.want {
			t.Errorf("DW_PROFILE=%q: Profile() = %q, want %q", tc.env, got, tc.want)
		}
		if got := ByProfile(1, 10, 100); got != tc.epochs {
			t.Errorf("DW_PROFILE=%q: ByProfile = %d, want %d", tc.env, got, tc.epochs)
		}
	}
	t.Setenv(ProfileEnv, "papper")
	defer func() {
		if recover() == nil {
			t.Errorf("Profile() with a typo did not panic")
		}
	}()
	Profile()
}
