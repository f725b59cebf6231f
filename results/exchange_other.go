//go:build !(linux && (amd64 || arm64))

package results

import "errors"

// exchange cannot swap two files atomically on this platform; Migrate
// falls back to two renames.
func exchange(a, b string) error { return errors.New("renameat2 RENAME_EXCHANGE: not available") }
