package vembias

import "github.com/vbworkbench/vbw/experiments"

func init() {
	experiments.Add(SingleID, "T&S Figs 1.4-1.5: one parameter learnt by EM, q_MF, q_FC, q_FT and zero-temperature EM", DefaultSingle, RunSingle, PlotSingle)
}

func init() {
	experiments.Add(MapsID, "T&S Figs 1.6-1.8: bias maps, best-approximation maps, joint (λ, σ_y²) learning", DefaultMaps, RunMaps, PlotMaps)
}

func init() {
	experiments.Add(CompactnessID, "T&S Figs 1.2-1.3 and eq. 1.18: compactness of variational approximations", DefaultCompactness, RunCompactness, PlotCompactness)
}

func init() {
	experiments.Add(MotivatingID, "T&S Fig 1.1: EM and vEM on the one-dimensional factor model", DefaultMotivating, RunMotivating, PlotMotivating)
}

func init() {
	experiments.Add(BridgeID, "the bridge to Beal ch. 5: the VB-LDS's E_q[A], Var_q[A] and F against the exact posterior", DefaultBridge, RunBridge, PlotBridge)
}
