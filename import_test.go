package vbw_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportFromAnotherModule builds a program in a separate module that
// imports the VB-HMM through a replace directive, as the README tells a Go
// user to, offline (module cache only).
func TestImportFromAnotherModule(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goSum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/user\n\ngo 1.24\n\nrequire github.com/vbworkbench/vbw v0.0.0\n\nreplace github.com/vbworkbench/vbw => " + root + "\n",
		"go.sum": string(goSum),
		"main.go": `package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
)

func main() {
	data, err := hmm.Strings("abc", "abcabcabc", "acbacbacb", "abcabc")
	if err != nil {
		panic(err)
	}
	prior := hmm.SymmetricPrior(4, data.P, 4, 4, 4)
	start := hmm.PosteriorFromParams(hmm.RandomParams(4, data.P, rand.New(rand.NewPCG(1, 2))), 10, 1e-10)
	r := vb.Run(hmm.NewVB(data, prior, start), vb.Settings{})
	fmt.Println(r.Status)
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(gobin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run in a module that imports vbw: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "converged" {
		t.Fatalf("output %q, want converged", got)
	}
}
