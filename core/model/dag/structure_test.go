package dag_test

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
)

func TestNewStructureRejects(t *testing.T) {
	for _, c := range []struct {
		name    string
		arity   []int
		parents [][]int
		hidden  []bool
		cyclic  bool
	}{
		{"empty", nil, nil, nil, false},
		{"length mismatch", []int{2, 2}, [][]int{nil}, []bool{false, false}, false},
		{"arity 1", []int{2, 1}, [][]int{nil, {0}}, []bool{false, false}, false},
		{"self loop", []int{2, 2}, [][]int{nil, {1}}, []bool{false, false}, false},
		{"parent out of range", []int{2, 2}, [][]int{nil, {2}}, []bool{false, false}, false},
		{"duplicate parent", []int{2, 2}, [][]int{nil, {0, 0}}, []bool{false, false}, false},
		{"no observed node", []int{2}, [][]int{nil}, []bool{true}, false},
		{"cycle", []int{2, 3, 2}, [][]int{{2}, {0}, {1}}, []bool{true, false, false}, true},
	} {
		_, err := dag.NewStructure(c.arity, c.parents, c.hidden)
		if err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if errors.Is(err, dag.ErrCyclic) != c.cyclic {
			t.Errorf("%s: error %v, cyclic %v", c.name, err, c.cyclic)
		}
	}
}

// TestStructureLayout checks d(m) of eq. (6.24) and the parameter layout by
// hand on a small DAG: h (3 states) → a (2) → b (4), h → b.
func TestStructureLayout(t *testing.T) {
	s, err := dag.NewStructure([]int{2, 4, 3}, [][]int{{2}, {0, 2}, nil}, []bool{false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	// a: 3 rows × 2, b: 2·3 = 6 rows × 4, h: 1 row × 3.
	if got, want := s.Len(), 3*2+6*4+3; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
	if got, want := s.NumParams(), 3*1+6*3+2; got != want {
		t.Errorf("NumParams = %d, want %d", got, want)
	}
	if s.Offset(0) != 0 || s.Offset(1) != 6 || s.Offset(2) != 30 || s.NumRows() != 10 {
		t.Errorf("offsets %d %d %d, rows %d", s.Offset(0), s.Offset(1), s.Offset(2), s.NumRows())
	}
	// b's configuration is a·3 + h (first parent most significant).
	if got := s.Config(1, []int{1, 0, 2}); got != 5 {
		t.Errorf("Config = %d, want 5", got)
	}
	if !slices.Equal(s.Observed(), []int{0, 1}) || !slices.Equal(s.Hidden(), []int{2}) || s.HUsed() != 1 {
		t.Errorf("observed %v, hidden %v, h_used %d", s.Observed(), s.Hidden(), s.HUsed())
	}
}

// canonicalList is the fixture of targets §3.0.
const canonicalList = `
0000 0001 0003 0010 0011 0012 0013 0030 0031 0033 0100 0101 0102 0103 0110 0111 0112
0113 0120 0121 0122 0123 0130 0131 0132 0133 0300 0301 0303 0310 0311 0312 0313 0330
0331 0333 1000 1001 1002 1003 1010 1011 1012 1013 1020 1021 1022 1023 1030 1031 1032
1033 1100 1101 1102 1103 1110 1111 1112 1113 1120 1121 1122 1123 1130 1131 1132 1133
1200 1201 1202 1203 1210 1211 1212 1213 1220 1221 1222 1223 1230 1231 1232 1233 1300
1301 1302 1303 1310 1311 1312 1313 1320 1321 1322 1323 1330 1331 1332 1333 3000 3001
3003 3010 3011 3012 3013 3030 3031 3033 3100 3101 3102 3103 3110 3111 3112 3113 3120
3121 3122 3123 3130 3131 3132 3133 3300 3301 3303 3310 3311 3312 3313 3330 3331 3333`

// TestCandidates is test T1 of targets §1.8.
func TestCandidates(t *testing.T) {
	cands := dag.Candidates()
	want := strings.Fields(canonicalList)
	if len(cands) != dag.NumCandidates || len(want) != 136 {
		t.Fatalf("%d candidates, fixture %d", len(cands), len(want))
	}
	dHist, hHist := map[int]int{}, map[int]int{}
	symmetric, over50, at50 := 0, 0, 0
	supers := map[dag.Code]bool{}
	for i, c := range cands {
		if c.String() != want[i] {
			t.Errorf("candidate %d = %v, want %s", i, c, want[i])
		}
		if i > 0 && cands[i-1].Key() >= c.Key() {
			t.Errorf("candidate %d not in increasing key order", i)
		}
		s := c.Structure()
		if s.NumParams() != c.NumParams() || s.HUsed() != c.HUsed() || s.Hidden()[1] != 1 {
			t.Errorf("%v: structure d=%d h=%d, code d=%d h=%d", c, s.NumParams(), s.HUsed(), c.NumParams(), c.HUsed())
		}
		dHist[c.NumParams()]++
		hHist[c.HUsed()]++
		if c == c.Swap() {
			symmetric++
		}
		if c.NumParams() > 50 {
			over50++
		}
		if c.NumParams() == 50 {
			at50++
		}
		// A class is a strict super-structure of the true one if c or σ(c)
		// contains every edge of c* (and is not c* itself).
		if c != dag.TrueCode && (c.Contains(dag.TrueCode) || c.Swap().Contains(dag.TrueCode)) {
			supers[c] = true
		}
	}
	wantD := map[int]int{18: 1, 22: 4, 26: 12, 30: 20, 34: 20, 38: 24, 42: 22, 46: 12, 50: 12, 54: 4, 58: 4, 66: 1}
	if fmt.Sprint(dHist) != fmt.Sprint(wantD) {
		t.Errorf("d histogram %v, want %v", dHist, wantD)
	}
	if fmt.Sprint(hHist) != fmt.Sprint(map[int]int{0: 1, 1: 15, 2: 120}) {
		t.Errorf("h_used histogram %v", hHist)
	}
	if symmetric != 16 || over50 != 9 || at50 != 12 {
		t.Errorf("%d swap-invariant (want 16), %d with d > 50 (9), %d with d = 50 (12)", symmetric, over50, at50)
	}
	if cands[dag.TrueIndex] != dag.TrueCode || dag.TrueCode.Key() != 126 || dag.TrueCode.NumParams() != 50 {
		t.Errorf("true structure: candidate %v at %d, key %d, d %d", cands[dag.TrueIndex], dag.TrueIndex, dag.TrueCode.Key(), dag.TrueCode.NumParams())
	}
	var got []string
	for c := range supers {
		got = append(got, c.String())
	}
	slices.Sort(got)
	if fmt.Sprint(got) != "[1333 3331 3333]" {
		t.Errorf("strict super-structures %v, want 1333, 3331 (≡ 3332), 3333", got)
	}
	// Every graph of the 256 is a candidate or the swap of one.
	seen := map[dag.Code]bool{}
	for _, c := range cands {
		seen[c], seen[c.Swap()] = true, true
	}
	if len(seen) != 256 {
		t.Errorf("candidates and their swaps cover %d graphs, want 256", len(seen))
	}
}

func TestParseCode(t *testing.T) {
	for _, bad := range []string{"", "133", "13322", "1342", "x332"} {
		if _, err := dag.ParseCode(bad); err == nil {
			t.Errorf("ParseCode(%q): no error", bad)
		}
	}
	for _, c := range dag.Candidates() {
		if got, err := dag.ParseCode(c.String()); err != nil || got != c {
			t.Errorf("ParseCode(%v) = %v, %v", c, got, err)
		}
	}
}

// TestCodeStructure checks that the structure of a code has the edges the
// code names and the row order l = 2·s1 + s2.
func TestCodeStructure(t *testing.T) {
	for _, c := range dag.Candidates() {
		s := c.Structure()
		for i, v := range c {
			pa := s.Parents(i + 2)
			if len(pa) != bits.OnesCount8(v) || (v == 1 && pa[0] != 0) || (v == 2 && pa[0] != 1) || (v == 3 && (pa[0] != 0 || pa[1] != 1)) {
				t.Fatalf("%v: node %d has parents %v", c, i+2, pa)
			}
		}
	}
	s := dag.Code{3, 0, 0, 0}.Structure()
	for s1 := 0; s1 < 2; s1++ {
		for s2 := 0; s2 < 2; s2++ {
			if got := s.Config(2, []int{s1, s2, 0, 0, 0, 0}); got != 2*s1+s2 {
				t.Errorf("l(%d,%d) = %d", s1, s2, got)
			}
		}
	}
}

// TestTrueParams checks the renormalised thesis parameters (lines
// 4696–4704).
func TestTrueParams(t *testing.T) {
	s, theta := dag.TrueCode.Structure(), dag.TrueParams()
	if err := s.CheckParams(theta); err != nil {
		t.Fatal(err)
	}
	// θ3 row 1 sums to 0.99: .64/.99; θ5 row 4 keeps its exact zero.
	if got := s.Row(theta, 2, 0)[2]; !near(got, .64/.99, 1e-15) {
		t.Errorf("θ3[1][3] = %v, want %v", got, .64/.99)
	}
	if got := s.Row(theta, 4, 3)[1]; got != 0 {
		t.Errorf("θ5[4][2] = %v, want 0", got)
	}
	if got := s.Row(theta, 1, 0)[1]; got != .92 {
		t.Errorf("θ2[2] = %v", got)
	}
}

// TestSample checks ancestral sampling: the frequency of the hidden
// configuration (2,2) is 0.88·0.92 (line 4707) and each observed node's
// marginal matches the sum over hidden states, within 4 standard errors.
func TestSample(t *testing.T) {
	const n = 40000
	s, theta := dag.TrueCode.Structure(), dag.TrueParams()
	obs, hid := dag.Sample(s, theta, n, rand.New(rand.NewPCG(6, 1)))
	check := func(name string, count int, p float64) {
		t.Helper()
		se := math.Sqrt(p * (1 - p) / n)
		if f := float64(count) / n; math.Abs(f-p) > 4*se {
			t.Errorf("%s: frequency %.4f, probability %.4f (se %.4f)", name, f, p, se)
		}
	}
	var both int
	counts := make([][5]int, 4)
	for i := range obs {
		if hid[i][0] == 1 && hid[i][1] == 1 {
			both++
		}
		for k, v := range obs[i] {
			counts[k][v]++
		}
	}
	check("s = (2,2)", both, .88*.92)
	ps := [2][2]float64{{.12 * .08, .12 * .92}, {.88 * .08, .88 * .92}}
	for k, j := range s.Observed() {
		for v := 0; v < 5; v++ {
			var p float64
			for s1 := 0; s1 < 2; s1++ {
				for s2 := 0; s2 < 2; s2++ {
					p += ps[s1][s2] * s.Row(theta, j, s.Config(j, []int{s1, s2, 0, 0, 0, 0}))[v]
				}
			}
			check(fmt.Sprintf("y%d = %d", j+1, v+1), counts[k][v], p)
		}
	}
}

// TestAliases checks ln S under both rules (targets §2.6) and the thesis's
// example of three hidden parents with 3, 3 and 4 states: S = 2!·3!·3!·4! =
// 1728 (line 4384).
func TestAliases(t *testing.T) {
	for _, c := range dag.Candidates() {
		s := c.Structure()
		h := c.HUsed()
		wantThesis := []float64{1, 2, 8}[h]
		wantStrict := math.Exp2(float64(h))
		if h == 2 && c == c.Swap() {
			wantStrict *= 2
		}
		if got := s.LogAliases(dag.AliasThesis); !near(got, math.Log(wantThesis), 1e-12) {
			t.Errorf("%v: thesis ln S = %v, want ln %v", c, got, wantThesis)
		}
		if got := s.LogAliases(dag.AliasStrict); !near(got, math.Log(wantStrict), 1e-12) {
			t.Errorf("%v: strict ln S = %v, want ln %v", c, got, wantStrict)
		}
		if s.LogAliases(dag.AliasNone) != 0 {
			t.Errorf("%v: AliasNone not 0", c)
		}
		if s.ExtraDims() != h {
			t.Errorf("%v: d′ − d = %d, want h_used = %d", c, s.ExtraDims(), h)
		}
	}
	s, err := dag.NewStructure([]int{3, 3, 4, 5}, [][]int{nil, nil, nil, {0, 1, 2}}, []bool{true, true, true, false})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.LogAliases(dag.AliasThesis); !near(got, math.Log(1728), 1e-12) {
		t.Errorf("ln S = %v, want ln 1728", got)
	}
	// Only the two 3-state nodes can be swapped, and the graph is invariant
	// under that swap.
	if got := s.LogAliases(dag.AliasStrict); !near(got, math.Log(1728), 1e-12) {
		t.Errorf("strict ln S = %v, want ln 1728", got)
	}
}

// TestPrune checks that removing childless hidden nodes leaves p(y|θ) and
// ln p(y|m) unchanged (targets §1.6 (a)).
func TestPrune(t *testing.T) {
	c := mustCode(t, "1010")
	s := c.Structure()
	ps := s.Prune()
	if ps.Nodes() != 5 || len(ps.Hidden()) != 1 || ps.NumParams() != s.NumParams()-1 {
		t.Fatalf("pruned: %d nodes, %d hidden, d = %d", ps.Nodes(), len(ps.Hidden()), ps.NumParams())
	}
	rows := y6()
	full, pruned := problem(t, s, rows), problem(t, ps, rows)
	ef, _ := full.Exact()
	ep, _ := pruned.Exact()
	if !near(ef, ep, 1e-10) {
		t.Errorf("exact: %v with the childless node, %v without", ef, ep)
	}
	// θ of the pruned structure is θ of the full one without node 1's row.
	theta := s.RandomParams(rand.New(rand.NewPCG(2, 2)))
	thetaP := append(theta[:2:2], theta[4:]...)
	if a, b := full.LogLik(theta), pruned.LogLik(thetaP); !near(a, b, 1e-12) {
		t.Errorf("ln p(y|θ): %v with the childless node, %v without", a, b)
	}
}
