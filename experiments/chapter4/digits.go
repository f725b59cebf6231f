package chapter4

import (
	"fmt"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// DigitExamplesID is the registry key of Figure 4.8: examples of each digit
// (Beal 2003 L2822; targets ch4-mfa.md §3.5), from UCI optdigits standing in
// for the thesis's CEDAR digits (§3.4).
const DigitExamplesID = "chapter4/digit-examples"

// DigitFiles names the two optdigits files (in the data directory); both
// are required.
type DigitFiles struct {
	Train string `toml:"train" range:"len=1.."`
	Test  string `toml:"test" range:"len=1.."`
}

// DigitExamplesConfig is the config of chapter4/digit-examples.
type DigitExamplesConfig struct {
	experiments.Common
	// PerClass is the number of examples of each digit drawn from each
	// file, at most 50: Figure 4.8 draws them in one row per digit.
	// Default 6.
	PerClass int        `toml:"per_class" range:"[1,50]"`
	Data     DigitFiles `toml:"data"`
}

// DefaultDigitExamples returns the defaults.
func DefaultDigitExamples() DigitExamplesConfig {
	c := DigitExamplesConfig{Common: experiments.Common{Experiment: DigitExamplesID, Figures: []string{"fig4.8"}, Seed: 4801}}
	c.PerClass = 6
	c.Data = DigitFiles{Train: "optdigits.tra", Test: "optdigits.tes"}
	return c
}

// Validate: the keys' ranges are declared beside them, and no rule relates
// them.
func (c *DigitExamplesConfig) Validate() error { return nil }

// loadDigits reads one optdigits file through the environment (checked
// against its published SHA-256 when it is the known file).
func loadDigits(env *experiments.Env, name string) (*mat.Dense, []int, error) {
	raw, err := env.ReadData(name)
	if err != nil {
		return nil, nil, err
	}
	return LoadOptdigits(name, raw)
}

// digitExamplesCriteria are the criteria of Figure 4.8's data (targets
// §3.4): each optdigits file has the published number of images of each
// digit. The measure is the images in the digits whose count is the
// published one, which is the published total only when every count is.
// They are sanity checks of the data: the figure shows examples of the
// digits and the thesis claims nothing of them.
var digitExamplesCriteria = results.Criteria{
	results.Criterion{ID: "fig4.8-train-counts", Text: "the train file has the published class counts (targets §3.4)", Target: results.Equal(float64(total(OptdigitsTrainCounts)))}.AsSanity(),
	results.Criterion{ID: "fig4.8-test-counts", Text: "the test file has the published class counts (targets §3.4)", Target: results.Equal(float64(total(OptdigitsTestCounts)))}.AsSanity(),
}

// total returns the images of all digits.
func total(counts [OptdigitsClasses]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// publishedImages returns the images of the digits whose count is the
// published one (every published count is positive).
func publishedImages(counts []int, want [OptdigitsClasses]int) int {
	n := 0
	for d, c := range counts {
		if d < len(want) && c == want[d] {
			n += c
		}
	}
	return n
}

// RunDigitExamples draws PerClass examples of each digit from each file
// and stores them (params.csv, raw 0..16 units) for the figure.
func RunDigitExamples(env *experiments.Env, c *DigitExamplesConfig) error {
	s := &results.Summary{Criteria: digitExamplesCriteria}
	pt := experiments.NewParams()
	for _, f := range []struct {
		set, name string
		want      [OptdigitsClasses]int
	}{{"train", c.Data.Train, OptdigitsTrainCounts}, {"test", c.Data.Test, OptdigitsTestCounts}} {
		x, labels, err := loadDigits(env, f.name)
		if err != nil {
			return err
		}
		counts := ClassCounts(labels, OptdigitsClasses)
		for d, n := range counts {
			s.SetMetric(fmt.Sprintf("%s_count.%d", f.set, d), float64(n))
		}
		s.SetMetric(f.set+"_images", float64(len(labels)))
		published := filepath.Base(f.name) == map[string]string{"train": "optdigits.tra", "test": "optdigits.tes"}[f.set]
		cr := digitExamplesCriteria.Get("fig4.8-" + f.set + "-counts")
		if published {
			s.Judge(cr, float64(publishedImages(counts, f.want)))
		} else {
			s.NotJudged(cr, "not the published optdigits file")
		}
		classes := make([]int, OptdigitsClasses)
		for d := range classes {
			classes[d] = d
		}
		rows, err := SampleRowsPerClass("per_class", labels, classes, c.PerClass, rng.New(c.Seed, DigitExamplesID, f.set))
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		for k, i := range rows {
			pt.Add(f.set, fmt.Sprintf("digit%d_%02d", labels[i], k%c.PerClass), "image", 8, 8, x.RawRowView(i))
		}
	}
	if err := pt.Write(env.Dir); err != nil {
		return err
	}
	s.Claims = []results.Claim{{Artifact: "Figure 4.8", Figures: []string{"fig4_8"}, Checks: digitExamplesCriteria.IDs(),
		Statement: "Examples of the handwritten digits the chapter's unsupervised and classification experiments learn (8×8 images; UCI optdigits in place of the thesis's CEDAR set, whose 0-255 grey levels become 0-16 counts here)."}}
	return env.WriteSummary(s, "")
}

// optdigitsName is the figures' name for the shipped digit files.
const optdigitsName = "optdigits"

// PlotDigitExamples draws Figure 4.8 from params.csv: one row per digit,
// the training examples then the test examples.
func PlotDigitExamples(dir string) error {
	t, err := results.ReadCSV(filepath.Join(dir, experiments.ParamsFile))
	if err != nil {
		return err
	}
	cs, err1 := t.Col("source")
	cr, err2 := t.Col("run")
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%s: missing columns", experiments.ParamsFile)
	}
	// sources by set and digit, in file order
	type key struct{ set, source string }
	perDigit := map[string]map[int][]string{"train": {}, "test": {}}
	seen := map[key]bool{}
	for _, row := range t.Rows {
		k := key{row[cr], row[cs]}
		if seen[k] || perDigit[k.set] == nil {
			continue
		}
		seen[k] = true
		var d, i int
		if _, err := fmt.Sscanf(k.source, "digit%d_%d", &d, &i); err != nil || d < 0 || d >= OptdigitsClasses {
			return fmt.Errorf("%s: unexpected image %q", experiments.ParamsFile, k.source)
		}
		perDigit[k.set][d] = append(perDigit[k.set][d], k.source)
	}
	cols := 0
	for d := 0; d < OptdigitsClasses; d++ {
		cols = max(cols, len(perDigit["train"][d])+len(perDigit["test"][d]))
	}
	if cols == 0 {
		return fmt.Errorf("%s: no images", experiments.ParamsFile)
	}
	var panels []*plot.Plot
	for d := 0; d < OptdigitsClasses; d++ {
		row := 0
		for _, set := range []string{"train", "test"} {
			for _, src := range perDigit[set][d] {
				m, err := experiments.ReadMatrix(t, set, src, "image")
				if err != nil {
					return err
				}
				p, err := plots.GrayImage(set+" "+strconv.Itoa(d), m, 0, OptdigitsMaxValue)
				if err != nil {
					return err
				}
				panels = append(panels, p)
				row++
			}
		}
		for ; row < cols; row++ {
			panels = append(panels, nil)
		}
	}
	name, _, err := experiments.DataName(dir, optdigitsName)
	if err != nil {
		return err
	}
	f := plots.Figure{Rows: OptdigitsClasses, Cols: cols, Panels: panels,
		Width: vg.Length(cols) * 0.9 * vg.Inch, Height: OptdigitsClasses * 1.0 * vg.Inch,
		Title: "Figure 4.8: examples of each digit (" + name + "; left: training file, right: test file)"}
	return experiments.SaveFigure(dir, "fig4_8", f)
}

func init() {
	experiments.Add(DigitExamplesID, "examples of each digit from the optdigits training and test files (Figure 4.8)", DefaultDigitExamples, RunDigitExamples, PlotDigitExamples)
}
