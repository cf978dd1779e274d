# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make bench [QUICK=1] [STAGES=...]: latency under load and per-packet cost,
# ours vs in-tree vs the other qdiscs, one boot each (bench/run.sh); a
# report under bench/results/.  Measures, asserts nothing.

.PHONY: bench

bench: deps
	@$(MAKE) --no-print-directory all guest
	QUICK=$(QUICK) bench/run.sh
