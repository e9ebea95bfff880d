package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// Every command takes the same names for what selects runs, singular or plural, each a
// comma-separated list: -testbed/-testbeds, -method/-methods, -seed/-seeds. Where a command takes
// one value (the testbed of dw ksweep and dw regime, the seed of dw runtime) it says so when a
// list names more.
var synonyms = [][2]string{{"testbed", "testbeds"}, {"method", "methods"}, {"seed", "seeds"}}

// pluralFlag registers p under a plural name (-seeds) and its singular synonym (-seed); singleFlag
// the other way round, for commands that take one value.
func pluralFlag(fs *flag.FlagSet, p *string, plural, value, usage string) {
	synonymFlag(fs, p, plural, 1, value, usage)
}

func singleFlag(fs *flag.FlagSet, p *string, singular, value, usage string) {
	synonymFlag(fs, p, singular, 0, value, usage)
}

// synonymFlag registers p as name, which is synonyms[i][at], and as the other name of its pair.
func synonymFlag(fs *flag.FlagSet, p *string, name string, at int, value, usage string) {
	for _, s := range synonyms {
		if s[at] == name {
			fs.StringVar(p, name, value, usage)
			fs.StringVar(p, s[1-at], value, "same as -"+name)
			return
		}
	}
	panic("synonymFlag: -" + name + " has no synonym")
}

// checkSynonyms refuses a command line that gives both names of one flag: the second would
// silently replace the first.
func checkSynonyms(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, s := range synonyms {
		if given[s[0]] && given[s[1]] {
			return usageError{fmt.Errorf("-%s and -%s are the same flag; give it once (a comma-separated list)", s[0], s[1])}
		}
	}
	return nil
}

// one returns the single value of a list flag, refusing a list for a command that takes one.
func one(list, name, command string) (string, error) {
	vs := splitList(list)
	if len(vs) > 1 {
		return "", usageError{fmt.Errorf("-%s %s: dw %s takes one %s", name, list, command, name)}
	}
	if len(vs) == 0 {
		return "", nil
	}
	return vs[0], nil
}

// flagFor names the command-line flag that sets a library option, where dw has one.
var flagFor = map[string]string{
	"data.Options.ETTDir":         "-ett DIR",
	"data.Options.CacheDir":       "-cache DIR",
	"experiment.Options.DataFile": "-data FILE",
}

// explain renders err for the terminal: a library hint that names an option field
// ("set data.Options.ETTDir") names dw's flag instead ("give -ett DIR").
func explain(err error) string {
	msg := err.Error()
	var se *data.SettingError
	if !errors.As(err, &se) {
		return msg
	}
	var flags []string
	for _, s := range se.Settings {
		if f, ok := flagFor[s]; ok {
			flags = append(flags, f)
		}
	}
	if len(flags) == 0 {
		return msg
	}
	return strings.Replace(msg, se.Error(), fmt.Sprintf("%v (give %s)", se.Err, strings.Join(flags, " or ")), 1)
}
