package experiments

// The companion documents of the thesis (../shared/targets/other-seeds.md):
// experiment packages other than chapter3 … chapter6 declare their
// artefacts under these (AddArtefacts).
var (
	// Bishop2006 is PRML chapter 10 (experiments/vbgmm, experiments/approx).
	Bishop2006 = Document{ID: "bishop2006", Title: "Bishop (2006), Pattern Recognition and Machine Learning, chapter 10",
		Source: "../shared/seeds/002_cc78f0884d114115.txt"}
	// DSouza2004 is D'Souza's thesis (experiments/vbgmm, experiments/approx).
	DSouza2004 = Document{ID: "dsouza2004", Title: "D'Souza (2004), Towards Tractable Parameter-Free Statistical Learning",
		Source: "../shared/seeds/003_a56118dfa4fca769.txt"}
	// Lawrence2000 is Lawrence's thesis (experiments/approx).
	Lawrence2000 = Document{ID: "lawrence2000", Title: "Lawrence (2000), Variational Inference in Probabilistic Models",
		Source: "../shared/seeds/001_7df1fb81bc835124.txt"}
	// TurnerSahani is Turner and Sahani's chapter (experiments/approx).
	TurnerSahani = Document{ID: "turner-sahani", Title: "Turner and Sahani (2011), Two problems with variational expectation maximisation for time-series models",
		Source: "../shared/seeds/004_2d1c8b7c1e312d07.txt"}
)
