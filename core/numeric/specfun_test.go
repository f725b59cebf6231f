package numeric

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// digammaGolden are the golden values of the chapter-3 target spec
// (../shared/targets/ch3-hmm.md §0.1), computed there with mpmath at 30 digits.
var digammaGolden = []struct{ x, want float64 }{
	{1e-8, -100000000.57721565},
	{0.01, -100.56088545786867},
	{0.1, -10.423754940411077},
	{0.5, -1.9635100260214235},
	{1, -0.57721566490153286},
	{1.5, 0.036489973978576521},
	{2, 0.42278433509846714},
	{5.9, 1.6878194259079581},
	{6, 1.7061176684318005},
	{6.1, 1.7240879604285381},
	{10, 2.2517525890667211},
	{100, 4.6001618527380874},
	{1e6, 13.815510057964191},
}

// polygammaTable holds ψ(x) and ψ'(x) computed for this package with mpmath
// 1.3.0 at 30 significant digits (mp.digamma, mp.polygamma(1, x)), printed
// to 20 digits. The points cover both sides of the recurrence thresholds
// (6 for ψ, 10 for ψ') and the positive root of ψ.
var polygammaTable = []struct{ x, psi, psi1 float64 }{
	{0.001, -1000.5755719318103005, 1000001.642533195869},
	{0.03, -33.862254420618763835, 1112.6867360264795184},
	{0.25, -4.2274535333762654081, 17.197329154507110739},
	{0.75, -1.0858608797864721696, 2.5418796476716064984},
	{1.25, -0.22745353337626540809, 1.1973291545071107393},
	{1.4616321449683623, -3.9928730412463132477e-17, 0.96767224544762120697},
	{2.5, 0.70315664064524318723, 0.49035775610023486497},
	{3.7, 1.1671535393615113859, 0.3100378576700383191},
	{5.5, 1.6110931485817511237, 0.19934238698962765913},
	{6.5, 1.7929113303999329419, 0.16628453574995823764},
	{7, 1.8727843350984671394, 0.15354517795933754758},
	{7.5, 1.9467574842460867881, 0.14261589669670379977},
	{8, 2.0156414779556099965, 0.13313701469403142513},
	{9.25, 2.1695966825786158612, 0.11416188455670625687},
	{12.5, 2.4851956512749120482, 0.083285224601578370444},
	{33.3, 3.4904672385202428639, 0.030485444095338885149},
	{250, 5.519459584531046417, 0.0040080106666325337234},
	{1e4, 9.2102903711428494036, 0.00010000500016666666633},
}

func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestDigammaGolden(t *testing.T) {
	for _, c := range digammaGolden {
		got := Digamma(c.x)
		if c.x >= 0.01 {
			if e := math.Abs(got - c.want); !(e <= 1e-12) {
				t.Errorf("Digamma(%g) = %.17g, want %.17g (abs err %.3g > 1e-12)", c.x, got, c.want, e)
			}
		} else {
			if e := relErr(got, c.want); !(e <= 1e-12) {
				t.Errorf("Digamma(%g) = %.17g, want %.17g (rel err %.3g > 1e-12)", c.x, got, c.want, e)
			}
		}
	}
}

func TestPolygammaTable(t *testing.T) {
	for _, c := range polygammaTable {
		if got := Digamma(c.x); !(math.Abs(got-c.psi) <= 1e-12*math.Max(1, math.Abs(c.psi))) {
			t.Errorf("Digamma(%v) = %.17g, want %.17g", c.x, got, c.psi)
		}
		if got := Trigamma(c.x); !(relErr(got, c.psi1) <= 1e-12) {
			t.Errorf("Trigamma(%v) = %.17g, want %.17g (rel err %.3g)", c.x, got, c.psi1, relErr(got, c.psi1))
		}
	}
}

func TestDigammaSpecial(t *testing.T) {
	for _, c := range []struct {
		x, want float64
	}{
		{0, math.Inf(-1)},
		{math.Copysign(0, -1), math.Inf(-1)},
		{-1, math.NaN()},
		{-0.5, math.NaN()},
		{math.Inf(-1), math.NaN()},
		{math.Inf(1), math.Inf(1)},
		{math.NaN(), math.NaN()},
	} {
		got := Digamma(c.x)
		if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && got != c.want) {
			t.Errorf("Digamma(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// logGrid returns n points spaced evenly in ln x over [lo, hi].
func logGrid(lo, hi float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	return xs
}

func TestDigammaRecurrence(t *testing.T) {
	// ψ(x+1) − ψ(x) = 1/x, Beal (2003) eq. (C.5).
	for _, x := range logGrid(1e-3, 1e3, 301) {
		got := Digamma(x+1) - Digamma(x)
		if e := relErr(got, 1/x); !(e <= 1e-12) {
			t.Errorf("ψ(%g+1) − ψ(%g) = %.17g, want 1/x = %.17g (rel err %.3g)", x, x, got, 1/x, e)
		}
	}
}

func TestDigammaLgammaDifference(t *testing.T) {
	// ψ is the derivative of ln Γ (C.1): central difference of math.Lgamma.
	const h = 1e-5
	for _, x := range logGrid(0.5, 50, 101) {
		lp, _ := math.Lgamma(x + h)
		lm, _ := math.Lgamma(x - h)
		fd := (lp - lm) / (2 * h)
		if e := math.Abs(fd - Digamma(x)); !(e <= 1e-7) {
			t.Errorf("x=%g: finite difference of Lgamma %.12g, Digamma %.12g (err %.3g)", x, fd, Digamma(x), e)
		}
	}
}

func TestDigammaGonum(t *testing.T) {
	// mathext.Digamma uses an asymptotic series in x−1/2 with four terms once
	// x ≥ 7, which truncates at about 0.00756/(x−1/2)¹⁰, i.e. up to 5.6e-11
	// absolute error for the arguments it reaches from x < 8. Checked against
	// mpmath (30 digits): its relative error is ≤ 1.3e-11 wherever |ψ| ≥ 2
	// and reaches 1e-10 near |ψ| = 0.5. The 1e-12 relative agreement asked
	// for by the target spec therefore holds only where gonum itself is that
	// accurate: x ≥ 10 (truncation ≤ 1.3e-12·/ψ(10) ≈ 6e-13) and x ≤ 1e-3
	// (|ψ| ≥ 1000). In between, gonum is checked at its own test tolerance
	// (1e-10, mathext/digamma_test.go) and the 1e-12 accuracy of Digamma
	// comes from TestDigammaGolden and TestPolygammaTable.
	for _, x := range append(logGrid(10, 1e8, 200), logGrid(1e-9, 1e-3, 50)...) {
		got, want := Digamma(x), mathext.Digamma(x)
		if e := relErr(got, want); !(e <= 1e-12) {
			t.Errorf("x=%g: Digamma %.17g, mathext.Digamma %.17g (rel %.3g > 1e-12)", x, got, want, e)
		}
	}
	for _, x := range logGrid(1e-3, 10, 400) {
		got, want := Digamma(x), mathext.Digamma(x)
		if e := math.Abs(got - want); !(e <= 1e-10) {
			t.Errorf("x=%g: Digamma %.17g, mathext.Digamma %.17g (abs %.3g > 1e-10)", x, got, want, e)
		}
	}
}

// trigammaGolden are the target spec's golden values (mpmath, 30 digits);
// ψ'(1/2) = π²/2 and ψ'(1) = π²/6.
var trigammaGolden = []struct{ x, want float64 }{
	{0.5, 4.9348022005446793},
	{1, 1.6449340668482264},
	{2, 0.64493406684822644},
	{10, 0.10516633568168575},
	{100, 0.010050166663333571},
	{0.01, 10001.621213528313},
}

func TestTrigammaGolden(t *testing.T) {
	for _, c := range trigammaGolden {
		if got := Trigamma(c.x); !(relErr(got, c.want) <= 1e-12) {
			t.Errorf("Trigamma(%g) = %.17g, want %.17g (rel err %.3g)", c.x, got, c.want, relErr(got, c.want))
		}
	}
	if got, want := Trigamma(0.5), math.Pi*math.Pi/2; relErr(got, want) > 1e-14 {
		t.Errorf("Trigamma(0.5) = %.17g, want π²/2 = %.17g", got, want)
	}
	for _, c := range []struct{ x, want float64 }{
		{0, math.Inf(1)}, {-2, math.NaN()}, {math.Inf(1), 0}, {math.NaN(), math.NaN()},
	} {
		got := Trigamma(c.x)
		if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && got != c.want) {
			t.Errorf("Trigamma(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestTrigammaRecurrence(t *testing.T) {
	// ψ'(x+1) = ψ'(x) − 1/x². For small x the right side is a difference of
	// two terms near 1/x², so the error is measured relative to the largest
	// term, ψ'(x).
	for _, x := range logGrid(1e-3, 1e3, 301) {
		got, want := Trigamma(x+1), Trigamma(x)-1/(x*x)
		if e := math.Abs(got-want) / Trigamma(x); !(e <= 1e-12) {
			t.Errorf("x=%g: ψ'(x+1) = %.17g, ψ'(x) − 1/x² = %.17g (rel %.3g)", x, got, want, e)
		}
	}
}

func TestTrigammaDigammaDifference(t *testing.T) {
	for _, x := range logGrid(0.05, 1e3, 201) {
		h := 1e-5 * x
		fd := (Digamma(x+h) - Digamma(x-h)) / (2 * h)
		if e := relErr(fd, Trigamma(x)); !(e <= 1e-6) {
			t.Errorf("x=%g: finite difference of Digamma %.12g, Trigamma %.12g (rel %.3g)", x, fd, Trigamma(x), e)
		}
	}
}

func TestLogGamma(t *testing.T) {
	if got, want := LogGamma(0.5), 0.5*math.Log(math.Pi); relErr(got, want) > 1e-15 {
		t.Errorf("LogGamma(0.5) = %.17g, want ln √π = %.17g", got, want)
	}
	fact := 1.0
	for n := 1; n <= 25; n++ {
		if n > 1 {
			fact *= float64(n - 1)
		}
		if got, want := LogGamma(float64(n)), math.Log(fact); math.Abs(got-want) > 1e-14*math.Max(1, want) {
			t.Errorf("LogGamma(%d) = %.17g, want ln (n−1)! = %.17g", n, got, want)
		}
	}
}

// TestLogGammaLn checks that LogGammaLn(x, ln x) is math.Lgamma(x) bit for
// bit on both sides of 8 and of 2^58 and at random x over [1e-3, 1e20], and
// that it follows an lnx off by one ulp by about (x − ½)·ulp.
func TestLogGammaLn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	xs := []float64{1e-300, 1e-7, 0.5, 1, 2, 7.999999999999999, 8, 8.000000000000002, 2500, 1 << 58, 1<<58 - 64, 1e300, math.Inf(1), 0, -1, math.NaN()}
	for range 100000 {
		xs = append(xs, math.Exp(math.Log(1e-3)+rnd.Float64()*(math.Log(1e20)-math.Log(1e-3))))
	}
	for _, x := range xs {
		want, _ := math.Lgamma(x)
		if got := LogGammaLn(x, math.Log(x)); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("LogGammaLn(%v, ln x) = %v, math.Lgamma %v", x, got, want)
		}
	}
	for _, x := range []float64{8, 100, 2500, 1e10} {
		lx := math.Log(x)
		d := math.Nextafter(lx, 2*lx) - lx
		got, want := LogGammaLn(x, lx+d)-LogGammaLn(x, lx), (x-0.5)*d
		if math.Abs(got-want) > 1e-15*math.Abs(LogGammaLn(x, lx)) {
			t.Errorf("x = %v: a one-ulp change of ln x moved ln Γ by %v, want about %v", x, got, want)
		}
	}
}

func TestLogMultiGamma(t *testing.T) {
	// Golden from the target spec (mpmath, 30 digits); recomputed for this
	// package with mpmath as 1.8809954616117741985.
	if got, want := LogMultiGamma(2.5, 3), 1.8809954616117742; relErr(got, want) > 1e-14 {
		t.Errorf("LogMultiGamma(2.5, 3) = %.17g, want %.17g", got, want)
	}
	for _, a := range []float64{0.3, 1, 2.5, 17} {
		if got, want := LogMultiGamma(a, 1), LogGamma(a); got != want {
			t.Errorf("LogMultiGamma(%g, 1) = %v, want LogGamma = %v", a, got, want)
		}
	}
	for d := 1; d <= 6; d++ {
		for _, a := range []float64{float64(d-1)/2 + 0.01, float64(d), 3.3 * float64(d), 100} {
			got, want := LogMultiGamma(a, d), mathext.MvLgamma(a, d)
			if math.Abs(got-want) > 1e-13*math.Max(1, math.Abs(want)) {
				t.Errorf("LogMultiGamma(%g, %d) = %.17g, mathext.MvLgamma = %.17g", a, d, got, want)
			}
		}
	}
	if v := LogMultiGamma(0.4, 3); !math.IsNaN(v) {
		t.Errorf("LogMultiGamma(0.4, 3) = %v, want NaN", v)
	}
	if !panics(func() { LogMultiGamma(1, 0) }) {
		t.Error("LogMultiGamma(1, 0) did not panic")
	}
}

func TestMultiDigamma(t *testing.T) {
	for d := 1; d <= 5; d++ {
		for _, a := range []float64{float64(d-1)/2 + 0.3, float64(d) + 0.7, 12.5} {
			h := 1e-5 * a
			fd := (LogMultiGamma(a+h, d) - LogMultiGamma(a-h, d)) / (2 * h)
			if got := MultiDigamma(a, d); math.Abs(got-fd) > 1e-6*math.Max(1, math.Abs(got)) {
				t.Errorf("MultiDigamma(%g, %d) = %.12g, finite difference %.12g", a, d, got, fd)
			}
		}
	}
	if got, want := MultiDigamma(2.5, 1), Digamma(2.5); got != want {
		t.Errorf("MultiDigamma(2.5, 1) = %v, want ψ(2.5) = %v", got, want)
	}
	if !panics(func() { MultiDigamma(1, 0) }) {
		t.Error("MultiDigamma(1, 0) did not panic")
	}
}

func TestInvDigamma(t *testing.T) {
	for i := 0; i <= 1200; i++ {
		y := -100 + 120*float64(i)/1200
		x := InvDigamma(y)
		if !(x > 0) {
			t.Fatalf("InvDigamma(%g) = %g, not positive", y, x)
		}
		if e := math.Abs(Digamma(x) - y); !(e <= 1e-12) {
			t.Errorf("ψ(InvDigamma(%g)) = %.17g (err %.3g > 1e-12)", y, Digamma(x), e)
		}
	}
	for _, x := range logGrid(1e-2, 1e6, 50) {
		if got := InvDigamma(Digamma(x)); relErr(got, x) > 1e-10 {
			t.Errorf("InvDigamma(ψ(%g)) = %.17g", x, got)
		}
	}
	if v := InvDigamma(math.Inf(-1)); v != 0 {
		t.Errorf("InvDigamma(−Inf) = %v, want 0", v)
	}
	if v := InvDigamma(math.Inf(1)); !math.IsInf(v, 1) {
		t.Errorf("InvDigamma(+Inf) = %v, want +Inf", v)
	}
	if v := InvDigamma(math.NaN()); !math.IsNaN(v) {
		t.Errorf("InvDigamma(NaN) = %v, want NaN", v)
	}
}

func TestSpecfunNoAlloc(t *testing.T) {
	var sink float64
	if n := testing.AllocsPerRun(100, func() { sink += Digamma(0.3) + Trigamma(0.3) }); n != 0 {
		t.Errorf("Digamma/Trigamma allocate %v times per call", n)
	}
	_ = sink
}

// panics reports whether f panics.
func panics(f func()) (p bool) {
	defer func() {
		if recover() != nil {
			p = true
		}
	}()
	f()
	return false
}

var benchSink float64

func BenchmarkDigamma(b *testing.B) {
	xs := []float64{0.01, 0.5, 1.3, 3.7, 6.2, 25, 1e4}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink += Digamma(xs[i%len(xs)])
	}
}

func BenchmarkMathextDigamma(b *testing.B) {
	xs := []float64{0.01, 0.5, 1.3, 3.7, 6.2, 25, 1e4}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink += mathext.Digamma(xs[i%len(xs)])
	}
}

func BenchmarkTrigamma(b *testing.B) {
	xs := []float64{0.01, 0.5, 1.3, 3.7, 6.2, 25, 1e4}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink += Trigamma(xs[i%len(xs)])
	}
}
