package infer

import "gonum.org/v1/gonum/blas/gonum"

// blasSerial is gonum's pure-Go BLAS, called directly rather than through
// blas64 so that a replacement implementation installed with blas64.Use
// (possibly multi-threaded) never runs in this package: every kernel here is
// serial and its order of summation is fixed, so results do not depend on
// GOMAXPROCS. Use level-2 routines (Dgemv) and below; gonum's Dgemm splits
// large products over goroutines.
var blasSerial gonum.Implementation
