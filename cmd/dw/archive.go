package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdArchive copies the results of a grid's finished runs into the archive; runs found only in the
// archive already are named as such; runs that have not finished are named, and make the exit
// status 1, after the others are copied.
func cmdArchive(args []string) error {
	fs := newFlags("archive", "-profile P (-preset NAME | grid flags) [-archive DIR]")
	var rf runFlags
	var gf gridFlags
	rf.register(fs)
	gf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	_, cfgs, err := gf.resolve(rf.profile)
	if err != nil {
		return err
	}
	opt := rf.options()
	var missing []string
	for _, c := range cfgs {
		dst, err := experiment.ArchiveRun(c, opt)
		if errors.Is(err, experiment.ErrAlreadyArchived) {
			fmt.Fprintf(stdout, "%s: already archived at %s\n", c.Name(), dst)
			continue
		}
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		size := int64(0)
		if st, err := os.Stat(dst); err == nil {
			size = st.Size()
		}
		fmt.Fprintf(stdout, "%s -> %s (%d KB)\n", c.Name(), dst, (size+1023)/1024)
	}
	if len(missing) > 0 {
		return errors.New(strings.Join(missing, "\n"))
	}
	return nil
}
