package experiments

import "strings"

// lockHolder describes the run that holds a results folder from the fields
// of its lock file (LockFile: "pid host start token"), which may be empty or cut
// short: a run that is taking the lock right now, or one killed while it
// wrote the file. Only the fields present are named.
func lockHolder(f []string) string {
	if len(f) == 0 {
		return "its lock file is empty: a run is taking the lock right now, or one was killed while taking it"
	}
	var b strings.Builder
	b.WriteString("pid " + f[0])
	if len(f) > 1 {
		b.WriteString(" on " + f[1])
	}
	if len(f) > 2 {
		b.WriteString(" since " + f[2])
	} else {
		b.WriteString("; its lock file is cut short")
	}
	return b.String()
}
