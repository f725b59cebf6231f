package chapter5

import "github.com/vbworkbench/vbw/experiments"

// The figures of chapter 5 (it has no tables), by the lines of their
// captions in the thesis (../shared/seeds/000_055f6e591db3cc60.txt), and
// the experiments whose claims cover them (targets ch5-lds.md §3).
func init() {
	diagram := "a diagram of the model: nothing to compute"
	experiments.AddArtefacts(experiments.Thesis,
		experiments.Artefact{Label: "Figure 5.1", Line: 3190, Caption: "the state-space model as a graphical model", Note: diagram},
		experiments.Artefact{Label: "Figure 5.2", Line: 3212, Caption: "the state-space model with inputs", Note: diagram},
		experiments.Artefact{Label: "Figure 5.3", Line: 3253, Caption: "the Bayesian state-space model with its hyperparameters", Note: diagram},
		experiments.Artefact{Label: "Figure 5.4", Line: 4071, Caption: "⟨A⟩ and ⟨C⟩ against sequence length (Hinton diagrams)", Experiments: []string{DimensionalityID}},
		experiments.Artefact{Label: "Figure 5.5", Line: 4083, Caption: "hyperparameter trajectories at T = 300", Experiments: []string{DimensionalityID}},
		experiments.Artefact{Label: "Figure 5.6", Line: 4106, Caption: "the data of the input-driven example", Experiments: []string{InputsID},
			Note: "the data of the example: drawn, no criterion judges it"},
		experiments.Artefact{Label: "Figure 5.7", Line: 4109, Caption: "F and ΔF during learning", Experiments: []string{InputsID}},
		experiments.Artefact{Label: "Figure 5.8", Line: 4124, Caption: "evolution of the ARD hyperparameters", Experiments: []string{InputsID}},
		experiments.Artefact{Label: "Figure 5.9", Line: 4127, Caption: "the gene expression data", Experiments: []string{GenesID, SurrogateID},
			Note: "the data: drawn, no criterion judges it"},
		experiments.Artefact{Label: "Figure 5.10", Line: 4158, Caption: "the feedback state-space model", Note: diagram},
		experiments.Artefact{Label: "Figure 5.11", Line: 4180, Caption: "reconstruction error against k, MAP and VB", Experiments: []string{GenesID, SurrogateID}},
		experiments.Artefact{Label: "Figure 5.12", Line: 4207, Caption: "gene-gene interaction matrices", Experiments: []string{GenesID, SurrogateID}},
		experiments.Artefact{Label: "Figure 5.13", Line: 4210, Caption: "network of significant interactions", Experiments: []string{GenesID, SurrogateID}},
	)
}
