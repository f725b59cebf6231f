// Package rng creates named, seeded random streams.
//
// Every stochastic purpose in vbw (a data generator, a restart's random
// initialisation, a sampler) draws from its own stream, derived from the
// experiment's base seed and a list of labels that name the purpose, for
// example New(seed, "chapter3/synthetic", "data", "3"). A stream's numbers
// therefore depend only on the config's seed and the stream's name, never on
// the order in which goroutines ran or on how many workers there were.
//
// Library code takes a *rand.Rand argument and never uses the global
// generator; only this package creates generators.
package rng

import (
	"hash/fnv"
	"math/rand/v2"
)

// Seeds returns the two 64-bit PCG seeds of the stream named by labels under
// the base seed. The labels are hashed with FNV-1a (64 bit), each terminated
// by a zero byte so that ("ab","c") and ("a","bc") differ.
func Seeds(seed uint64, labels ...string) (uint64, uint64) {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(seed >> (8 * i))
	}
	h.Write(b[:])
	for _, l := range labels {
		h.Write([]byte(l))
		h.Write([]byte{0})
	}
	s1 := h.Sum64()
	h.Write([]byte("stream-2"))
	s2 := h.Sum64()
	return splitmix(s1), splitmix(s2 ^ 0x9e3779b97f4a7c15)
}

// New returns a PCG generator for the stream named by labels under the base
// seed.
func New(seed uint64, labels ...string) *rand.Rand {
	s1, s2 := Seeds(seed, labels...)
	return rand.New(rand.NewPCG(s1, s2))
}

// Derive returns a 64-bit seed for the stream named by labels, for APIs that
// take a seed rather than a generator (for example a restart index).
func Derive(seed uint64, labels ...string) uint64 {
	s1, _ := Seeds(seed, labels...)
	return s1
}

// splitmix is the SplitMix64 finaliser; it spreads the FNV hash's bits.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
