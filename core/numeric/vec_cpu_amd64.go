//go:build amd64

package numeric

// haveAVX2FMA reports whether this CPU and operating system run AVX2 and
// FMA, haveFMA whether they run FMA (math.FMA is then one instruction, not
// a software emulation): CPUID.1:ECX has FMA, AVX and OSXSAVE, XCR0
// enables the XMM and YMM state, and for AVX2 CPUID.7.0:EBX has it (Intel
// SDM vol. 1, §14.3 and §14.5.3). The detection is built with or without
// the purego tag, which leaves out only the kernels' assembly.
var haveAVX2FMA, haveFMA = detectAVX2FMA()

func detectAVX2FMA() (avx2fma, fma bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 1 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fmaBit, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&(fmaBit|osxsave|avx) != fmaBit|osxsave|avx {
		return false, false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 {
		return false, false
	}
	if maxID < 7 {
		return false, true
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0, true
}

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax, edx uint32)
