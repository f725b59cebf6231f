package infer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/numeric"
)

// ldsCase is a linear-Gaussian state-space model with data: the expected
// natural parameters, point parameters when the case has them, and one
// sequence of outputs and inputs.
type ldsCase struct {
	phi        *LDSNatural
	a, b, c, d []float64 // point parameters (point cases only)
	rho        []float64
	sigma0     []float64 // Σ_0 (point cases only)
	y, u       []float64
}

// randNormals returns n draws from N(0, sd²).
func randNormals(rnd *rand.Rand, n int, sd float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = sd * rnd.NormFloat64()
	}
	return x
}

// randSPD returns a random n×n symmetric positive definite matrix
// scale·(GGᵀ/n + I/2), G standard normal.
func randSPD(rnd *rand.Rand, n int, scale float64) []float64 {
	g := randNormals(rnd, n*n, 1)
	s := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var v float64
			for m := 0; m < n; m++ {
				v += g[i*n+m] * g[j*n+m]
			}
			s[i*n+j] = scale * v / float64(n)
		}
		s[i*n+i] += scale / 2
	}
	return s
}

// stableA returns a random k×k matrix with Frobenius norm r < 1, so that its
// spectral radius is below r.
func stableA(rnd *rand.Rand, k int, r float64) []float64 {
	a := randNormals(rnd, k*k, 1)
	var f float64
	for _, v := range a {
		f += v * v
	}
	f = r / math.Sqrt(f)
	for i := range a {
		a[i] *= f
	}
	return a
}

// simulate draws T steps of the model with point parameters a, b, c, d,
// precisions rho and inputs u (T×d), from x_0 ~ N(0, I).
func simulate(rnd *rand.Rand, k, p, d, T int, a, b, c, dm, rho, u []float64) []float64 {
	x := randNormals(rnd, k, 1)
	nx := make([]float64, k)
	y := make([]float64, T*p)
	for t := 0; t < T; t++ {
		for i := 0; i < k; i++ {
			v := rnd.NormFloat64()
			for j := 0; j < k; j++ {
				v += a[i*k+j] * x[j]
			}
			for cc := 0; cc < d; cc++ {
				v += b[i*d+cc] * u[t*d+cc]
			}
			nx[i] = v
		}
		x, nx = nx, x
		for s := 0; s < p; s++ {
			v := rnd.NormFloat64() / math.Sqrt(rho[s])
			for j := 0; j < k; j++ {
				v += c[s*k+j] * x[j]
			}
			for cc := 0; cc < d; cc++ {
				v += dm[s*d+cc] * u[t*d+cc]
			}
			y[t*p+s] = v
		}
	}
	return y
}

// pointCase draws point parameters, a prior for x_0 and data of T steps.
func pointCase(rnd *rand.Rand, k, p, d, T int) *ldsCase {
	c := &ldsCase{
		a: stableA(rnd, k, 0.9), b: randNormals(rnd, k*d, 0.7),
		c: randNormals(rnd, p*k, 1), d: randNormals(rnd, p*d, 0.7),
		rho: make([]float64, p), u: randNormals(rnd, T*d, 1),
	}
	for s := range c.rho {
		c.rho[s] = 0.5 + 1.5*rnd.Float64()
	}
	c.phi = NewLDSNatural(k, p, d)
	c.phi.SetPoint(c.a, c.b, c.c, c.d, c.rho)
	c.sigma0 = randSPD(rnd, k, 1)
	copy(c.phi.Mu0, randNormals(rnd, k, 1))
	inv := mat.NewDense(k, k, nil)
	if err := inv.Inverse(mat.NewDense(k, k, c.sigma0)); err != nil {
		panic(err)
	}
	copy(c.phi.Lambda0, inv.RawMatrix().Data)
	c.y = simulate(rnd, k, p, d, T, c.a, c.b, c.c, c.d, c.rho, c.u)
	return c
}

// vbCase draws expected natural parameters from a random variational
// posterior of the form of eqs. 5.35-5.50: rows of [A B] Gaussian with a
// shared covariance S_AB, ρ_s ~ Ga(α_s, β_s) (rate), rows of [C D] given ρ_s
// Gaussian with covariance S_CD/ρ_s. Then ⟨[A B]ᵀ[A B]⟩ = MᵀM + k S_AB,
// ⟨[C D]ᵀR⁻¹[C D]⟩ = Σ_s ρ̄_s m_s m_sᵀ + p S_CD, ⟨R⁻¹C⟩ = diag(ρ̄)⟨C⟩,
// ⟨ln ρ_s⟩ = ψ(α_s) − ln β_s (eqs. 5.52-5.67). Data: T steps simulated from
// the posterior means, with inputs when d > 0.
func vbCase(rnd *rand.Rand, k, p, d, T int) *ldsCase {
	m := k + d
	phi := NewLDSNatural(k, p, d)
	// [A B]: k×m means, rows of A scaled to be stable.
	ma := stableA(rnd, k, 0.8)
	mb := randNormals(rnd, k*d, 0.5)
	sab := randSPD(rnd, m, 0.05)
	mab := make([]float64, k*m)
	for j := 0; j < k; j++ {
		copy(mab[j*m:j*m+k], ma[j*k:(j+1)*k])
		copy(mab[j*m+k:(j+1)*m], mb[j*d:(j+1)*d])
	}
	gab := gram(mab, k, m, nil)
	for i := range gab {
		gab[i] += float64(k) * sab[i]
	}
	copy(phi.A, ma)
	copy(phi.B, mb)
	for i := 0; i < k; i++ {
		for j := 0; j < m; j++ {
			switch {
			case j < k:
				phi.AtA[i*k+j] = gab[i*m+j]
			default:
				phi.AtB[i*d+j-k] = gab[i*m+j]
			}
		}
	}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			phi.BtB[i*d+j] = gab[(k+i)*m+k+j]
		}
	}
	// ρ and [C D].
	mc := randNormals(rnd, p*k, 1)
	md := randNormals(rnd, p*d, 0.5)
	scd := randSPD(rnd, m, 0.05)
	mcd := make([]float64, p*m)
	for s := 0; s < p; s++ {
		shape := 3 + 5*rnd.Float64()
		mean := 0.5 + 1.5*rnd.Float64()
		phi.Rho[s] = mean
		phi.LogDetRho += numeric.Digamma(shape) - math.Log(shape/mean)
		copy(mcd[s*m:s*m+k], mc[s*k:(s+1)*k])
		copy(mcd[s*m+k:(s+1)*m], md[s*d:(s+1)*d])
		for j := 0; j < k; j++ {
			phi.RhoC[s*k+j] = mean * mc[s*k+j]
		}
		for j := 0; j < d; j++ {
			phi.RhoD[s*d+j] = mean * md[s*d+j]
		}
	}
	gcd := gram(mcd, p, m, phi.Rho)
	for i := range gcd {
		gcd[i] += float64(p) * scd[i]
	}
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			v := gcd[i*m+j]
			switch {
			case i < k && j < k:
				phi.CtRhoC[i*k+j] = v
			case i < k:
				phi.CtRhoD[i*d+j-k] = v
			case j >= k:
				phi.DtRhoD[(i-k)*d+j-k] = v
			}
		}
	}
	copy(phi.Mu0, randNormals(rnd, k, 1))
	copy(phi.Lambda0, randSPD(rnd, k, 1))
	c := &ldsCase{phi: phi, u: randNormals(rnd, T*d, 1)}
	c.y = simulate(rnd, k, p, d, T, ma, mb, mc, md, phi.Rho, c.u)
	return c
}

// gram returns Σ_r w_r x_r x_rᵀ (n×n) over the rows x_r of the m×n matrix
// x, with w_r = 1 when w is nil.
func gram(x []float64, m, n int, w []float64) []float64 {
	g := make([]float64, n*n)
	for r := 0; r < m; r++ {
		wr := 1.0
		if w != nil {
			wr = w[r]
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				g[i*n+j] += wr * x[r*n+i] * x[r*n+j]
			}
		}
	}
	return g
}

// denseJoint assembles ⟨ln p(x_{0:T}, y_{1:T} | θ)⟩ (eq. 5.69) as
// −½ xᵀJx + hᵀx + c over the stacked x = (x_0, …, x_T), straight from the
// model's factors, and returns the mean J⁻¹h, the covariance J⁻¹ and
// ln Z' = c + ½hᵀJ⁻¹h + ((T+1)k/2) ln 2π − ½ ln|J| (eq. 5.70).
func denseJoint(phi *LDSNatural, y, u []float64) (mean []float64, cov *mat.SymDense, lnZ float64) {
	return denseJointObs(phi, nil, y, u)
}

// denseJointObs is denseJoint with the observation terms of step t taken
// from obs (LDSVarying) when it is not nil.
func denseJointObs(phi *LDSNatural, obs *LDSVarying, y, u []float64) (mean []float64, cov *mat.SymDense, lnZ float64) {
	k, p, d := phi.K, phi.P, phi.D
	T := len(y) / p
	n := (T + 1) * k
	J := mat.NewSymDense(n, nil)
	h := make([]float64, n)
	addJ := func(bi, bj int, m []float64, sign float64) { // block (bi,bj) += sign·m, mirrored
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				r, c := bi*k+i, bj*k+j
				if bi == bj && c < r {
					continue
				}
				J.SetSym(r, c, J.At(r, c)+sign*m[i*k+j])
			}
		}
	}
	mulv := func(m []float64, rows, cols int, v []float64) []float64 {
		out := make([]float64, rows)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				out[i] += m[i*cols+j] * v[j]
			}
		}
		return out
	}
	quad := func(m []float64, v []float64) float64 {
		var s float64
		for i, vi := range v {
			for j, vj := range v {
				s += vi * m[i*len(v)+j] * vj
			}
		}
		return s
	}
	eye := make([]float64, k*k)
	for i := 0; i < k; i++ {
		eye[i*k+i] = 1
	}
	ln2pi := math.Log(2 * math.Pi)

	// ln N(x_0 | μ_0, Λ_0⁻¹).
	addJ(0, 0, phi.Lambda0, 1)
	l0mu := mulv(phi.Lambda0, k, k, phi.Mu0)
	copy(h[:k], l0mu)
	var chol0 mat.Cholesky
	if !chol0.Factorize(mat.NewSymDense(k, append([]float64(nil), phi.Lambda0...))) {
		panic("Λ_0 not positive definite")
	}
	c := 0.5*chol0.LogDet() - 0.5*quad(phi.Lambda0, phi.Mu0) - 0.5*float64(k)*ln2pi
	for t := 1; t <= T; t++ {
		yt := y[(t-1)*p : t*p]
		ut := u[(t-1)*d : t*d]
		// −½⟨‖x_t − A x_{t−1} − B u_t‖²⟩ − (k/2) ln 2π.
		addJ(t-1, t-1, phi.AtA, 1)
		addJ(t, t, eye, 1)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				// x_tᵀ⟨A⟩x_{t−1}: J[t,i][t−1,j] −= A_ij.
				J.SetSym(t*k+i, (t-1)*k+j, J.At(t*k+i, (t-1)*k+j)-phi.A[i*k+j])
			}
		}
		if d > 0 {
			for i, v := range mulv(phi.AtB, k, d, ut) {
				h[(t-1)*k+i] -= v
			}
			for i, v := range mulv(phi.B, k, d, ut) {
				h[t*k+i] += v
			}
			c -= 0.5 * quad(phi.BtB, ut)
		}
		c -= 0.5 * float64(k) * ln2pi
		// −½⟨(y_t − C x_t − D u_t)ᵀR⁻¹(…)⟩ + ½⟨ln|R⁻¹|⟩ − (p/2) ln 2π.
		ctrc, rc := phi.CtRhoC, phi.RhoC
		if obs != nil {
			ctrc, rc = obs.CtRhoC[(t-1)*k*k:t*k*k], obs.RhoC[(t-1)*p*k:t*p*k]
		}
		addJ(t, t, ctrc, 1)
		for s := 0; s < p; s++ {
			for j := 0; j < k; j++ {
				h[t*k+j] += rc[s*k+j] * yt[s]
			}
			c -= 0.5 * phi.Rho[s] * yt[s] * yt[s]
		}
		if d > 0 {
			for i, v := range mulv(phi.CtRhoD, k, d, ut) {
				h[t*k+i] -= v
			}
			for s, v := range mulv(phi.RhoD, p, d, ut) {
				c += yt[s] * v
			}
			c -= 0.5 * quad(phi.DtRhoD, ut)
		}
		c += 0.5*phi.LogDetRho - 0.5*float64(p)*ln2pi
	}
	var chol mat.Cholesky
	if !chol.Factorize(J) {
		panic("J not positive definite")
	}
	cov = mat.NewSymDense(n, nil)
	if err := chol.InverseTo(cov); err != nil {
		panic(err)
	}
	mv := mat.NewVecDense(n, nil)
	if err := chol.SolveVecTo(mv, mat.NewVecDense(n, h)); err != nil {
		panic(err)
	}
	mean = mv.RawVector().Data
	var hm float64
	for i := range h {
		hm += h[i] * mean[i]
	}
	lnZ = c + 0.5*hm + 0.5*float64(n)*ln2pi - 0.5*chol.LogDet()
	return mean, cov, lnZ
}

// block returns the k×k block (s, t) of the (T+1)k×(T+1)k matrix m.
func block(m mat.Matrix, k, s, t int) []float64 {
	b := make([]float64, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			b[i*k+j] = m.At(s*k+i, t*k+j)
		}
	}
	return b
}

// near reports whether got and want agree to tol relative to max(1, |want|).
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// checkSlice reports every element of got that differs from want by more
// than tol relative to max(1, |want|).
func checkSlice(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: length %d, want %d", name, len(got), len(want))
		return
	}
	for i := range got {
		if !near(got[i], want[i], tol) {
			t.Errorf("%s[%d] = %.17g, want %.17g (|Δ| = %.3g)", name, i, got[i], want[i], math.Abs(got[i]-want[i]))
			return
		}
	}
}

// posteriorFromDense reads the marginals of x_1..x_T, x_0 and ln Z' out of
// the dense mean and covariance, in LDSPosterior's layout.
func posteriorFromDense(k, T int, mean []float64, cov mat.Matrix, lnZ float64) *LDSPosterior {
	p := &LDSPosterior{K: k, T: T, LogZ: lnZ, X0: mean[:k], X: mean[k:], V0: block(cov, k, 0, 0), W0: block(cov, k, 0, 1)}
	for t := 1; t <= T; t++ {
		p.V = append(p.V, block(cov, k, t, t)...)
		if t < T {
			p.W = append(p.W, block(cov, k, t, t+1)...)
		}
	}
	return p
}

// comparePosteriors checks every field of got against want.
func comparePosteriors(t *testing.T, got, want *LDSPosterior, tol float64) {
	t.Helper()
	checkSlice(t, "X", got.X, want.X, tol)
	checkSlice(t, "V", got.V, want.V, tol)
	checkSlice(t, "W", got.W, want.W, tol)
	checkSlice(t, "X0", got.X0, want.X0, tol)
	checkSlice(t, "V0", got.V0, want.V0, tol)
	checkSlice(t, "W0", got.W0, want.W0, tol)
	if !near(got.LogZ, want.LogZ, tol) {
		t.Errorf("ln Z' = %.17g, want %.17g (|Δ| = %.3g)", got.LogZ, want.LogZ, math.Abs(got.LogZ-want.LogZ))
	}
}

// statsFromDense computes eqs. 5.126-5.132 and the x_0 sums for one
// sequence directly from the definitions, with ⟨x_s x_tᵀ⟩ = Cov(x_s, x_t) +
// ω_s ω_tᵀ read from the dense mean and covariance.
func statsFromDense(k, p, d int, mean []float64, cov mat.Matrix, y, u []float64, lnZ float64) *LDSStats {
	T := len(y) / p
	st := NewLDSStats(k, p, d)
	second := func(dst []float64, s, t int) {
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				dst[i*k+j] += cov.At(s*k+i, t*k+j) + mean[s*k+i]*mean[t*k+j]
			}
		}
	}
	for t := 1; t <= T; t++ {
		second(st.WA, t-1, t-1)
		second(st.SA, t-1, t)
		second(st.WC, t, t)
		for i := 0; i < k; i++ {
			for c := 0; c < d; c++ {
				st.GA[i*d+c] += mean[(t-1)*k+i] * u[(t-1)*d+c]
				st.GC[i*d+c] += mean[t*k+i] * u[(t-1)*d+c]
			}
			for s := 0; s < p; s++ {
				st.SC[i*p+s] += mean[t*k+i] * y[(t-1)*p+s]
			}
		}
	}
	for i := 0; i < k; i++ {
		st.X0Sum[i] = mean[i]
		for j := 0; j < k; j++ {
			st.X0Outer[i*k+j] = mean[i] * mean[j]
			st.X0Cov[i*k+j] = cov.At(i, j)
		}
	}
	st.N, st.T, st.LogZ = 1, T, lnZ
	return st
}

// compareStats checks every field of got against want.
func compareStats(t *testing.T, got, want *LDSStats, tol float64) {
	t.Helper()
	if got.N != want.N || got.T != want.T {
		t.Errorf("N, T = %d, %d, want %d, %d", got.N, got.T, want.N, want.T)
	}
	names := [...]string{"WA", "SA", "WC", "GA", "GC", "SC", "X0Sum", "X0Outer", "X0Cov"}
	ws := want.slices()
	for i, g := range got.slices() {
		checkSlice(t, names[i], g, ws[i], tol)
	}
	if !near(got.LogZ, want.LogZ, tol) {
		t.Errorf("LogZ = %.17g, want %.17g", got.LogZ, want.LogZ)
	}
}

// TestKalmanDense checks the smoother against the dense joint Gaussian of
// eq. 5.69 on random expected natural parameters from a variational
// posterior (chapter 5 targets §1.13 item 2): means, marginal and cross
// covariances, ln Z' with every constant, and the statistics of eqs.
// 5.126-5.132.
func TestKalmanDense(t *testing.T) {
	for _, tc := range []struct{ k, p, d, T int }{
		{2, 3, 0, 4}, {2, 3, 2, 4}, {3, 5, 2, 30}, {3, 2, 0, 1},
	} {
		t.Run(fmt.Sprintf("k=%d,p=%d,d=%d,T=%d", tc.k, tc.p, tc.d, tc.T), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(1, uint64(100*tc.d+tc.T)))
			c := vbCase(rnd, tc.k, tc.p, tc.d, tc.T)
			mean, cov, lnZ := denseJoint(c.phi, c.y, c.u)
			var post LDSPosterior
			ks := NewKalmanSmoother(tc.k, tc.p, tc.d, tc.T)
			if err := ks.Smooth(&post, c.phi, c.y, c.u); err != nil {
				t.Fatal(err)
			}
			comparePosteriors(t, &post, posteriorFromDense(tc.k, tc.T, mean, cov, lnZ), 1e-12)
			st := NewLDSStats(tc.k, tc.p, tc.d)
			st.AddSequence(&post, c.y, c.u)
			compareStats(t, st, statsFromDense(tc.k, tc.p, tc.d, mean, cov, c.y, c.u, lnZ), 1e-12)
		})
	}
}

// kalmanRTS is an ordinary Kalman filter (covariance form, Joseph update)
// and Rauch-Tung-Striebel smoother for x_0 ~ N(μ_0, Σ_0),
// x_t = A x_{t−1} + B u_t + w_t, y_t = C x_t + D u_t + v_t, w ~ N(0, I),
// v ~ N(0, diag(ρ)⁻¹), written with gonum's dense matrices. It returns the
// smoothed marginals in LDSPosterior's layout and the log-likelihood
// Σ_t ln N(y_t | ŷ_{t|t−1}, S_t) of the innovations.
func kalmanRTS(c *ldsCase) *LDSPosterior {
	k, p, d := c.phi.K, c.phi.P, c.phi.D
	T := len(c.y) / p
	A := mat.NewDense(k, k, c.a)
	C := mat.NewDense(p, k, c.c)
	R := mat.NewDense(p, p, nil)
	for s, r := range c.rho {
		R.Set(s, s, 1/r)
	}
	eye := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		eye.Set(i, i, 1)
	}
	filtM := make([]*mat.VecDense, T+1)
	filtP := make([]*mat.Dense, T+1)
	predM := make([]*mat.VecDense, T+1)
	predP := make([]*mat.Dense, T+1)
	filtM[0] = mat.NewVecDense(k, append([]float64(nil), c.phi.Mu0...))
	filtP[0] = mat.NewDense(k, k, append([]float64(nil), c.sigma0...))
	var logLik float64
	for t := 1; t <= T; t++ {
		m := mat.NewVecDense(k, nil)
		m.MulVec(A, filtM[t-1])
		yhatOff := mat.NewVecDense(p, nil)
		if d > 0 {
			ut := mat.NewVecDense(d, c.u[(t-1)*d:t*d])
			var bu mat.VecDense
			bu.MulVec(mat.NewDense(k, d, c.b), ut)
			m.AddVec(m, &bu)
			yhatOff.MulVec(mat.NewDense(p, d, c.d), ut)
		}
		P := mat.NewDense(k, k, nil)
		P.Product(A, filtP[t-1], A.T())
		P.Add(P, eye)
		predM[t], predP[t] = m, P
		// Innovation r = y − C m − D u, S = C P Cᵀ + R, K = P Cᵀ S⁻¹.
		r := mat.NewVecDense(p, append([]float64(nil), c.y[(t-1)*p:t*p]...))
		var cm mat.VecDense
		cm.MulVec(C, m)
		r.SubVec(r, &cm)
		r.SubVec(r, yhatOff)
		S := mat.NewDense(p, p, nil)
		S.Product(C, P, C.T())
		S.Add(S, R)
		Ssym := mat.NewSymDense(p, nil)
		for i := 0; i < p; i++ {
			for j := i; j < p; j++ {
				Ssym.SetSym(i, j, 0.5*(S.At(i, j)+S.At(j, i)))
			}
		}
		nrm, ok := distmv.NewNormal(make([]float64, p), Ssym, nil)
		if !ok {
			panic("innovation covariance not positive definite")
		}
		logLik += nrm.LogProb(r.RawVector().Data)
		var Sinv mat.Dense
		if err := Sinv.Inverse(Ssym); err != nil {
			panic(err)
		}
		K := mat.NewDense(k, p, nil)
		K.Product(P, C.T(), &Sinv)
		var kr mat.VecDense
		kr.MulVec(K, r)
		mf := mat.NewVecDense(k, nil)
		mf.AddVec(m, &kr)
		// Joseph form (I − KC) P (I − KC)ᵀ + K R Kᵀ.
		ikc := mat.NewDense(k, k, nil)
		ikc.Mul(K, C)
		ikc.Sub(eye, ikc)
		Pf := mat.NewDense(k, k, nil)
		Pf.Product(ikc, P, ikc.T())
		var krk mat.Dense
		krk.Product(K, R, K.T())
		Pf.Add(Pf, &krk)
		filtM[t], filtP[t] = mf, Pf
	}
	post := &LDSPosterior{K: k, T: T, LogZ: logLik}
	smM := make([]*mat.VecDense, T+1)
	smP := make([]*mat.Dense, T+1)
	cross := make([]*mat.Dense, T)
	smM[T], smP[T] = filtM[T], filtP[T]
	for t := T - 1; t >= 0; t-- {
		// G = P_t Aᵀ P⁻_{t+1}⁻¹; smoothed mean, covariance, and
		// Cov(x_t, x_{t+1}) = G P^s_{t+1}.
		var predInv mat.Dense
		if err := predInv.Inverse(predP[t+1]); err != nil {
			panic(err)
		}
		G := mat.NewDense(k, k, nil)
		G.Product(filtP[t], A.T(), &predInv)
		dm := mat.NewVecDense(k, nil)
		dm.SubVec(smM[t+1], predM[t+1])
		m := mat.NewVecDense(k, nil)
		m.MulVec(G, dm)
		m.AddVec(m, filtM[t])
		dP := mat.NewDense(k, k, nil)
		dP.Sub(smP[t+1], predP[t+1])
		P := mat.NewDense(k, k, nil)
		P.Product(G, dP, G.T())
		P.Add(P, filtP[t])
		smM[t], smP[t] = m, P
		cross[t] = mat.NewDense(k, k, nil)
		cross[t].Mul(G, smP[t+1])
	}
	post.X0 = smM[0].RawVector().Data
	post.V0 = smP[0].RawMatrix().Data
	post.W0 = cross[0].RawMatrix().Data
	for t := 1; t <= T; t++ {
		post.X = append(post.X, smM[t].RawVector().Data...)
		post.V = append(post.V, smP[t].RawMatrix().Data...)
		if t < T {
			post.W = append(post.W, cross[t].RawMatrix().Data...)
		}
	}
	return post
}

// denseLogLik returns ln p(y_{1:T}) for point parameters by evaluating the
// multivariate normal density of the stacked y (Tp-dimensional) with mean
// C m_t + D u_t and covariance C Cov(x_s, x_t) Cᵀ + δ_st R, where
// m_t = A m_{t−1} + B u_t, Cov(x_t, x_t) = A Cov(x_{t−1}, x_{t−1}) Aᵀ + I
// and Cov(x_s, x_t) = Cov(x_s, x_{t−1}) Aᵀ for s < t.
func denseLogLik(c *ldsCase) float64 {
	k, p, d := c.phi.K, c.phi.P, c.phi.D
	T := len(c.y) / p
	A := mat.NewDense(k, k, c.a)
	C := mat.NewDense(p, k, c.c)
	means := make([]*mat.VecDense, T+1)
	covs := make([][]*mat.Dense, T+1) // covs[s][t], s ≤ t
	means[0] = mat.NewVecDense(k, append([]float64(nil), c.phi.Mu0...))
	for s := range covs {
		covs[s] = make([]*mat.Dense, T+1)
	}
	covs[0][0] = mat.NewDense(k, k, append([]float64(nil), c.sigma0...))
	for t := 1; t <= T; t++ {
		m := mat.NewVecDense(k, nil)
		m.MulVec(A, means[t-1])
		if d > 0 {
			var bu mat.VecDense
			bu.MulVec(mat.NewDense(k, d, c.b), mat.NewVecDense(d, c.u[(t-1)*d:t*d]))
			m.AddVec(m, &bu)
		}
		means[t] = m
		for s := 0; s < t; s++ {
			covs[s][t] = mat.NewDense(k, k, nil)
			covs[s][t].Mul(covs[s][t-1], A.T())
		}
		covs[t][t] = mat.NewDense(k, k, nil)
		covs[t][t].Product(A, covs[t-1][t-1], A.T())
		for i := 0; i < k; i++ {
			covs[t][t].Set(i, i, covs[t][t].At(i, i)+1)
		}
	}
	n := T * p
	mu := make([]float64, n)
	sigma := mat.NewSymDense(n, nil)
	for t := 1; t <= T; t++ {
		var ym mat.VecDense
		ym.MulVec(C, means[t])
		for i := 0; i < p; i++ {
			mu[(t-1)*p+i] = ym.AtVec(i)
			for cc := 0; cc < d; cc++ {
				mu[(t-1)*p+i] += c.d[i*d+cc] * c.u[(t-1)*d+cc]
			}
		}
		for s := 1; s <= t; s++ {
			var blk mat.Dense
			blk.Product(C, covs[s][t], C.T())
			for i := 0; i < p; i++ {
				for j := 0; j < p; j++ {
					r, cc := (s-1)*p+i, (t-1)*p+j
					if r <= cc {
						sigma.SetSym(r, cc, blk.At(i, j))
					}
				}
			}
		}
		for i := 0; i < p; i++ {
			r := (t-1)*p + i
			sigma.SetSym(r, r, sigma.At(r, r)+1/c.rho[i])
		}
	}
	nrm, ok := distmv.NewNormal(mu, sigma, nil)
	if !ok {
		panic("covariance of y not positive definite")
	}
	return nrm.LogProb(c.y)
}

// TestKalmanPointParameters checks that with point parameters (SetPoint)
// the variational smoother is the Kalman filter and RTS smoother, and that
// ln Z' is the exact log-likelihood ln p(y_{1:T}), both from the innovations
// and from the dense multivariate normal of y (chapter 5 targets §1.13
// item 1).
func TestKalmanPointParameters(t *testing.T) {
	for _, tc := range []struct{ k, p, d, T int }{
		{2, 3, 0, 4}, {2, 3, 2, 4}, {3, 4, 2, 25}, {4, 2, 1, 1},
	} {
		t.Run(fmt.Sprintf("k=%d,p=%d,d=%d,T=%d", tc.k, tc.p, tc.d, tc.T), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(2, uint64(100*tc.d+tc.T)))
			c := pointCase(rnd, tc.k, tc.p, tc.d, tc.T)
			var post LDSPosterior
			ks := NewKalmanSmoother(tc.k, tc.p, tc.d, tc.T)
			if err := ks.Smooth(&post, c.phi, c.y, c.u); err != nil {
				t.Fatal(err)
			}
			want := kalmanRTS(c)
			comparePosteriors(t, &post, want, 1e-12)
			if ll := denseLogLik(c); !near(post.LogZ, ll, 1e-12) {
				t.Errorf("ln Z' = %.17g, dense ln p(y) = %.17g", post.LogZ, ll)
			}
		})
	}
}

// TestKalmanLong checks on T = 2000 steps, with and without inputs, that
// every covariance block is exactly symmetric and every pairwise covariance
// [[Υ_{t,t}, Υ_{t,t+1}], [Υ_{t,t+1}ᵀ, Υ_{t+1,t+1}]] positive definite, and
// that the means and ln Z' are finite.
func TestKalmanLong(t *testing.T) {
	const T = 2000
	for _, d := range []int{0, 3} {
		k, p := 5, 8
		rnd := rand.New(rand.NewPCG(3, uint64(d)))
		c := vbCase(rnd, k, p, d, T)
		var post LDSPosterior
		if err := NewKalmanSmoother(k, p, d, T).Smooth(&post, c.phi, c.y, c.u); err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(post.LogZ) || math.IsInf(post.LogZ, 0) {
			t.Errorf("d=%d: ln Z' = %v", d, post.LogZ)
		}
		for i, v := range post.X {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("d=%d: X[%d] = %v", d, i, v)
			}
		}
		kk := k * k
		pair := mat.NewSymDense(2*k, nil)
		for s := 0; s <= T; s++ {
			vs := post.V0
			if s > 0 {
				vs = post.V[(s-1)*kk : s*kk]
			}
			for i := 0; i < k; i++ {
				for j := 0; j < i; j++ {
					if vs[i*k+j] != vs[j*k+i] {
						t.Fatalf("d=%d: Υ_{%d,%d} not symmetric at (%d,%d)", d, s, s, i, j)
					}
				}
			}
			if s == T {
				var ch mat.Cholesky
				if !ch.Factorize(mat.NewSymDense(k, append([]float64(nil), vs...))) {
					t.Fatalf("d=%d: Υ_{T,T} not positive definite", d)
				}
				break
			}
			ws := post.W0
			if s > 0 {
				ws = post.W[(s-1)*kk : s*kk]
			}
			vn := post.V[s*kk : (s+1)*kk]
			for i := 0; i < k; i++ {
				for j := 0; j < k; j++ {
					pair.SetSym(i, j, vs[i*k+j])
					pair.SetSym(k+i, k+j, vn[i*k+j])
					pair.SetSym(i, k+j, ws[i*k+j])
				}
			}
			var ch mat.Cholesky
			if !ch.Factorize(pair) {
				t.Fatalf("d=%d: joint covariance of x_%d, x_%d not positive definite", d, s, s+1)
			}
		}
	}
}

// TestKalmanSequences checks that one smoother and one LDSStats reused over
// sequences of different lengths (growing the buffers on the way) give the
// same posteriors as fresh smoothers, bit for bit, and the same statistics as
// separate runs merged with Add.
func TestKalmanSequences(t *testing.T) {
	for _, d := range []int{0, 2} {
		k, p := 3, 4
		rnd := rand.New(rand.NewPCG(4, uint64(d)))
		c := vbCase(rnd, k, p, d, 1)
		lengths := []int{5, 1, 12, 3}
		ks := NewKalmanSmoother(k, p, d, 2)
		all := NewLDSStats(k, p, d)
		merged := NewLDSStats(k, p, d)
		var post LDSPosterior
		var wantN, wantT int
		for _, T := range lengths {
			y := randNormals(rnd, T*p, 2)
			u := randNormals(rnd, T*d, 1)
			if err := ks.Smooth(&post, c.phi, y, u); err != nil {
				t.Fatal(err)
			}
			all.AddSequence(&post, y, u)
			var fresh LDSPosterior
			if err := NewKalmanSmoother(k, p, d, T).Smooth(&fresh, c.phi, y, u); err != nil {
				t.Fatal(err)
			}
			comparePosteriors(t, &post, &fresh, 0)
			one := NewLDSStats(k, p, d)
			one.AddSequence(&fresh, y, u)
			merged.Add(one)
			wantN++
			wantT += T
		}
		if all.N != wantN || all.T != wantT {
			t.Errorf("d=%d: N, T = %d, %d, want %d, %d", d, all.N, all.T, wantN, wantT)
		}
		compareStats(t, all, merged, 1e-13)
		all.Zero()
		compareStats(t, all, NewLDSStats(k, p, d), 0)
	}
}

// TestKalmanSmoothSequences checks that SmoothSequences, which runs the
// precision pass once for each length, gives every sequence the posterior
// of a fresh smoother, bit for bit: without and with inputs, on sequences
// of equal and of unequal lengths in mixed order (T = 300 lets both
// recursions reach their fixed points, so the reused factors include the
// steady ones), again after phi has been changed in place, and on one
// sequence. It checks that the precision pass ran once per length, and
// that a failing pass returns the index of the first sequence of that
// length.
func TestKalmanSmoothSequences(t *testing.T) {
	for _, tc := range []struct {
		k, p, d int
		lengths []int
	}{
		{3, 4, 0, []int{10, 10, 3, 10, 1, 3, 10}},
		{3, 4, 2, []int{10, 10, 3, 10, 1, 3, 10}},
		{4, 6, 0, []int{300, 7, 300, 300}},
		{4, 6, 3, []int{300, 7, 300, 300}},
		{2, 3, 1, []int{5}},
		{5, 8, 2, []int{10, 10, 10, 10, 10, 10}},
	} {
		name := fmt.Sprintf("k=%d,p=%d,d=%d,T=%v", tc.k, tc.p, tc.d, tc.lengths)
		t.Run(name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(9, uint64(tc.d*1000+len(tc.lengths))))
			c := vbCase(rnd, tc.k, tc.p, tc.d, 1)
			n := len(tc.lengths)
			y, u := make([][]float64, n), make([][]float64, n)
			distinct := map[int]bool{}
			for i, T := range tc.lengths {
				y[i] = randNormals(rnd, T*tc.p, 2)
				if tc.d > 0 {
					u[i] = randNormals(rnd, T*tc.d, 1)
				}
				distinct[T] = true
			}
			ks := NewKalmanSmoother(tc.k, tc.p, tc.d, 1)
			post := make([]LDSPosterior, n)
			// The data's moments, given or computed by each call: the same
			// posteriors either way.
			mom := make([]LDSMoments, n)
			for i := range mom {
				mom[i].Set(y[i], u[i], tc.p, tc.d)
			}
			check := func(what string, mom []LDSMoments) {
				t.Helper()
				before := ks.passes
				if i, err := ks.SmoothSequences(post, c.phi, y, u, mom); err != nil || i != -1 {
					t.Fatalf("%s: sequence %d: %v", what, i, err)
				}
				if got := ks.passes - before; got != len(distinct) {
					t.Errorf("%s: %d precision passes for %d lengths", what, got, len(distinct))
				}
				// The last pass is the longest sequence's.
				if slices.Max(tc.lengths) >= 300 && (ks.steadyF > 300 || ks.steadyP < 0 || ks.vTop == 0) {
					t.Errorf("%s: not steady: forward from t=%d, backward from t=%d, Υ below t=%d", what, ks.steadyF, ks.steadyP, ks.vTop)
				}
				for i := range post {
					var fresh LDSPosterior
					if err := NewKalmanSmoother(tc.k, tc.p, tc.d, 1).Smooth(&fresh, c.phi, y[i], u[i]); err != nil {
						t.Fatal(err)
					}
					comparePosteriors(t, &post[i], &fresh, 0)
				}
			}
			check("first", nil)
			check("first, moments given", mom)
			// The parameters of the next VBE step, changed in place.
			for i := range c.phi.A {
				c.phi.A[i] *= 0.9
				c.phi.AtA[i] *= 0.81
			}
			c.phi.CtRhoC[0] += 0.5
			check("changed", nil)
			check("changed, moments given", mom)

			// An indefinite Σ_0⁻¹ fails the first pass, at the first of the
			// shortest sequences.
			c.phi.Lambda0[0] = -1
			want := slices.Index(tc.lengths, slices.Min(tc.lengths))
			if i, err := ks.SmoothSequences(post, c.phi, y, u, nil); err == nil || i != want {
				t.Errorf("indefinite Σ_0⁻¹: sequence %d, error %v; want sequence %d and an error", i, err, want)
			}
		})
	}
	ks := NewKalmanSmoother(2, 3, 0, 1)
	for _, f := range []func(){
		func() {
			_, _ = ks.SmoothSequences(make([]LDSPosterior, 2), NewLDSNatural(2, 3, 0), make([][]float64, 3), make([][]float64, 3), nil)
		},
		func() {
			_, _ = ks.SmoothSequences(make([]LDSPosterior, 2), NewLDSNatural(2, 3, 0), make([][]float64, 2), make([][]float64, 1), nil)
		},
		func() {
			y := [][]float64{make([]float64, 6), make([]float64, 6)}
			_, _ = ks.SmoothSequences(make([]LDSPosterior, 2), NewLDSNatural(2, 3, 0), y, make([][]float64, 2), make([]LDSMoments, 1))
		},
		func() {
			// Moments of a sequence of 3 steps for sequences of 2.
			y := [][]float64{make([]float64, 6), make([]float64, 6)}
			mom := make([]LDSMoments, 2)
			for i := range mom {
				mom[i].Set(make([]float64, 9), nil, 3, 0)
			}
			phi := NewLDSNatural(2, 3, 0)
			for j := 0; j < 2; j++ {
				phi.Lambda0[j*2+j] = 1
			}
			_, _ = ks.SmoothSequences(make([]LDSPosterior, 2), phi, y, make([][]float64, 2), mom)
		},
	} {
		if !kalmanPanics(f) {
			t.Error("no panic on mismatched numbers or shapes of posteriors, outputs, inputs and moments")
		}
	}
}

// TestKalmanSteadyState checks that the exact reuse at the fixed points of
// the forward and backward Riccati recursions (see KalmanSmoother.forward
// and backward) gives the same posterior, bit for bit, as recomputing every
// step, and that the reuse did happen: on long sequences with and without
// inputs, on a sequence of two steps, and with the prior precision Σ_0⁻¹ set
// to the forward fixed point, so that the forward recursion is steady from
// t = 1.
func TestKalmanSteadyState(t *testing.T) {
	for _, tc := range []struct {
		k, p, d, T int
		fixedPrior bool
	}{
		{4, 6, 0, 300, false}, {4, 6, 2, 300, false}, {3, 5, 1, 2, true}, {3, 5, 0, 40, true}, {10, 30, 0, 400, false},
	} {
		name := fmt.Sprintf("k=%d,p=%d,d=%d,T=%d,fixedPrior=%v", tc.k, tc.p, tc.d, tc.T, tc.fixedPrior)
		t.Run(name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(8, uint64(tc.T)))
			c := vbCase(rnd, tc.k, tc.p, tc.d, tc.T)
			ks := NewKalmanSmoother(tc.k, tc.p, tc.d, tc.T)
			var got, want LDSPosterior
			if tc.fixedPrior {
				// Iterate the forward recursion on a long sequence to its
				// fixed point and start from there.
				long := vbCase(rnd, tc.k, tc.p, tc.d, 200)
				long.phi = c.phi
				if err := ks.Smooth(&got, c.phi, long.y, long.u); err != nil {
					t.Fatal(err)
				}
				if ks.steadyF > 200 {
					t.Fatal("forward recursion never steady")
				}
				copy(c.phi.Lambda0, ks.lamAt(200))
			}
			if err := ks.Smooth(&got, c.phi, c.y, c.u); err != nil {
				t.Fatal(err)
			}
			// Two steps are too few for the backward recursion to settle.
			if ks.steadyF > tc.T || (tc.T > 2 && ks.steadyP < 0) {
				t.Fatalf("no reuse: steady forward from t=%d, backward from t=%d (T=%d)", ks.steadyF, ks.steadyP, tc.T)
			}
			if tc.fixedPrior && ks.steadyF != 1 {
				t.Errorf("forward steady from t=%d, want 1", ks.steadyF)
			}
			full := NewKalmanSmoother(tc.k, tc.p, tc.d, tc.T)
			full.noReuse = true
			if err := full.Smooth(&want, c.phi, c.y, c.u); err != nil {
				t.Fatal(err)
			}
			comparePosteriors(t, &got, &want, 0)
		})
	}
}

// TestKalmanNoAlloc checks that Smooth, SmoothSequences and AddSequence do
// not allocate once the buffers are sized.
func TestKalmanNoAlloc(t *testing.T) {
	for _, d := range []int{0, 2} {
		rnd := rand.New(rand.NewPCG(5, uint64(d)))
		c := vbCase(rnd, 4, 6, d, 50)
		ks := NewKalmanSmoother(4, 6, d, 50)
		st := NewLDSStats(4, 6, d)
		var post LDSPosterior
		var err error
		run := func() {
			err = ks.Smooth(&post, c.phi, c.y, c.u)
			st.AddSequence(&post, c.y, c.u)
		}
		run()
		if n := testing.AllocsPerRun(10, run); n != 0 {
			t.Errorf("d=%d: %v allocations per Smooth+AddSequence", d, n)
		}
		if err != nil {
			t.Fatal(err)
		}
		ys := [][]float64{c.y, c.y[:20*6], c.y}
		us := [][]float64{c.u, c.u[:20*d], c.u}
		posts := make([]LDSPosterior, len(ys))
		all := func() {
			_, err = ks.SmoothSequences(posts, c.phi, ys, us, nil)
		}
		all()
		if n := testing.AllocsPerRun(10, all); n != 0 {
			t.Errorf("d=%d: %v allocations per SmoothSequences", d, n)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestKalmanErrors checks the error on an indefinite prior precision and
// the panics on shape mismatches.
func TestKalmanErrors(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 0))
	c := vbCase(rnd, 2, 3, 1, 4)
	ks := NewKalmanSmoother(2, 3, 1, 4)
	var post LDSPosterior
	c.phi.Lambda0[0] = -1
	if err := ks.Smooth(&post, c.phi, c.y, c.u); err == nil {
		t.Error("no error for an indefinite Σ_0⁻¹")
	}
	c.phi.Lambda0[0] = 1
	c.phi.AtA[3] = math.NaN()
	if err := ks.Smooth(&post, c.phi, c.y, c.u); err == nil {
		t.Error("no error for a NaN in ⟨AᵀA⟩")
	}
	short := NewLDSNatural(2, 3, 1)
	short.RhoC = short.RhoC[:5]
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"y length", func() { _ = ks.Smooth(&post, c.phi, c.y[:5], c.u) }},
		{"u length", func() { _ = ks.Smooth(&post, c.phi, c.y, c.u[:3]) }},
		{"empty y", func() { _ = ks.Smooth(&post, c.phi, nil, nil) }},
		{"dimensions", func() { _ = NewKalmanSmoother(2, 3, 0, 4).Smooth(&post, c.phi, c.y, c.u) }},
		{"natural", func() { _ = ks.Smooth(&post, short, c.y, c.u) }},
		{"stats", func() { NewLDSStats(2, 3, 1).Add(NewLDSStats(2, 4, 1)) }},
		{"sequence", func() { NewLDSStats(2, 3, 1).AddSequence(&post, c.y[:6], c.u[:2]) }},
	} {
		if !kalmanPanics(tc.f) {
			t.Errorf("%s: no panic", tc.name)
		}
	}
}

func kalmanPanics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// BenchmarkKalmanSmoother times one VBE pass over one sequence on the shape
// of issue 10 (k = 10 states, p = 30 outputs, T = 400, no inputs): Smooth,
// Smooth with the fixed-point reuse switched off, and Smooth followed by
// AddSequence.
func BenchmarkKalmanSmoother(b *testing.B) {
	const k, p, T = 10, 30, 400
	rnd := rand.New(rand.NewPCG(7, 0))
	c := vbCase(rnd, k, p, 0, T)
	ks := NewKalmanSmoother(k, p, 0, T)
	st := NewLDSStats(k, p, 0)
	var post LDSPosterior
	if err := ks.Smooth(&post, c.phi, c.y, nil); err != nil { // size post
		b.Fatal(err)
	}
	b.Run("Smooth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := ks.Smooth(&post, c.phi, c.y, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SmoothFull", func(b *testing.B) {
		// The cost without the reuse at the Riccati fixed points: every
		// step does the O(k³) work, as when the recursions never settle.
		full := NewKalmanSmoother(k, p, 0, T)
		full.noReuse = true
		b.ReportAllocs()
		for b.Loop() {
			if err := full.Smooth(&post, c.phi, c.y, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SmoothStats", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := ks.Smooth(&post, c.phi, c.y, nil); err != nil {
				b.Fatal(err)
			}
			st.AddSequence(&post, c.y, nil)
		}
	})
}

// TestKalmanFilter checks that Filter's filtered means are, bit for bit,
// the last smoothed means of Smooth on every prefix, on a sequence long
// enough for the forward recursion to reach its fixed point and on a short
// one, with and without inputs, and that Filter's posterior is Smooth's.
func TestKalmanFilter(t *testing.T) {
	for _, tc := range []struct{ k, p, d, T int }{{3, 4, 0, 120}, {3, 4, 2, 120}, {2, 3, 1, 1}, {4, 6, 3, 9}} {
		t.Run(fmt.Sprintf("k=%d,p=%d,d=%d,T=%d", tc.k, tc.p, tc.d, tc.T), func(t *testing.T) {
			c := vbCase(rand.New(rand.NewPCG(12, uint64(tc.T+tc.d))), tc.k, tc.p, tc.d, tc.T)
			ks := NewKalmanSmoother(tc.k, tc.p, tc.d, 1)
			mu := make([]float64, tc.T*tc.k)
			var post, want LDSPosterior
			if err := ks.Filter(mu, &post, c.phi, c.y, c.u); err != nil {
				t.Fatal(err)
			}
			if tc.T > 100 && ks.steadyF > tc.T {
				t.Error("the forward recursion never reached its fixed point")
			}
			if err := NewKalmanSmoother(tc.k, tc.p, tc.d, 1).Smooth(&want, c.phi, c.y, c.u); err != nil {
				t.Fatal(err)
			}
			comparePosteriors(t, &post, &want, 0)
			for T := 1; T <= tc.T; T++ {
				var pre LDSPosterior
				if err := NewKalmanSmoother(tc.k, tc.p, tc.d, 1).Smooth(&pre, c.phi, c.y[:T*tc.p], c.u[:T*tc.d]); err != nil {
					t.Fatal(err)
				}
				if got, want := mu[(T-1)*tc.k:T*tc.k], pre.X[(T-1)*tc.k:]; !slices.Equal(got, want) {
					t.Fatalf("t=%d: filtered mean %v, last smoothed mean of the prefix %v", T, got, want)
				}
			}
			if !kalmanPanics(func() { _ = ks.Filter(mu[:len(mu)-1], &post, c.phi, c.y, c.u) }) {
				t.Error("no panic on a short dst")
			}
		})
	}
}

// TestKalmanSmoothVarying checks SmoothVarying against dense Gaussian
// conditioning of the joint with a different observation matrix at every
// step (⟨CᵀR⁻¹C⟩ ≠ ⟨C⟩ᵀ⟨R⁻¹⟩⟨C⟩, as under q_θ), and that with the same
// terms at every step it is Smooth up to rounding (its linear terms are
// summed per step, Smooth's by one block product).
func TestKalmanSmoothVarying(t *testing.T) {
	for _, tc := range []struct{ k, p, T int }{{1, 1, 1}, {1, 1, 7}, {2, 1, 6}, {3, 2, 5}, {2, 3, 40}} {
		t.Run(fmt.Sprintf("k=%d,p=%d,T=%d", tc.k, tc.p, tc.T), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(31, uint64(tc.k*100+tc.T)))
			c := vbCase(rnd, tc.k, tc.p, 0, tc.T)
			k, p, T := tc.k, tc.p, tc.T
			obs := &LDSVarying{CtRhoC: make([]float64, T*k*k), RhoC: make([]float64, T*p*k)}
			for s := 0; s < T; s++ {
				cs := randNormals(rnd, p*k, 1)
				for r := 0; r < p; r++ {
					for j := 0; j < k; j++ {
						obs.RhoC[s*p*k+r*k+j] = c.phi.Rho[r] * cs[r*k+j]
					}
				}
				// ⟨CᵀR⁻¹C⟩ = CᵀR⁻¹C + a positive definite excess, as a
				// posterior over C gives.
				ex := randSPD(rnd, k, 0.3)
				for i := 0; i < k; i++ {
					for j := 0; j < k; j++ {
						v := ex[i*k+j]
						for r := 0; r < p; r++ {
							v += cs[r*k+i] * c.phi.Rho[r] * cs[r*k+j]
						}
						obs.CtRhoC[s*k*k+i*k+j] = v
					}
				}
			}
			var got LDSPosterior
			ks := NewKalmanSmoother(k, p, 0, 1)
			if err := ks.SmoothVarying(&got, c.phi, obs, c.y); err != nil {
				t.Fatal(err)
			}
			mean, cov, lnZ := denseJointObs(c.phi, obs, c.y, nil)
			comparePosteriors(t, &got, posteriorFromDense(k, T, mean, cov, lnZ), 1e-8)

			// The same terms at every step: Smooth.
			for s := 0; s < T; s++ {
				copy(obs.CtRhoC[s*k*k:(s+1)*k*k], c.phi.CtRhoC)
				copy(obs.RhoC[s*p*k:(s+1)*p*k], c.phi.RhoC)
			}
			var a, b LDSPosterior
			if err := ks.SmoothVarying(&a, c.phi, obs, c.y); err != nil {
				t.Fatal(err)
			}
			if err := ks.Smooth(&b, c.phi, c.y, nil); err != nil {
				t.Fatal(err)
			}
			comparePosteriors(t, &a, &b, 1e-12)
			if !kalmanPanics(func() { _ = ks.SmoothVarying(&a, c.phi, &LDSVarying{CtRhoC: obs.CtRhoC[k*k:], RhoC: obs.RhoC}, c.y) }) {
				t.Error("no panic on a short CtRhoC")
			}
		})
	}
}
