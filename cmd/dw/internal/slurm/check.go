package slurm

import (
	"fmt"
	"regexp"
	"strings"
)

// The checks below refuse a value before it reaches an #SBATCH line, where sbatch would reject the
// whole script only at submission, possibly hours later on a cluster's login node. Each returns an
// error that names the value but not the option, so a caller can name its own flag.

var (
	timeRE      = regexp.MustCompile(`^(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+|INFINITE|UNLIMITED)$`)
	memRE       = regexp.MustCompile(`^\d+[KMGT]?$`)
	gpusRE      = regexp.MustCompile(`^([A-Za-z0-9_.-]+:)?[1-9]\d*$`)
	partitionRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
	nameRE      = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
)

// CheckTime accepts Slurm's time limits: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS,
// INFINITE or UNLIMITED ("" is the partition's default).
func CheckTime(s string) error {
	if s == "" || timeRE.MatchString(s) {
		return nil
	}
	return fmt.Errorf("%q is not a Slurm time limit (minutes, HH:MM:SS or D-HH:MM:SS)", s)
}

// CheckMem accepts a --mem size: a number with an optional K, M, G or T suffix (megabytes without
// one; "" is the cluster's default).
func CheckMem(s string) error {
	if s == "" || memRE.MatchString(s) {
		return nil
	}
	return fmt.Errorf("%q is not a memory size (e.g. 4G, 500M)", s)
}

// CheckGPUs accepts a --gpus request, [type:]count with count >= 1 ("": no GPU).
func CheckGPUs(s string) error {
	if s == "" || gpusRE.MatchString(s) {
		return nil
	}
	return fmt.Errorf("%q is not a GPU request ([type:]count, e.g. 1 or h100:1)", s)
}

// CheckPartition accepts one partition name or a comma-separated list ("": the default partition).
func CheckPartition(s string) error {
	if s == "" || partitionRE.MatchString(s) {
		return nil
	}
	return fmt.Errorf("%q is not a partition name (letters, digits, _ . -; comma-separated for several)", s)
}

// CheckName accepts a job name without spaces or shell characters.
func CheckName(s string) error {
	if nameRE.MatchString(s) {
		return nil
	}
	return fmt.Errorf("%q is not a job name (letters, digits, _ . + -)", s)
}

// CheckExtra accepts one further sbatch option for an #SBATCH line, such as --account=proj or
// --qos=long. A leading "#SBATCH " is dropped; the option must start with '-' and fit on one line.
func CheckExtra(s string) (string, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "#SBATCH"))
	if !strings.HasPrefix(s, "-") || strings.ContainsAny(s, "\n\r") {
		return "", fmt.Errorf("%q is not an sbatch option (one line starting with -, e.g. --account=proj)", s)
	}
	return s, nil
}

// CheckLogDir accepts the directory that goes into #SBATCH --output: absolute, since Slurm would
// resolve a relative one against the submission directory, and without white space, quotes,
// backslashes or '%', which #SBATCH lines and Slurm's file-name patterns would misread.
func CheckLogDir(dir string) error {
	if !strings.HasPrefix(dir, "/") {
		return fmt.Errorf("%q is not an absolute path", dir)
	}
	if strings.ContainsAny(dir, " \t\n\r%\\\"'") {
		return fmt.Errorf("%q holds a space, quote, backslash or %%, which an #SBATCH --output line cannot carry", dir)
	}
	return nil
}
