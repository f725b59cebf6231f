package numeric

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLogSumExpNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rnd.IntN(10)
		xs := make([]float64, n)
		var s float64
		for i := range xs {
			xs[i] = 20*rnd.Float64() - 10
			s += math.Exp(xs[i])
		}
		want := math.Log(s)
		if got := LogSumExp(xs); math.Abs(got-want) > 1e-14*math.Max(1, math.Abs(want)) {
			t.Errorf("LogSumExp(%v) = %.17g, naive %.17g", xs, got, want)
		}
		if n >= 2 {
			want2 := math.Log(math.Exp(xs[0]) + math.Exp(xs[1]))
			if got := LogAddExp(xs[0], xs[1]); math.Abs(got-want2) > 1e-14*math.Max(1, math.Abs(want2)) {
				t.Errorf("LogAddExp(%v, %v) = %.17g, naive %.17g", xs[0], xs[1], got, want2)
			}
		}
	}
}

func TestLogSumExpExtreme(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{700, 700}, 700 + math.Ln2},
		{[]float64{710, 709}, 710 + math.Log1p(math.Exp(-1))},
		{[]float64{-700, -700, -700}, -700 + math.Log(3)},
		{[]float64{-800, -800}, -800 + math.Ln2},
		{[]float64{-1000, 0}, 0},
		{[]float64{-inf, -inf}, -inf},
		{[]float64{}, -inf},
		{nil, -inf},
		{[]float64{-inf, 3}, 3},
		{[]float64{inf, 3}, inf},
		{[]float64{inf, -inf}, inf},
		{[]float64{1, math.NaN()}, math.NaN()},
	} {
		got := LogSumExp(c.xs)
		if math.IsNaN(c.want) {
			if !math.IsNaN(got) {
				t.Errorf("LogSumExp(%v) = %v, want NaN", c.xs, got)
			}
			continue
		}
		if got != c.want && math.Abs(got-c.want) > 1e-15*math.Abs(c.want) {
			t.Errorf("LogSumExp(%v) = %.17g, want %.17g", c.xs, got, c.want)
		}
		if len(c.xs) == 2 {
			if g2 := LogAddExp(c.xs[0], c.xs[1]); g2 != got && math.Abs(g2-got) > 1e-15*math.Abs(got) {
				t.Errorf("LogAddExp(%v, %v) = %.17g, LogSumExp %.17g", c.xs[0], c.xs[1], g2, got)
			}
		}
	}
	if v := LogAddExp(math.Inf(-1), math.Inf(-1)); !math.IsInf(v, -1) {
		t.Errorf("LogAddExp(−Inf, −Inf) = %v, want −Inf", v)
	}
	if v := LogAddExp(math.NaN(), 1); !math.IsNaN(v) {
		t.Errorf("LogAddExp(NaN, 1) = %v, want NaN", v)
	}
}

// TestNormalizeLogShift checks that m + ln s is NormalizeLogTo's log
// normaliser and the weights are its, that (logw_i − m) − ln s is ln dst_i
// to a few ulps of ln dst_i even where m is large, and the NaN cases.
func TestNormalizeLogShift(t *testing.T) {
	logw := []float64{-1e6 - 1, -1e6 - 3.25, -1e6, -1e6 - 40}
	p, q := make([]float64, len(logw)), make([]float64, len(logw))
	lse := NormalizeLogTo(p, logw)
	m, s := NormalizeLogShift(q, logw)
	if m != -1e6 || m+math.Log(s) != lse {
		t.Errorf("m = %v, m + ln s = %v, want −1e6 and %v", m, m+math.Log(s), lse)
	}
	for i := range p {
		if math.Float64bits(p[i]) != math.Float64bits(q[i]) {
			t.Errorf("weight %d: %v, NormalizeLogTo %v", i, q[i], p[i])
		}
		if got, want := (logw[i]-m)-math.Log(s), math.Log(q[i]); math.Abs(got-want) > 4e-16*math.Max(1, math.Abs(want)) {
			t.Errorf("ln weight %d: %v, want %v", i, got, want)
		}
	}
	for _, bad := range [][]float64{{math.Inf(-1), math.Inf(-1)}, {0, math.NaN()}, {math.Inf(1), 0}} {
		d := make([]float64, len(bad))
		if _, s := NormalizeLogShift(d, bad); !math.IsNaN(s) || !math.IsNaN(d[0]) || !math.IsNaN(d[1]) {
			t.Errorf("%v: s = %v, weights %v, want NaN", bad, s, d)
		}
	}
}

func TestNormalizeLogTo(t *testing.T) {
	logw := []float64{-1000, -1001, -1002.5, math.Inf(-1)}
	p := make([]float64, len(logw))
	lse := NormalizeLogTo(p, logw)
	if want := LogSumExp(logw); lse != want {
		t.Errorf("NormalizeLogTo returned %v, want %v", lse, want)
	}
	var s float64
	for _, v := range p {
		s += v
	}
	if math.Abs(s-1) > 1e-15 {
		t.Errorf("weights sum to %.17g", s)
	}
	if p[3] != 0 {
		t.Errorf("weight of −Inf log-weight = %v, want 0", p[3])
	}
	if got, want := p[0]/p[1], math.E; math.Abs(got-want) > 1e-13 {
		t.Errorf("ratio %v, want e", got)
	}
	// In place.
	q := append([]float64(nil), logw...)
	NormalizeLogTo(q, q)
	for i := range q {
		if q[i] != p[i] {
			t.Errorf("in-place result %v differs from %v", q, p)
			break
		}
	}
	if !panics(func() { NormalizeLogTo(make([]float64, 2), logw) }) {
		t.Error("NormalizeLogTo with mismatched lengths did not panic")
	}
}

func TestXLogYEntropy(t *testing.T) {
	if v := XLogY(0, 0); v != 0 {
		t.Errorf("XLogY(0, 0) = %v, want 0", v)
	}
	if v := XLogY(0, math.Inf(1)); v != 0 {
		t.Errorf("XLogY(0, Inf) = %v, want 0", v)
	}
	if v, want := XLogY(2, 3), 2*math.Log(3); v != want {
		t.Errorf("XLogY(2, 3) = %v, want %v", v, want)
	}
	if v := XLogY(1, 0); !math.IsInf(v, -1) {
		t.Errorf("XLogY(1, 0) = %v, want −Inf", v)
	}
	for k := 1; k <= 10; k++ {
		p := make([]float64, k)
		for i := range p {
			p[i] = 1 / float64(k)
		}
		if got, want := Entropy(p), math.Log(float64(k)); math.Abs(got-want) > 1e-15*math.Max(1, want) {
			t.Errorf("entropy of uniform(%d) = %.17g, want ln K = %.17g", k, got, want)
		}
	}
	// Zeros contribute nothing: H(½, ½, 0, 0) = ln 2.
	if got := Entropy([]float64{0.5, 0, 0.5, 0}); math.Abs(got-math.Ln2) > 1e-16 {
		t.Errorf("Entropy with zeros = %v, want ln 2", got)
	}
	if got := Entropy([]float64{1, 0}); got != 0 {
		t.Errorf("Entropy of a point mass = %v, want 0", got)
	}
}

func TestLogDomainNoAlloc(t *testing.T) {
	xs := []float64{1, 2, 3, -4, 5}
	dst := make([]float64, len(xs))
	var sink float64
	if n := testing.AllocsPerRun(100, func() {
		sink += LogSumExp(xs) + LogAddExp(1, 2) + NormalizeLogTo(dst, xs) + Entropy(dst)
	}); n != 0 {
		t.Errorf("log-domain helpers allocate %v times per call", n)
	}
	_ = sink
}

func BenchmarkLogSumExp(b *testing.B) {
	xs := make([]float64, 16)
	for i := range xs {
		xs[i] = float64(i) / 3
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink += LogSumExp(xs)
	}
}

// TestLogProduct: LogProduct's Σ ln x equals Σ math.Log(x) to n·2⁻⁵³ over
// terms from 1e-300 to 1e300 (whose plain product would under- and
// overflow), and follows math.Log's −Inf, +Inf and NaN.
func TestLogProduct(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var p LogProduct
	if p.Log() != 0 {
		t.Fatalf("empty: %g", p.Log())
	}
	want := 0.0
	const n = 5000
	for i := 0; i < n; i++ {
		x := math.Exp(690 * (2*r.Float64() - 1))
		p.Add(x)
		want += math.Log(x)
	}
	if got := p.Log(); math.Abs(got-want) > n*0x1p-53*math.Max(1, math.Abs(want))+1e-9 {
		t.Errorf("Σ ln x: %.17g, want %.17g", got, want)
	}
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{[]float64{2, 0, 3}, math.Inf(-1)}, {[]float64{math.Inf(1), 2}, math.Inf(1)}, {[]float64{2, -1}, math.NaN()}, {[]float64{0, math.Inf(1)}, math.NaN()}} {
		var q LogProduct
		for _, x := range tc.xs {
			q.Add(x)
		}
		if got := q.Log(); !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%v: %g, want %g", tc.xs, got, tc.want)
		}
	}
}
