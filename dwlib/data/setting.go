package data

import (
	"fmt"
	"strings"
)

// SettingError is an error whose remedy is a setting, such as a directory the caller can give.
// Settings are the qualified option fields ("data.Options.ETTDir"); Error reads
// "<Err> (set data.Options.ETTDir)". A command-line tool finds it with errors.As and names its own
// flag instead, so each caller's hint speaks the caller's language.
type SettingError struct {
	Err      error
	Settings []string
}

func (e *SettingError) Error() string {
	return fmt.Sprintf("%v (set %s)", e.Err, strings.Join(e.Settings, " or "))
}

func (e *SettingError) Unwrap() error { return e.Err }

// needsSetting wraps err as a SettingError naming the data.Options fields.
func needsSetting(err error, fields ...string) error {
	q := make([]string, len(fields))
	for i, f := range fields {
		q[i] = "data.Options." + f
	}
	return &SettingError{Err: err, Settings: q}
}
