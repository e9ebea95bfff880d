package experiment

import "fmt"

// maxNameLen bounds every name a configuration gives (profile, testbed, method). Each names a
// directory level (a CSV testbed is csv-<name>-<hash8>, its name at most data.MaxNameLen), and
// file systems refuse a level over 255 bytes with an error that names neither the field nor the
// limit; a name of megabytes would also be echoed whole in every error. Lengths are checked
// before anything else, and errors show only the start of such a name.
const maxNameLen = 128

// checkNameLengths refuses a name over maxNameLen bytes, naming its field and its length.
func (c RunConfig) checkNameLengths() error {
	for _, f := range []struct{ field, v string }{{"profile", c.Profile}, {"testbed", c.Testbed}, {"train.method", c.Train.Method}} {
		if len(f.v) > maxNameLen {
			return fmt.Errorf("experiment: %s %s is %d bytes long, at most %d (it names a run directory)", f.field, shortQuote(f.v), len(f.v), maxNameLen)
		}
	}
	return nil
}

// shortQuote quotes s, or its first 32 bytes and an ellipsis when it is longer.
func shortQuote(s string) string {
	if len(s) <= 32 {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", s[:32])
}
