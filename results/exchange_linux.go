//go:build linux && (amd64 || arm64)

package results

import (
	"os"
	"syscall"
	"unsafe"
)

// exchange swaps the files at a and b, which must both exist, by one
// renameat2(2) with RENAME_EXCHANGE (Linux 3.15 and later; local file
// systems such as ext4, xfs, btrfs and tmpfs, not NFS).
func exchange(a, b string) error {
	const atFDCWD, renameExchange = -100, 2
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(fd), uintptr(unsafe.Pointer(pa)), uintptr(fd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: errno}
	}
	return nil
}
