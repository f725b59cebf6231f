# vbw: reproduce Beal (2003) and the next documents from TOML configs.
#   make chapter3   run chapter 3's experiments and draw its figures (output/chapter3/)
#   make test       vet and run the fast test suite (what CI runs)
GO      ?= go
VBW     := bin/vbw
OUT     ?= output
ARGS    ?=

.PHONY: build chapter3-grid all-documents quick figures report times thesis test test-cluster test-long bench golden clean

build: $(VBW)

# The binary is rebuilt whenever a Go file or go.mod changes; go generate
# first rewrites the list of experiment packages it links
# (experiments/cmd/vbw/experiments_gen.go), so a new package needs no edit.
$(VBW): go.mod $(shell find . -name '*.go' -not -path './$(OUT)/*' 2>/dev/null)
	$(GO) generate ./experiments/...
	$(GO) build -buildvcs=auto -o $(VBW) ./experiments/cmd/vbw

# Documents. Every folder of configs/ is one document's experiments
# (chapter3 … chapter6 for the thesis): make DOC runs configs/DOC/*.toml
# except the long variants, whose file names end in -full.toml (their
# results folders are named by the config's name key), and make DOC-full
# runs the long variants. A new folder configs/DOC/ gets both targets with
# no edit here.
DOCS           := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard configs/*/*.toml)))))
configs_of      = $(sort $(filter-out %-full.toml,$(wildcard configs/$(1)/*.toml)))
full_configs_of = $(sort $(wildcard configs/$(1)/*-full.toml))
# vbw_run runs the configs $(1) into $(OUT), or says $(2) when there are none;
# then one line: the checks of $(OUT)/$(3)/ passed and failed, and the page
# to open (vbw report -for, which also rewrites the report).
vbw_run         = $(if $(strip $(1)),$(VBW) run -out $(OUT) $(ARGS) $(1) && $(VBW) report -out $(OUT) -for $(3),@echo "$(2)")

define document
.PHONY: $(1) $(1)-full
$(1): $$(VBW)
	$$(call vbw_run,$$(call configs_of,$(1)),configs/$(1)/ has only long variants: make $(1)-full,$(1))
$(1)-full: $$(VBW)
	$$(call vbw_run,$$(call full_configs_of,$(1)),configs/$(1)/ has no long variants (*-full.toml),$(1))
endef
$(foreach doc,$(DOCS),$(eval $(call document,$(doc))))

# The thesis's long variant by name: the full 9 × 7 × 4 grid behind
# Figure 3.4 (its off-slice claim; the time it took is in make times).
# chapter3-full runs it with the folder's other long variants.
chapter3-grid: $(VBW)
	$(call vbw_run,configs/chapter3/alice-grid-full.toml,,chapter3)

# The reproduction report from the stored results: $(OUT)/index.html (one
# self-contained page) and $(OUT)/REPORT.md. Nothing is recomputed.
report: $(VBW)
	$(VBW) report -out $(OUT)

# The run times recorded in the manifests of the results in $(OUT) and
# $(OUT)/quick, as a Markdown table (README "Run times"): one row per config,
# "not measured" where no run is stored. ARGS adds results directories and
# flags, e.g. make times ARGS="-for chapter /other/output".
times: $(VBW)
	@$(VBW) report -times -out $(OUT) $(ARGS)

# The thesis: chapters 3-6 (every config but the long variants) in ONE vbw
# run, whose cells share the workers longest first across the configs,
# then the report (with the run times of every config and of the whole run,
# OUT/vbw-run.json).
THESIS := chapter3 chapter4 chapter5 chapter6
thesis: $(VBW)
	$(VBW) run -out $(OUT) $(ARGS) $(foreach doc,$(THESIS),$(call configs_of,$(doc)))
	$(MAKE) report

# Every document's experiments (every folder of configs/, long variants
# left out), then the report.
all-documents: $(DOCS)
	$(MAKE) report

# One quick run of every experiment (its config's [quick] settings), into
# output/quick, then one line: the checks and the page to open. Of the
# configs of one experiment one runs (vbw run -one-per-experiment): a
# config whose resolved quick config equals another's is left out, and so
# is a long variant (*-full.toml) of an experiment another config runs
# (digits-classify-full's second ψ floor, which the golden tests run);
# chapter 3's grid, whose only config is a long variant, runs.
quick: $(VBW)
	$(VBW) run -quick -one-per-experiment -out $(OUT)/quick $(ARGS) $(sort $(wildcard configs/*/*.toml))
	$(VBW) report -out $(OUT) -for quick

# Redraw every figure from the stored results, without recomputing: the
# full runs in $(OUT) and the quick ones in $(OUT)/quick.
figures: $(VBW)
	@found=; for d in $(OUT) $(OUT)/quick; do \
	  if ls $$d/*/*/summary.json >/dev/null 2>&1; then found=1; echo "$(VBW) plot -out $$d all"; $(VBW) plot -out $$d all || exit 1; fi; \
	done; [ -n "$$found" ] || { echo "no results under $(OUT) or $(OUT)/quick: run make quick or make chapter3 first"; exit 1; }

# The portable kernels too: core/numeric's vector kernels are AVX2/FMA
# assembly where the CPU has it and Go loops elsewhere or with the purego
# tag; the second run builds without the assembly and runs the core, the
# samplers and every document's goldens, which both paths reproduce bit for
# bit on a CPU with FMA. The hostile sweep of experiments/cmd/vbw takes
# about 1.5 minutes on 2 idle cores and more than go test's default
# 10-minute package limit on a heavily loaded one: hence -timeout 30m.
test:
	$(GO) vet ./...
	$(GO) vet -tags purego ./...
	$(GO) test -short -count=1 -timeout 30m ./...
	$(GO) test -short -count=1 -timeout 30m -tags purego ./core/... ./samplers/...
	$(GO) test -short -count=1 -timeout 30m -tags purego -run '^TestGolden$$' $(GOLDEN_PKGS)

# The Slurm path of README "Sweeps on a cluster", on a real one-node Slurm
# cluster started on this machine (root; Debian's slurmctld, slurmd,
# slurm-client, munge and jq are installed when missing): submit.sh's job
# array and dependent merge against a single-machine run, a shard cancelled
# and one requeued mid-run, a too-early merge refused, the cancelled shard
# resubmitted. Stops every daemon it started.
test-cluster: $(VBW)
	scripts/slurm/test-cluster.sh

# All tests, then each fuzz target for a minute (the config loaders, one
# target per chapter's configs as seeds, with the estimates checked before
# a run; the result files that vbw plot reads).
test-long:
	$(GO) test -count=1 -timeout 80m ./...
	$(GO) test -run '^$$' -fuzz '^FuzzLoadConfig$$' -fuzztime 60s -fuzzminimizetime 5s ./experiments/cmd/vbw
	$(GO) test -run '^$$' -fuzz '^FuzzLoadConfigChapter4$$' -fuzztime 60s -fuzzminimizetime 5s ./experiments/cmd/vbw
	$(GO) test -run '^$$' -fuzz '^FuzzLoadConfigChapter5$$' -fuzztime 60s -fuzzminimizetime 5s ./experiments/cmd/vbw
	$(GO) test -run '^$$' -fuzz '^FuzzLoadConfigChapter6$$' -fuzztime 60s -fuzzminimizetime 5s ./experiments/cmd/vbw
	$(GO) test -run '^$$' -fuzz FuzzPlotInputs -fuzztime 60s -fuzzminimizetime 5s ./experiments/chapter3
	$(GO) test -run '^$$' -fuzz FuzzLoadMatrixCSV -fuzztime 60s -fuzzminimizetime 5s ./experiments/datasets

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
