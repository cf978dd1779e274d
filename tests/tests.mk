# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The tests, included by the top-level Makefile (run make from the top):
#
#   make unit         host unit tests of codel.h
#   make check        unit, simulator, differential and packaging tests on
#                     the host, then the guest suite under QEMU
#   make check-all    the same, with a guest suite on every kernel in KERNELS
#                     and the packages built and installed in fresh roots
#   make check-ci     check-all, make style and the sanitizer stage on CI's
#                     schedule (timing-sensitive boots alone, the rest two
#                     jobs at a time)
#   make check-fresh  CI's run (.ci/run): make demo and check-ci in a
#                     Debian 12 root made from nothing (debootstrap)
#   make check-debug  the guest suite on a KASAN/KMEMLEAK/LOCKDEP/UBSAN kernel,
#                     then the module's coverage (GCOV) from that run
#   make check-sanitizers  CI's subset of it (SANITIZER_TESTS)
#   make demo         pfifo vs codel at 10 Mbit/s, in QEMU
#   make mutate       tests/mutants/*.patch, each of which must fail a test
#                     (FULL=1: the whole suite for each)
#   make repeat       the whole guest suite N (5) times on REPEAT_KERNELS,
#                     failures per test
#   make soak         SOAK_MINUTES (10) of traffic with random live changes
#   make shell        a shell in the guest
#   make tc           tc with tc-patch/ applied (build/tc), stock tc 6.15
#   make guest        what qemu/run boots: module, kernel image, initramfs
#   make guest-tools  the guest's test programs (build/guest-tools)

CC ?= cc
USER_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Werror
CORE_DEPS := codel.h user/pktq.h user/shim/linux/types.h user/shim/linux/math64.h
SIM := $(BUILD)/codel-sim
UNIT := $(BUILD)/test-codel
TC := $(BUILD)/tc
KERNEL_DIR := $(BUILD)/kernel/$(KERNELRELEASE)
INITRAMFS := $(BUILD)/initramfs-$(KERNELRELEASE).cpio
# Installed by qemu/run in the guest's /usr/local/bin (it carries the
# host's glibc).
TOOLS := $(BUILD)/guest-tools
GUEST_TOOLS := $(addprefix $(TOOLS)/,codel-fuzz codel-send codel-lifecycle gso-burst slip-pty tcj udp-rehash)
FUZZ_LIB := tests/fuzz/nl.c tests/fuzz/nl.h tests/fuzz/frame.c tests/fuzz/frame.h
SOAK_MINUTES ?= 10

.PHONY: sim unit guest guest-tools fuzz tc shell demo check check-all check-fresh \
	check-ci check-debug check-sanitizers sanitizer-boot style-check repeat mutate soak

sim: $(SIM)

$(SIM): user/codel-sim.c $(CORE_DEPS)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -Iuser/shim -I. -o $@ $<

$(UNIT): tests/unit/test-codel.c tests/unit/tap.h $(CORE_DEPS)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -Iuser/shim -I. -o $@ $< -lm

unit: $(UNIT) $(SIM)
	$(UNIT)

guest-tools: $(GUEST_TOOLS)
	@scripts/prometheus-tools.sh >/dev/null
fuzz: guest-tools

$(TOOLS)/codel-fuzz: tests/fuzz/codel-fuzz.c tests/fuzz/model.c tests/fuzz/model.h $(FUZZ_LIB) pkt_sched_codel.h
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -pthread -I. -o $@ $(filter %.c,$^)

$(TOOLS)/codel-send $(TOOLS)/codel-lifecycle: $(TOOLS)/%: tests/fuzz/%.c $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.c,$^)

$(TOOLS)/gso-burst $(TOOLS)/slip-pty $(TOOLS)/udp-rehash: $(TOOLS)/%: tests/tools/%.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -o $@ $<

# Static: it runs for every counter a test reads, and under TCG the
# dynamic loader costs more than the reading.
$(TOOLS)/tcj: tests/tools/tcj.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -static -o $@ $<

# Debian's tc with tc-patch/ applied, and bookworm-backports' stock tc 6.15
# for the plugin tests (downloaded, not installed).
tc: $(TC)
	@scripts/stock-tc.sh bookworm-backports >/dev/null

$(TC): $(wildcard tc-patch/*.patch) scripts/build-tc.sh scripts/iproute2-source.sh
	scripts/build-tc.sh

guest: headers
	@$(MAKE) --no-print-directory $(MODULE) $(INITRAMFS)

$(KERNEL_DIR)/.done:
	qemu/kernel.sh $(KERNELRELEASE)

# The module is only a placeholder in the image (qemu/run overlays the
# current one), hence order-only.
$(INITRAMFS): $(KERNEL_DIR)/.done qemu/initramfs.sh qemu/guest/init qemu/guest/env | $(MODULE)
	qemu/initramfs.sh $(KERNELRELEASE) $@

shell: guest
	qemu/run --shell

demo: deps
	@$(MAKE) --no-print-directory all guest
	qemu/run demo/demo.sh

# Each installs what it needs first (Debian packages only), then builds.
# The timing-sensitive tests boot alone first; then the rest of the
# suite (in two boots), the --mq boot and the host suites two at a time
# (CHECK_POOL).  CI's suites (check-ci, repeat) run the netlink fuzzer at
# half its default count: its seed is fixed, so each run replays the same
# operations, and the second 50 000 cost CI 2 x 50 s.  make check, the
# loop a change goes through before CI, replays the first 20 000 of them
# and the first 10 000 of fq_codel_ext's (94 s and 60 s a boot at CI's
# counts on this host on 2026-12-07, when make check took 658 s of its
# 600).  The lifecycles keep their 150 cycles: at 75 the slab noise of one
# boot (kmalloc-8, +174 objects) passed the bound of a one-object leak.
CHECK_GUEST_ARGS ?= FUZZ_OPS=50000
MAKE_CHECK_GUEST_ARGS ?= FUZZ_OPS=20000 FQ_FUZZ_OPS=10000
check: deps
	@$(MAKE) --no-print-directory all guest guest-tools tc deb
	CHECK_POOL=2 CHECK_SPLIT=2 CHECK_KERNELS=$(KERNELRELEASE) \
		CHECK_GUEST_ARGS="$(MAKE_CHECK_GUEST_ARGS)" scripts/check.sh

# The backports kernels' guest boots run a subset, to keep CI within its
# budget (docs/tests.md): tdc (parity; the differential tests run on every
# kernel anyway), the regressions under parents, the fuzzers.
BACKPORTS_TESTS := module_autoload_is_ours fq_codel_ext_autoloads_ours tdc_codel \
	drop_to_empty_in_dequeue_under_htb drop_to_empty_in_peek_under_drr \
	drop_to_empty_in_peek_under_qfq drop_to_empty_in_peek_under_hfsc \
	drop_to_empty_in_peek_under_tbf fq_drop_to_empty_in_dequeue_under_htb \
	fq_drop_to_empty_in_peek_under_drr fq_drop_to_empty_in_peek_under_qfq \
	fq_drop_to_empty_in_peek_under_hfsc fq_drop_to_empty_in_peek_under_tbf \
	limit_trim_with_peeked_packet_under_tbf peeked_packet_served_under_multiq \
	accounting_root accounting_htb accounting_tbf accounting_prio \
	accounting_netem accounting_hfsc accounting_cbs accounting_drr \
	accounting_qfq accounting_ets mtu_guard_capped_on_huge_mtu \
	fuzz_netlink fuzz_under_parents fuzz_unprivileged_userns \
	fq_fuzz_netlink fq_fuzz_under_parents fq_fuzz_unprivileged_userns \
	fq_codel_ext_overflow_batch_drop_accounted

# The netlink fuzzer's model does not differ by kernel, and the whole
# suites run it 50 000 times on the stable kernels: a fifth of that on
# the backports kernels, and the unprivileged fuzzers (the qdiscs' code as
# in fuzz_netlink; the namespace's checks are the kernel's) a tenth.
BACKPORTS_ARGS := FUZZ_OPS=10000 USERNS_OPS=2000 FQ_USERNS_OPS=500

check-all: deps
	@$(MAKE) --no-print-directory all guest-tools tc deb
	@for r in $(KERNELS); do \
		$(MAKE) --no-print-directory guest KERNELRELEASE=$$r || exit 1; \
	done
	CHECK_KERNELS="$(KERNELS)" CHECK_DEB_RELEASES="bookworm trixie" \
		CHECK_SUBSET_KERNELS="$(foreach s,6.12 trixie-backports,$(shell scripts/kernel-release.sh $(s)))" \
		CHECK_SUBSET_TESTS="$(BACKPORTS_ARGS) $(BACKPORTS_TESTS)" scripts/check.sh

# The committed HEAD, cloned into the fresh root.
# Each stage's time is printed: CI's budget is judged from it.
check-fresh:
	scripts/fresh-root.sh bookworm \
		'for t in demo check-ci; do \
			s=$$(date +%s); make $$t || exit; \
			echo "check-fresh: make $$t took $$(( $$(date +%s) - s ))s"; done'

# Debian's linux-source-6.1 built with the sanitizers (build/linux-debug).
check-debug: deps
	@rel=$$(scripts/debug-kernel.sh) && \
	$(MAKE) --no-print-directory all guest guest-tools tc deb KERNELRELEASE=$$rel \
		KDIR=$(CURDIR)/build/linux-debug/src && \
	KERNELRELEASE=$$rel CHECK_ONLY=guest CHECK_NO_MQ=1 CHECK_LOG=build/check-debug \
		GUEST_TIMEOUT=7200 scripts/check.sh && \
	scripts/coverage.sh $$rel build/check-debug/guest-$$rel/output.log | \
		tee build/check-debug/coverage.txt

# The sanitizer subset .ci/run runs: on the debug kernel, the tests that
# touch parents, peeks, trims, memory accounting, fuzzing and lifecycle,
# of both qdiscs (fq_codel_ext's through the plugin of make deb), the
# longest cut to fit CI's budget, kmemleak last.  Left to the distro
# kernels' suites, as their paths are reached here by others: codel's
# split_gso accounting (segmenting at enqueue: split_gso_all_segments_
# over_limit; the parents' notify: fq_codel_ext's split_gso test and the
# drop_to_empty ones) and accounting_tbf (drop_to_empty_in_peek_under_tbf
# and limit_trim_with_peeked_packet_under_tbf).
SANITIZER_TESTS := fuzz_netlink fuzz_under_parents fuzz_unprivileged_userns \
	fq_fuzz_netlink fq_fuzz_under_parents fq_fuzz_unprivileged_userns \
	lifecycle_load_use_unload drop_to_empty_in_dequeue_under_htb \
	drop_to_empty_in_peek_under_drr drop_to_empty_in_peek_under_qfq \
	drop_to_empty_in_peek_under_hfsc drop_to_empty_in_peek_under_tbf \
	limit_trim_with_peeked_packet_under_tbf peeked_packet_served_under_multiq \
	memory_limit_bounds_gso_queue memory_limit_exact_fit_queued \
	reset_empties_queue_and_memory split_gso_all_segments_over_limit \
	fq_drop_to_empty_in_dequeue_under_htb \
	fq_drop_to_empty_in_peek_under_qfq fq_lifecycle_load_use_unload \
	fq_codel_ext_split_gso_keeps_accounting \
	fq_codel_ext_overflow_batch_drop_accounted kmemleak_clean
# On the debug kernel kmemleak judges the lifecycles' leaks, once, in
# kmemleak_clean at the end (LIFECYCLE_KMEMLEAK=0: their own scans took
# most of their 145 s each); no slab count needs a long window or a
# warm-up there (make check-debug runs 2 x 150 with the scans).  The
# fuzzers' counts are what CI's budget allows where one operation takes
# 30 ms (the netlink fuzzer: 165 s at 5 000, 67 to 78 s at 2 000), but under
# parents 300 (at 200, one run had no drop-to-empty episode under qfq,
# the fuzzer's precondition) and codel's under the four parents whose
# peek, dequeue and class handling differ most (the other five: 100 s);
# and one round of each drop_to_empty test (of 3, 50 s a test there).
# The distro kernels' suites and make check-debug run the whole counts.
SANITIZER_ARGS := FUZZ_OPS=2000 USERNS_OPS=500 PARENT_OPS=300 LIFECYCLE_CYCLES=30 \
	FQ_LIFECYCLE_CYCLES=30 LIFECYCLE_WARMUP=5 LIFECYCLE_KMEMLEAK=0 \
	PARENT_KINDS=htb,hfsc,tbf,qfq FQ_FUZZ_OPS=2000 FQ_PARENT_OPS=300 \
	FQ_USERNS_OPS=500 GSO_ROUNDS=1

check-sanitizers: deps
	@$(MAKE) --no-print-directory all guest-tools tc deb
	@$(MAKE) --no-print-directory sanitizer-boot

# The stage itself, once make deps and the shared builds (guest-tools,
# tc, deb) are done: make check-ci runs it in its pool, beside other jobs.
sanitizer-boot:
	@rel=$$(scripts/debug-kernel.sh) && \
	$(MAKE) --no-print-directory module guest KERNELRELEASE=$$rel \
		KDIR=$(CURDIR)/build/linux-debug/src && \
	KERNELRELEASE=$$rel qemu/run --timeout 2400 --log build/check-sanitizers \
		tests/guest/all.sh $(SANITIZER_ARGS) $(SANITIZER_TESTS)

# CI's schedule (make check-fresh, after make demo): check-all's suites,
# make style and the sanitizer stage in one run of scripts/check.sh: the
# timing-sensitive tests of the stable kernels booted alone first, then
# the rest two jobs at a time (CHECK_POOL, docs/tests.md).  Everything the
# jobs share is built and installed before, so that no two jobs run apt,
# dpkg or make on the same files at once.
# make style's check, counted as one test by scripts/check.sh.
style-check:
	scripts/style.sh $(KERNELS)
	@echo "1 passed, 0 failed"

check-ci: deps
	@s=$$(date +%s) && \
	$(MAKE) --no-print-directory all guest-tools tc deb && \
	for r in $(KERNELS); do \
		$(MAKE) --no-print-directory guest KERNELRELEASE=$$r || exit 1; \
		scripts/linux-source.sh $$r >/dev/null || exit 1; \
	done && \
	scripts/deps.sh libelf-dev bc libssl-dev && \
	echo "=== shared builds took $$(( $$(date +%s) - s ))s"
	CHECK_POOL=2 CHECK_SPLIT=2 CHECK_POOL_MAKE="sanitizer-boot style-check" \
		CHECK_GUEST_ARGS="$(CHECK_GUEST_ARGS)" \
		CHECK_KERNELS="$(KERNELS)" CHECK_DEB_RELEASES="bookworm trixie" \
		CHECK_SUBSET_KERNELS="$(foreach s,6.12 trixie-backports,$(shell scripts/kernel-release.sh $(s)))" \
		CHECK_SUBSET_TESTS="$(BACKPORTS_ARGS) $(BACKPORTS_TESTS)" scripts/check.sh

# The whole guest suite N times on each of REPEAT_KERNELS, on CI's
# schedule, each test's failures counted (scripts/repeat.sh; docs/tests.md).
N ?= 5
REPEAT_KERNELS ?= $(KERNELRELEASE)
repeat: deps
	@$(MAKE) --no-print-directory all guest-tools tc deb
	@for r in $(REPEAT_KERNELS); do \
		$(MAKE) --no-print-directory guest KERNELRELEASE=$$r || exit 1; \
	done
	CHECK_GUEST_ARGS="$(CHECK_GUEST_ARGS)" scripts/repeat.sh $(N) $(REPEAT_KERNELS)

mutate: deps
	@$(MAKE) --no-print-directory all guest guest-tools tc
	FULL=$(FULL) scripts/mutate.sh

soak: deps
	@$(MAKE) --no-print-directory all guest
	qemu/run --timeout $$(( $(SOAK_MINUTES) * 60 + 600 )) tests/guest/soak.sh $(SOAK_MINUTES)
