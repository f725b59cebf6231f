package chapter4

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// stream returns a seeded generator for test purpose name.
func stream(seed uint64, name string) *rand.Rand { return rng.New(seed, "chapter4/test", name) }

// colStats returns the mean and the standard deviation (divisor n) of
// column q of X over the given rows (all rows if rows is nil).
func colStats(X *mat.Dense, q int, rows []int) (mean, sd float64) {
	if rows == nil {
		n, _ := X.Dims()
		for i := range n {
			rows = append(rows, i)
		}
	}
	for _, i := range rows {
		mean += X.At(i, q)
	}
	mean /= float64(len(rows))
	for _, i := range rows {
		d := X.At(i, q) - mean
		sd += d * d
	}
	return mean, math.Sqrt(sd / float64(len(rows)))
}

// clusterRows returns the rows of each label 0..k−1.
func clusterRows(labels []int, k int) [][]int {
	out := make([][]int, k)
	for i, c := range labels {
		out[c] = append(out[c], i)
	}
	return out
}

func TestLattice18(t *testing.T) {
	g := DefaultLattice18()
	X, labels := g.Generate(stream(1, "lattice"))
	if n, p := X.Dims(); n != 900 || p != 2 || len(labels) != 900 {
		t.Fatalf("dims %d×%d with %d labels, want 900×2 with 900", n, p, len(labels))
	}
	for c, m := range ClassCounts(labels, 18) {
		if m != 50 {
			t.Errorf("cluster %d has %d points, want 50", c, m)
		}
	}
	// The lattice x ∈ {0, 5, …, 25}, y ∈ {0, 5, 10} (targets §3.1), x first.
	C := g.Centres()
	for _, want := range []struct {
		c    int
		x, y float64
	}{{0, 0, 0}, {1, 5, 0}, {5, 25, 0}, {6, 0, 5}, {12, 0, 10}, {17, 25, 10}} {
		if C.At(want.c, 0) != want.x || C.At(want.c, 1) != want.y {
			t.Errorf("centre %d = (%g, %g), want (%g, %g)", want.c, C.At(want.c, 0), C.At(want.c, 1), want.x, want.y)
		}
	}
	// Each cluster's sample mean lies near its centre: every coordinate has
	// sd ≤ 1, so the mean of 50 has sd ≤ 0.14; 0.6 is over 4 sd.
	for c, rows := range clusterRows(labels, 18) {
		for q := range 2 {
			if m, _ := colStats(X, q, rows); math.Abs(m-C.At(c, q)) > 0.6 {
				t.Errorf("cluster %d: mean of coordinate %d is %.3f, centre %g", c, q, m, C.At(c, q))
			}
		}
	}
	// Nearly every point is nearest its own centre (spacing 5, σ ≤ 1).
	near := 0
	for i := range 900 {
		best, bestD := -1, math.Inf(1)
		for c := range 18 {
			d := math.Hypot(X.At(i, 0)-C.At(c, 0), X.At(i, 1)-C.At(c, 1))
			if d < bestD {
				best, bestD = c, d
			}
		}
		if best == labels[i] {
			near++
		}
	}
	if near < 880 {
		t.Errorf("%d of 900 points are nearest their own centre, want ≥ 880", near)
	}
}

// TestLattice18Rotation checks data.rotation: the same stream gives the
// axis-aligned points rotated about the origin by the angle (to 1e-12),
// the centres with them, and the labels unchanged.
func TestLattice18Rotation(t *testing.T) {
	g := DefaultLattice18()
	X0, l0 := g.Generate(stream(3, "lattice"))
	C0 := g.Centres()
	g.Rotation = 37
	X, l := g.Generate(stream(3, "lattice"))
	C := g.Centres()
	sin, cos := math.Sincos(37 * math.Pi / 180)
	check := func(name string, a, b *mat.Dense) {
		t.Helper()
		n, _ := a.Dims()
		for i := range n {
			x, y := a.At(i, 0), a.At(i, 1)
			if math.Abs(b.At(i, 0)-(cos*x-sin*y)) > 1e-12 || math.Abs(b.At(i, 1)-(sin*x+cos*y)) > 1e-12 {
				t.Fatalf("%s row %d: (%v, %v), want (%v, %v) rotated by 37°", name, i, b.At(i, 0), b.At(i, 1), x, y)
			}
		}
	}
	check("data", X0, X)
	check("centres", C0, C)
	if !slices.Equal(l0, l) {
		t.Error("the labels differ")
	}
	g.Rotation = 400
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "data.rotation") {
		t.Errorf("rotation 400: error %v", err)
	}
}

// TestLattice18Covariances checks the covariances on many points per
// cluster: the standard deviations along the principal axes lie in
// [0.3, 1.0] (here ±7% for sampling error at 4000 points, about 3 sd),
// spread over that range, and the axes are rotated, not aligned with x and
// y.
func TestLattice18Covariances(t *testing.T) {
	g := DefaultLattice18()
	g.PointsPerCluster = 4000
	X, labels := g.Generate(stream(2, "lattice"))
	lo, hi, rotated := math.Inf(1), math.Inf(-1), 0
	for c, rows := range clusterRows(labels, 18) {
		sub, _ := SelectRows(X, nil, rows)
		var cov mat.SymDense
		stat.CovarianceMatrix(&cov, sub, nil)
		var eig mat.EigenSym
		if !eig.Factorize(&cov, false) {
			t.Fatal("eigendecomposition failed")
		}
		for _, v := range eig.Values(nil) {
			sd := math.Sqrt(v)
			if sd < 0.3*0.93 || sd > 1.0*1.07 {
				t.Errorf("cluster %d: an axis has sd %.3f, want within [0.3, 1.0]", c, sd)
			}
			lo, hi = min(lo, sd), max(hi, sd)
		}
		// The major axis' angle, in [0, π).
		phi := math.Mod(0.5*math.Atan2(2*cov.At(0, 1), cov.At(0, 0)-cov.At(1, 1))+math.Pi, math.Pi)
		if d := math.Mod(phi, math.Pi/2); d > 0.2 && d < math.Pi/2-0.2 {
			rotated++
		}
	}
	if lo > 0.45 || hi < 0.85 {
		t.Errorf("the axis sds span [%.3f, %.3f]; 36 draws from U[0.3, 1.0] should reach below 0.45 and above 0.85", lo, hi)
	}
	// With θ ~ U[0, π) a major axis is more than 0.2 rad from both
	// coordinate axes with probability 1 − 0.8/π ≈ 0.75: about 13 of 18.
	if rotated < 6 {
		t.Errorf("only %d of 18 clusters have their major axis off the coordinate axes: the covariances are not rotated", rotated)
	}
}

func TestEmbeddedClusters(t *testing.T) {
	g := DefaultEmbeddedClusters()
	s := g.Sample(stream(3, "embedded"))
	n, p := s.X.Dims()
	if n != 1800 || p != 10 {
		t.Fatalf("dims %d×%d, want 1800×10", n, p)
	}
	if got := ClassCounts(s.Labels, 6); !slices.Equal(got, []int{300, 300, 300, 300, 300, 300}) {
		t.Errorf("cluster sizes %v, want 300 each", got)
	}
	for c, rows := range clusterRows(s.Labels, 6) {
		k := g.Dims[c]
		O := s.Orientations[c]
		if r, cc := O.Dims(); r != p || cc != k {
			t.Fatalf("cluster %d: orientation is %d×%d, want %d×%d", c, r, cc, p, k)
		}
		// Orthonormal columns: OᵀO = I.
		var oto mat.Dense
		oto.Mul(O.T(), O)
		if !mat.EqualApprox(&oto, eye(k), 1e-12) {
			t.Errorf("cluster %d: OᵀO is not the identity:\n%v", c, mat.Formatted(&oto))
		}
		for q := range p {
			if v := s.Centres.At(c, q); v < 0 || v > 3 {
				t.Errorf("cluster %d: centre coordinate %d = %g outside [0, 3]", c, q, v)
			}
			// Each coordinate has variance ≤ 1.01, so the mean of 300 has
			// sd ≤ 0.058; 0.25 is over 4 sd.
			if m, _ := colStats(s.X, q, rows); math.Abs(m-s.Centres.At(c, q)) > 0.25 {
				t.Errorf("cluster %d: mean of coordinate %d is %.3f, centre %.3f", c, q, m, s.Centres.At(c, q))
			}
		}
		// The covariance has rank k plus noise: of the singular values of
		// the centred points, divided by √n, the top k estimate sds of 1
		// (the smallest of 7 unit directions at n = 300 is about
		// 1 − √(7/300) ≈ 0.85) and the rest the noise sd 0.1.
		sub, _ := SelectRows(s.X, nil, rows)
		centre(sub)
		var svd mat.SVD
		if !svd.Factorize(sub, mat.SVDNone) {
			t.Fatal("SVD failed")
		}
		sv := svd.Values(nil)
		for j, v := range sv {
			v /= math.Sqrt(float64(len(rows)))
			if j < k && v < 0.6 {
				t.Errorf("cluster %d (k = %d): singular value %d is %.3f·√n, want a latent direction (≈ 1)", c, k, j, v)
			}
			if j >= k && (v < 0.06 || v > 0.14) {
				t.Errorf("cluster %d (k = %d): singular value %d is %.3f·√n, want the noise level 0.1", c, k, j, v)
			}
		}
		// Off the subspace spanned by O only the noise remains: its
		// variance per dimension is 0.01 (±20%, over 4 sd at these sizes).
		var off float64
		for _, i := range rows {
			d := mat.NewVecDense(p, nil)
			for q := range p {
				d.SetVec(q, s.X.At(i, q)-s.Centres.At(c, q))
			}
			var z, proj mat.VecDense
			z.MulVec(O.T(), d)
			proj.MulVec(O, &z)
			d.SubVec(d, &proj)
			off += mat.Dot(d, d)
		}
		if k < p {
			if v := off / float64(len(rows)*(p-k)); v < 0.008 || v > 0.012 {
				t.Errorf("cluster %d: variance off the embedding is %.4f per dimension, want 0.01", c, v)
			}
		}
	}
}

// eye returns the k×k identity.
func eye(k int) *mat.Dense {
	I := mat.NewDense(k, k, nil)
	for i := range k {
		I.Set(i, i, 1)
	}
	return I
}

// centre subtracts each column's mean.
func centre(X *mat.Dense) {
	n, p := X.Dims()
	for q := range p {
		m, _ := colStats(X, q, nil)
		for i := range n {
			X.Set(i, q, X.At(i, q)-m)
		}
	}
}

func TestRandomOrthogonal(t *testing.T) {
	const p = 5
	Q := RandomOrthogonal(stream(4, "orth"), p)
	var qtq mat.Dense
	qtq.Mul(Q.T(), Q)
	if !mat.EqualApprox(&qtq, eye(p), 1e-12) {
		t.Errorf("QᵀQ is not the identity:\n%v", mat.Formatted(&qtq))
	}
	// The sign fix: with G the Gaussian matrix drawn from the same stream
	// (row by row), R = QᵀG is upper triangular with a positive diagonal.
	rnd := stream(4, "orth")
	G := mat.NewDense(p, p, nil)
	for i := range p {
		for j := range p {
			G.Set(i, j, rnd.NormFloat64())
		}
	}
	var R mat.Dense
	R.Mul(Q.T(), G)
	for i := range p {
		if R.At(i, i) <= 0 {
			t.Errorf("R[%d,%d] = %g, want > 0 (the sign fix)", i, i, R.At(i, i))
		}
		for j := range i {
			if math.Abs(R.At(i, j)) > 1e-12 {
				t.Errorf("R[%d,%d] = %g, want 0", i, j, R.At(i, j))
			}
		}
	}
	// Uniformity: under the Haar measure Q₁₁ is symmetric about 0 (sd
	// 1/√3 for p = 3; the mean of 4000 has sd 0.009). Without the sign fix
	// LAPACK's Householder QR makes it always negative.
	rnd = stream(5, "orth")
	var sum float64
	pos := 0
	for range 4000 {
		q11 := RandomOrthogonal(rnd, 3).At(0, 0)
		sum += q11
		if q11 > 0 {
			pos++
		}
	}
	if m := sum / 4000; math.Abs(m) > 0.04 || pos < 1800 || pos > 2200 {
		t.Errorf("Q₁₁: mean %.4f and %d of 4000 positive, want about 0 and 2000", m, pos)
	}
}

func TestFourClusters(t *testing.T) {
	g := DefaultFourClusters()
	X, labels := g.Generate(stream(8, "four"))
	if n, _ := X.Dims(); n != 150 {
		t.Fatalf("%d points, want 150", n)
	}
	// Uniform labels: each count is Binomial(150, 1/4), mean 37.5, sd 5.3.
	for c, m := range ClassCounts(labels, 4) {
		if m < 20 || m > 55 {
			t.Errorf("cluster %d has %d points, want about 37", c, m)
		}
	}
	// Each cluster's mean is near its centre (the mean of ≥ 20 points has
	// sd ≤ 0.22), and the 300 residuals from the centres have sd 1 (±15%,
	// over 3 sd).
	want := [4][2]float64{{4, 4}, {-4, 4}, {-4, -4}, {4, -4}}
	var res []float64
	for c, rows := range clusterRows(labels, 4) {
		for q := range 2 {
			if m, _ := colStats(X, q, rows); math.Abs(m-want[c][q]) > 1 {
				t.Errorf("cluster %d coordinate %d: mean %.2f, want %g", c, q, m, want[c][q])
			}
			for _, i := range rows {
				res = append(res, X.At(i, q)-want[c][q])
			}
		}
	}
	if m, sd := stat.PopMeanStdDev(res, nil); math.Abs(m) > 0.25 || sd < 0.85 || sd > 1.15 {
		t.Errorf("residuals from the centres: mean %.3f, sd %.3f; want 0 and 1", m, sd)
	}
	g = FourClusters{Delta: 1, PointsPerCluster: 10}
	_, labels = g.Generate(stream(8, "four"))
	if got := ClassCounts(labels, 4); !slices.Equal(got, []int{10, 10, 10, 10}) {
		t.Errorf("points_per_cluster = 10: counts %v", got)
	}
}

// generators returns each generator with a small size, for the
// reproducibility tests.
func generators() map[string]func(*rand.Rand) (*mat.Dense, []float64) {
	labelsAsFloat := func(X *mat.Dense, l []int) (*mat.Dense, []float64) {
		f := make([]float64, len(l))
		for i, v := range l {
			f[i] = float64(v)
		}
		return X, f
	}
	lattice := DefaultLattice18()
	lattice.PointsPerCluster = 5
	emb := DefaultEmbeddedClusters()
	emb.PointsPerCluster = 8
	sp := DefaultSpiral()
	sp.N = 50
	return map[string]func(*rand.Rand) (*mat.Dense, []float64){
		"lattice":  func(r *rand.Rand) (*mat.Dense, []float64) { return labelsAsFloat(lattice.Generate(r)) },
		"embedded": func(r *rand.Rand) (*mat.Dense, []float64) { return labelsAsFloat(emb.Generate(r)) },
		"spiral":   func(r *rand.Rand) (*mat.Dense, []float64) { return sp.Generate(r) },
		"four":     func(r *rand.Rand) (*mat.Dense, []float64) { return labelsAsFloat(DefaultFourClusters().Generate(r)) },
	}
}

func TestGeneratorsReproducible(t *testing.T) {
	for name, gen := range generators() {
		X1, l1 := gen(stream(10, name))
		X2, l2 := gen(stream(10, name))
		if !mat.Equal(X1, X2) || !slices.Equal(l1, l2) {
			t.Errorf("%s: the same seed gave different data", name)
		}
		X3, _ := gen(stream(11, name))
		if mat.Equal(X1, X3) {
			t.Errorf("%s: different seeds gave the same data", name)
		}
	}
}

func TestGeneratorValidate(t *testing.T) {
	for name, v := range map[string]interface{ Validate() error }{
		"lattice": DefaultLattice18(), "embedded": DefaultEmbeddedClusters(),
		"spiral": DefaultSpiral(), "four": DefaultFourClusters(),
	} {
		if err := v.Validate(); err != nil {
			t.Errorf("%s: the defaults are invalid: %v", name, err)
		}
	}
	lattice := func(f func(*Lattice18)) Lattice18 { g := DefaultLattice18(); f(&g); return g }
	emb := func(f func(*EmbeddedClusters)) EmbeddedClusters { g := DefaultEmbeddedClusters(); f(&g); return g }
	spiral := func(f func(*Spiral)) Spiral { g := DefaultSpiral(); f(&g); return g }
	for _, c := range []struct {
		spec interface{ Validate() error }
		key  string
	}{
		{lattice(func(g *Lattice18) { g.Grid = [2]int{0, 3} }), "data.grid"},
		{lattice(func(g *Lattice18) { g.Grid = [2]int{1 << 40, 1 << 40} }), "data.grid"},
		{lattice(func(g *Lattice18) { g.Spacing = math.NaN() }), "data.spacing"},
		{lattice(func(g *Lattice18) { g.PointsPerCluster = 0 }), "data.points_per_cluster"},
		{lattice(func(g *Lattice18) { g.PointsPerCluster = 1 << 40 }), "data.points_per_cluster"},
		{lattice(func(g *Lattice18) { g.SigmaRange = [2]float64{1, 0.3} }), "data.sigma_range"},
		{lattice(func(g *Lattice18) { g.SigmaRange = [2]float64{0, 1} }), "data.sigma_range"},
		{emb(func(g *EmbeddedClusters) { g.P = 0 }), "data.p"},
		{emb(func(g *EmbeddedClusters) { g.Dims = nil }), "data.dims"},
		{emb(func(g *EmbeddedClusters) { g.Dims = []int{7, 11} }), "data.dims"},
		{emb(func(g *EmbeddedClusters) { g.MeanRange = [2]float64{0, math.Inf(1)} }), "data.mean_range"},
		{emb(func(g *EmbeddedClusters) { g.WithinVar = 0 }), "data.within_var"},
		{emb(func(g *EmbeddedClusters) { g.NoiseVar = -0.01 }), "data.noise_var"},
		{emb(func(g *EmbeddedClusters) { g.PointsPerCluster = -8 }), "data.points_per_cluster"},
		{spiral(func(g *Spiral) { g.N = 0 }), "data.n"},
		{spiral(func(g *Spiral) { g.TRange = [2]float64{1, 0} }), "data.t_range"},
		{spiral(func(g *Spiral) { g.TSampling = "random" }), "data.t_sampling"},
		{spiral(func(g *Spiral) { g.NoiseVar = math.NaN() }), "data.noise_var"},
		{FourClusters{Delta: 0, NTotal: 150}, "data.deltas"},
		{FourClusters{Delta: 1, NTotal: 150, PointsPerCluster: 10}, "data.points_per_cluster"},
		{FourClusters{Delta: 1}, "data.points_per_cluster"},
		{FourClusters{Delta: 1, NTotal: -1}, "data.n_total"},
	} {
		err := c.spec.Validate()
		var ve *config.ValueError
		if !errors.As(err, &ve) || ve.Key != c.key {
			t.Errorf("%+v: Validate() = %v, want an error for key %s", c.spec, err, c.key)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "data.t_sampling") {
			t.Errorf("Generate on an invalid spec: recovered %v, want a panic naming data.t_sampling", r)
		}
	}()
	spiral(func(g *Spiral) { g.TSampling = "" }).Generate(stream(1, "x"))
}

// TestSpecsDecodeTOML decodes the [data] tables of the targets' configs
// (§6, without kind and the list-valued keys the experiment owns) into the
// specs: the TOML keys are the ones the Validate errors name.
func TestSpecsDecodeTOML(t *testing.T) {
	for _, c := range []struct {
		text      string
		got, want any
	}{
		{"grid = [6, 3]\nspacing = 5.0\npoints_per_cluster = 50\nsigma_range = [0.3, 1.0]", new(Lattice18), DefaultLattice18()},
		{"p = 10\ndims = [7, 4, 3, 2, 2, 1]\nmean_range = [0.0, 3.0]\nwithin_var = 1.0\nnoise_var = 0.01\npoints_per_cluster = 300", new(EmbeddedClusters), DefaultEmbeddedClusters()},
		{"n = 800\nt_range = [0.0, 12.566370614359172]\nt_sampling = \"uniform\"\nnoise_var = 0.5", new(Spiral), DefaultSpiral()},
		{"delta = 4.0\nn_total = 150", new(FourClusters), DefaultFourClusters()},
	} {
		md, err := toml.Decode(c.text, c.got)
		if err != nil || len(md.Undecoded()) > 0 {
			t.Errorf("%T: %v, undecoded %v", c.got, err, md.Undecoded())
			continue
		}
		if got := reflect.ValueOf(c.got).Elem().Interface(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("decoded %+v, want the defaults %+v", got, c.want)
		}
	}
}

// readOptdigits reads a file of the data directory, skipping the test if
// it is absent.
func readOptdigits(t *testing.T, name string) (*mat.Dense, []int) {
	t.Helper()
	dir := experiments.TestDataDir()
	if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is not in the data directory %s (set $%s to the folder holding the UCI optdigits files)", name, dir, experiments.DataEnv)
	}
	raw, err := experiments.ReadData(dir, name) // checks the SHA-256
	if err != nil {
		t.Fatal(err)
	}
	X, labels, err := LoadOptdigits(name, raw)
	if err != nil {
		t.Fatal(err)
	}
	return X, labels
}

// TestOptdigitsFiles loads the real files, recounts the classes against
// the UCI description (targets §3.4) and applies the §3.4 pre-processing.
func TestOptdigitsFiles(t *testing.T) {
	train, trainLabels := readOptdigits(t, OptdigitsTrain)
	test, testLabels := readOptdigits(t, OptdigitsTest)
	for _, f := range []struct {
		name   string
		X      *mat.Dense
		labels []int
		n      int
		counts [OptdigitsClasses]int
	}{
		// The counts of targets §3.4 (from optdigits.names).
		{OptdigitsTrain, train, trainLabels, 3823, [10]int{376, 389, 380, 389, 387, 376, 377, 387, 380, 382}},
		{OptdigitsTest, test, testLabels, 1797, [10]int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180}},
	} {
		n, p := f.X.Dims()
		counts := ClassCounts(f.labels, OptdigitsClasses)
		t.Logf("%s: %d images of %d pixels; per class 0..9: %v", f.name, n, p, counts)
		if n != f.n || p != 64 {
			t.Errorf("%s: %d×%d, want %d×64", f.name, n, p, f.n)
		}
		if !slices.Equal(counts, f.counts[:]) {
			t.Errorf("%s: class counts %v, want %v", f.name, counts, f.counts)
		}
	}
	if OptdigitsTrainCounts != [10]int{376, 389, 380, 389, 387, 376, 377, 387, 380, 382} ||
		OptdigitsTestCounts != [10]int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180} {
		t.Error("OptdigitsTrainCounts or OptdigitsTestCounts differ from targets §3.4")
	}

	ztrain, ztest, s, err := numeric.Standardise(train, test, numeric.DropConstant)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s.Note(OptdigitsPixelName))
	// Targets §3.4 expects 1-3 constant pixels. In optdigits.tra they are
	// the top-left corner and pixel 39 (an awk count over the file agrees;
	// pixel 32 is constant in optdigits.tes but not in optdigits.tra).
	if len(s.Dropped) < 1 || len(s.Dropped) > 3 || !slices.Equal(s.Dropped, []int{0, 39}) {
		t.Errorf("dropped pixels %v, want [0 39]", s.Dropped)
	}
	if _, p := ztrain.Dims(); p != 62 {
		t.Errorf("standardised training data has %d columns, want 62", p)
	}
	if n, p := ztest.Dims(); n != 1797 || p != 62 {
		t.Errorf("standardised test data is %d×%d, want 1797×62", n, p)
	}
	for j := range 62 {
		if m, sd := colStats(ztrain, j, nil); math.Abs(m) > 1e-12 || math.Abs(sd-1) > 1e-12 {
			t.Errorf("standardised training column %d: mean %g, sd %.15f; want 0 and 1", j, m, sd)
		}
	}
	if back := s.Invert(ztrain); !mat.EqualApprox(back, train, 1e-12) {
		t.Error("Invert(standardised training data) differs from the training data")
	}
}

// goodOptdigitsLine is a valid line: 64 zero pixels and the label 7. Field
// f (from 1) starts at column 2f − 1.
var goodOptdigitsLine = strings.Repeat("0,", 64) + "7"

// withField returns goodOptdigitsLine with field f (from 1) replaced.
func withField(f int, v string) string {
	fs := strings.Split(goodOptdigitsLine, ",")
	fs[f-1] = v
	return strings.Join(fs, ",")
}

func TestLoadOptdigits(t *testing.T) {
	line2 := "1,2,3," + strings.Repeat("16,", 61) + "0"
	X, labels, err := LoadOptdigits("x.tra", []byte(goodOptdigitsLine+"\r\n"+line2+"\r\n\n  \n"))
	if err != nil {
		t.Fatal(err)
	}
	if n, p := X.Dims(); n != 2 || p != 64 || !slices.Equal(labels, []int{7, 0}) {
		t.Fatalf("got %d×%d with labels %v, want 2×64 with [7 0]", n, p, labels)
	}
	if X.At(0, 5) != 0 || X.At(1, 0) != 1 || X.At(1, 2) != 3 || X.At(1, 63) != 16 {
		t.Errorf("values: row 1 = %v", mat.Row(nil, 1, X))
	}

	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "", "x.tra: no images"},
		{"only blank lines", "\n \n", "x.tra: no images"},
		{"too few fields", goodOptdigitsLine + "\n" + strings.Repeat("0,", 63) + "7\n", "x.tra:2: 64 comma-separated fields, want 65"},
		{"too many fields", "0," + goodOptdigitsLine, "x.tra:1: 66 comma-separated fields, want 65"},
		{"blank separated", strings.Repeat("0 ", 64) + "7", "x.tra:1: 1 comma-separated fields, want 65"},
		{"blank line inside", goodOptdigitsLine + "\n\n" + goodOptdigitsLine, "x.tra:2: blank line inside the data"},
		{"not an integer", withField(3, "1.5"), `x.tra:1:5: field 3 (pixel 2): "1.5" is not an integer`},
		{"NaN", goodOptdigitsLine + "\n" + withField(10, "NaN"), `x.tra:2:19: field 10 (pixel 9): "NaN" is not an integer`},
		{"word", withField(64, "abc"), `x.tra:1:127: field 64 (pixel 63): "abc" is not an integer`},
		{"empty field", withField(2, ""), "x.tra:1:3: field 2 (pixel 1) is empty"},
		{"pixel above 16", withField(1, "17"), "x.tra:1:1: field 1 (pixel 0) = 17: out of range 0..16"},
		{"negative pixel", withField(40, "-1"), "x.tra:1:79: field 40 (pixel 39) = -1: out of range 0..16"},
		{"huge pixel", withField(1, "99999999999999999999"), `x.tra:1:1: field 1 (pixel 0) = "99999999999999999999": out of range 0..16`},
		{"label 10", withField(65, "10"), "x.tra:1:129: field 65 (the class label) = 10: out of range 0..9"},
		{"label not an integer", withField(65, "seven"), `x.tra:1:129: field 65 (the class label): "seven" is not an integer`},
		{"long junk", withField(1, strings.Repeat("x", 100)+"\rz"), `x.tra:1:1: field 1 (pixel 0): "xxxxxxxxxxxxxxxxxxxxxxxx"… is not an integer`},
	} {
		_, _, err := LoadOptdigits("x.tra", []byte(c.data))
		if err == nil {
			t.Errorf("%s: no error, want %q", c.name, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error\n\t%s\nwant one line starting\n\t%s", c.name, err, c.want)
		}
	}
}

func TestClassSelection(t *testing.T) {
	labels := []int{0, 1, 2, 0, 1, 2, 0, 0, 1, 0}
	if got := ClassRows(labels, 1, 2); !slices.Equal(got, []int{1, 2, 4, 5, 8}) {
		t.Errorf("ClassRows(1, 2) = %v", got)
	}
	X := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	Y, l := SelectRows(X, labels, []int{9, 2})
	if !slices.Equal(Y.RawMatrix().Data, []float64{9, 2}) || !slices.Equal(l, []int{0, 2}) {
		t.Errorf("SelectRows = %v %v", Y.RawMatrix().Data, l)
	}

	rows, err := SampleRowsPerClass("per_class", labels, []int{0, 1}, 2, stream(13, "subset"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || labels[rows[0]] != 0 || labels[rows[1]] != 0 || labels[rows[2]] != 1 || labels[rows[3]] != 1 ||
		rows[0] >= rows[1] || rows[2] >= rows[3] {
		t.Errorf("SampleRowsPerClass = %v, want two ascending rows of class 0, then two of class 1", rows)
	}
	if _, err := SampleRowsPerClass("per_class", labels, []int{2}, 3, stream(13, "subset")); err == nil || !strings.Contains(err.Error(), "per_class = 3: class 2 has only 2 rows") {
		t.Errorf("too few rows: error %v", err)
	}
	// Uniform without replacement: each of class 0's 5 rows is chosen with
	// probability 3/5; over 3000 draws that is 1800 ± 27 times.
	rnd := stream(14, "subset")
	seen := map[int]int{}
	for range 3000 {
		rows, _ := SampleRowsPerClass("per_class", labels, []int{0}, 3, rnd)
		if len(slices.Compact(slices.Clone(rows))) != 3 {
			t.Fatalf("rows %v repeat a row", rows)
		}
		for _, r := range rows {
			seen[r]++
		}
	}
	for _, r := range ClassRows(labels, 0) {
		if seen[r] < 1700 || seen[r] > 1900 {
			t.Errorf("row %d chosen %d times of 3000, want about 1800", r, seen[r])
		}
	}
}

// FuzzLoadOptdigits: whatever the file holds, LoadOptdigits returns
// either images in range or a one-line error naming the file, never panics.
func FuzzLoadOptdigits(f *testing.F) {
	f.Add([]byte(goodOptdigitsLine + "\n" + goodOptdigitsLine + "\r\n\n"))
	f.Add([]byte(withField(3, "1.5")))
	f.Add([]byte(withField(65, "10") + "\n"))
	f.Add([]byte("\n\n" + goodOptdigitsLine))
	f.Add([]byte(strings.Repeat(",", 64)))
	f.Fuzz(func(t *testing.T, data []byte) {
		X, labels, err := LoadOptdigits("f.tra", data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.tra:") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q: want one line starting with the file name", msg)
			}
			return
		}
		n, p := X.Dims()
		if n != len(labels) || p != OptdigitsPixels {
			t.Fatalf("%d×%d with %d labels", n, p, len(labels))
		}
		for _, v := range X.RawMatrix().Data {
			if v < 0 || v > OptdigitsMaxValue || v != math.Trunc(v) {
				t.Fatalf("pixel value %g", v)
			}
		}
		for _, c := range labels {
			if c < 0 || c >= OptdigitsClasses {
				t.Fatalf("label %d", c)
			}
		}
	})
}
