package results

// sysRenameat2 is renameat2's system call number (the syscall package of
// linux/amd64 lacks it).
const sysRenameat2 = 316
