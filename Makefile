# vbw: reproduce Beal (2003) from TOML configs.
#   make chapter3   run chapter 3's experiments and draw its figures (output/chapter3/)
#   make test       vet and run the fast test suite (what CI runs)
GO      ?= go
VBW     := bin/vbw
OUT     ?= output
ARGS    ?=

.PHONY: build chapter3 chapter4 chapter4-full chapter5 chapter5-full chapter6 chapter6-full chapter6-k16384 chapter3-grid quick figures report thesis test test-cluster test-long bench golden clean

# The configs each chapter target runs (the optional long sweeps have their
# own targets).
CHAPTER3 := configs/chapter3/synthetic.toml configs/chapter3/synthetic-grammar.toml configs/chapter3/alice.toml \
            configs/chapter3/model-order.toml configs/chapter3/tightness.toml

build: $(VBW)

# The binary is rebuilt whenever a Go file or go.mod changes.
$(VBW): go.mod $(shell find . -name '*.go' -not -path './$(OUT)/*' 2>/dev/null)
	$(GO) build -buildvcs=auto -o $(VBW) ./experiments/cmd/vbw

chapter3: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) $(CHAPTER3)

# Chapter 4: Figures 4.3-4.11 and Tables 4.1-4.2 (the digits runs with a
# reduced budget; chapter4-full has the long versions).
CHAPTER4 := configs/chapter4/digit-examples.toml configs/chapter4/embedded.toml configs/chapter4/embedded-faithful.toml \
            configs/chapter4/spiral.toml configs/chapter4/lattice.toml configs/chapter4/digits-unsupervised.toml \
            configs/chapter4/digits-classify.toml configs/chapter4/is-tightness.toml configs/chapter4/is-samplers.toml \
            configs/chapter4/is-hazard.toml

chapter4: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) $(CHAPTER4)

# Table 4.2 with its 10 repetitions and both floors of ψ, and the
# unsupervised digits with 20000 sweeps per search.
chapter4-full: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) configs/chapter4/digits-classify-full.toml configs/chapter4/digits-unsupervised-full.toml

# Chapter 5: Figures 5.4-5.13 (VB linear dynamical systems); chapter5-full
# runs more seeds and the larger k grid.
CHAPTER5 := configs/chapter5/dimensionality.toml configs/chapter5/inputs.toml configs/chapter5/genes.toml \
            configs/chapter5/genes-surrogate.toml

chapter5: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) $(CHAPTER5)

chapter5-full: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) configs/chapter5/dimensionality-full.toml configs/chapter5/inputs-full.toml \
	    configs/chapter5/genes-full.toml configs/chapter5/genes-surrogate-full.toml

# Chapter 6: Figures 6.2-6.13 and Tables 6.1-6.5 (discrete DAGs scored by
# MAP, BIC, BICp, CS, CS†, VB and AIS), with the 12-instance prior-averaged
# study; chapter6-full runs all 106 instances (the issue's 2-hour budget), and
# chapter6-k16384 the single instance with the thesis's 16384 AIS steps.
CHAPTER6 := configs/chapter6/single-instance.toml configs/chapter6/prior-average-12.toml \
            configs/chapter6/ais-granularity.toml configs/chapter6/schedules.toml configs/chapter6/dimensionality.toml

chapter6: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) $(CHAPTER6)

chapter6-full: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) configs/chapter6/prior-average.toml

chapter6-k16384: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) configs/chapter6/single-instance-k16384.toml

# The full 9 × 7 × 4 grid behind Figure 3.4 (claim C7); about 15 minutes on 2 cores.
chapter3-grid: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) configs/chapter3/alice-grid.toml

# The reproduction report from the stored results: $(OUT)/index.html (one
# self-contained page) and $(OUT)/REPORT.md. Nothing is recomputed.
report: $(VBW)
	$(VBW) report -out $(OUT)

# Every chapter's experiments, then the report (each chapter adds its own
# target here).
thesis: chapter3 chapter4 chapter5 chapter6
	$(MAKE) report

# Every experiment with its [quick] settings, into output/quick.
quick: $(VBW)
	$(VBW) run -quick -out $(OUT)/quick $(ARGS) configs/*/*.toml

# Redraw every figure from the stored results, without recomputing.
figures: $(VBW)
	$(VBW) plot -out $(OUT) all

test:
	$(GO) vet ./...
	$(GO) test -short -count=1 ./...

# The Slurm path of README "Sweeps on a cluster", on a real one-node Slurm
# cluster started on this machine (root; Debian's slurmctld, slurmd,
# slurm-client, munge and jq are installed when missing): submit.sh's job
# array and dependent merge against a single-machine run, a shard cancelled
# and one requeued mid-run, a too-early merge refused, the cancelled shard
# resubmitted. About a minute; stops every daemon it started.
test-cluster: $(VBW)
	scripts/slurm/test-cluster.sh

# All tests, then each fuzz target for a minute (the config loader; the
# result files that vbw plot reads).
test-long:
	$(GO) test -count=1 -timeout 80m ./...
	$(GO) test -run '^$$' -fuzz FuzzLoadConfig -fuzztime 60s -fuzzminimizetime 5s ./experiments/cmd/vbw
	$(GO) test -run '^$$' -fuzz FuzzPlotInputs -fuzztime 60s -fuzzminimizetime 5s ./experiments/chapter3

# Rewrite the golden files of every experiment package (testdata/*.golden.json:
# the numbers of each shipped config's [quick] run) after a change that is
# meant to move the numbers; say in the commit which moved and why.
GOLDEN_PKGS := $(patsubst %/,./%,$(sort $(dir $(wildcard experiments/*/golden_test.go))))
golden:
	$(GO) test -count=1 -run '^TestGolden$$' $(GOLDEN_PKGS) -update

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/... ./samplers/... ./experiments/...

# Removes the built command and the quick runs; the full results in
# $(OUT)/chapter*/ are kept (remove them by hand: rm -rf $(OUT)).
clean:
	@echo "removing bin/ and $(OUT)/quick/ (full results in $(OUT)/chapter*/ are kept)"
	rm -rf bin $(OUT)/quick
