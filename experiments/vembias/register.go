package vembias

import "github.com/vbworkbench/vbw/experiments"

func init() {
	experiments.Add(SingleID, "T&S Figs 1.4-1.5: one parameter learnt by EM, q_MF, q_FC, q_FT and zero-temperature EM", DefaultSingle, RunSingle, PlotSingle)
}
