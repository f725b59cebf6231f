//go:build !amd64

package numeric

// haveFMA is false off amd64: the portable kernels write x*y + z, which
// the compiler may fuse where the architecture always has the instruction
// (arm64, ppc64, s390x, riscv64).
const haveFMA = false
