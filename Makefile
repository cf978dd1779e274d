# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# sch_codel: out-of-tree CoDel qdisc for Debian's 6.1 and 6.12 kernels.
#
#   make            module (build/module/<release>/sch_codel.ko) + simulator
#   make unit       host unit tests of codel.h
#   make check      unit tests, then the in-guest suite under QEMU
#   make check-all  make check with one guest suite per supported kernel
#   make check-fresh  CI's run: make demo, style and check-all inside a
#                   Debian 12 root made from nothing (debootstrap)
#   make tc         build/tc: Debian's tc with tc-patch/ applied
#   make demo       pfifo vs codel at 10 Mbit/s, in QEMU
#   make bench      latency and per-packet cost, ours vs in-tree vs pfifo
#   make soak       SOAK_MINUTES (10) of traffic with random live changes
#   make deb        the Debian packages: sch-codel-dkms and tc-codel
#   make mutate     mutation testing: tests/mutants/*.patch must each fail
#   make style      checkpatch --strict, sparse (C=2) and W=1 on the module
#
# KERNELRELEASE defaults to the release of Debian's installed
# linux-headers-amd64 (6.1); KDIR to its build tree, or for any other
# release to Debian's headers unpacked under build/headers (never
# installed).  Override either.  KERNELS: the releases check-all and style
# cover (docs/kernels.md).

KERNELRELEASE ?= $(shell scripts/kernel-release.sh)
KDIR ?= $(if $(KERNELRELEASE),$(shell scripts/kernel-headers.sh $(KERNELRELEASE)))
KERNELS ?= $(KERNELRELEASE) $(foreach s,6.12 trixie trixie-backports,$(shell scripts/kernel-release.sh $(s)))
# A kernel of another Debian release is built with that release's compiler,
# in its build root (scripts/in-root.sh): trixie's need gcc-14.
DEBIAN_RELEASE := $(if $(KERNELRELEASE),$(shell scripts/kernel-release.sh --debian $(KERNELRELEASE)))
KBUILD := $(if $(filter-out bookworm,$(DEBIAN_RELEASE)),scripts/in-root.sh $(DEBIAN_RELEASE)) $(MAKE)
BUILD := build
MODDIR := $(BUILD)/module/$(KERNELRELEASE)
MODULE := $(MODDIR)/sch_codel.ko
include sources.mk
MOD_SRCS := Kbuild dkms.conf $(MODULE_SOURCES)
# The one version: debian/changelog's latest entry.
VERSION := $(shell dpkg-parsechangelog -SVersion 2>/dev/null)
FLAVOURS := amd64 cloud-amd64 rt-amd64
DESTDIR ?=

CC ?= cc
USER_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Werror -Iuser/shim -I.
KERNEL_DIR := $(BUILD)/kernel/$(KERNELRELEASE)
INITRAMFS := $(BUILD)/initramfs-$(KERNELRELEASE).cpio
SIM := $(BUILD)/codel-sim
TC := $(BUILD)/tc
FUZZ := $(BUILD)/codel-fuzz
GSO_BURST := $(BUILD)/gso-burst
SOAK_MINUTES ?= 10
UNIT := $(BUILD)/test-codel

.PHONY: all module sim unit check check-all check-fresh check-guest demo shell style deps clean \
	headers distclean guest tc install dkms-add flavours bench soak fuzz \
	check-debug mutate deb

all: module sim

# Install what is missing (Debian packages only); re-read the release after.
deps:
	scripts/deps.sh

headers:
	@test -n "$(KERNELRELEASE)" && test -e "$(KDIR)/Makefile" || \
		{ echo "no kernel headers for '$(KERNELRELEASE)' at '$(KDIR)': run make deps" >&2; exit 1; }

module: $(MODULE)

# Kbuild builds in the directory it is pointed at; give it one per kernel
# release under build/, holding links to the sources.
$(MODULE): $(MOD_SRCS)
	@test -e "$(KDIR)/Makefile" || { echo "no kernel build tree at '$(KDIR)': run make deps" >&2; exit 1; }
	@mkdir -p $(MODDIR)
	@for f in $(MOD_SRCS); do ln -sf $(CURDIR)/$$f $(MODDIR)/$$f; done
	$(KBUILD) -C $(KDIR) M=$(CURDIR)/$(MODDIR) $(if $(VERSION),SCH_CODEL_VERSION=$(VERSION)) \
		$(if $(W),W=$(W)) $(if $(C),C=$(C)) modules

# Everything qemu/run boots: module, Debian's kernel image, initramfs.
guest: headers
	@$(MAKE) --no-print-directory $(MODULE) $(INITRAMFS)

$(KERNEL_DIR)/.done:
	qemu/kernel.sh $(KERNELRELEASE)

# The module is only a placeholder in the base image (qemu/run overlays the
# current one), hence order-only.
$(INITRAMFS): $(KERNEL_DIR)/.done qemu/initramfs.sh qemu/guest/init qemu/guest/env | $(MODULE)
	qemu/initramfs.sh $(KERNELRELEASE) $@

shell: guest
	qemu/run --shell

sim: $(SIM)

$(SIM): user/codel-sim.c user/pktq.h codel.h user/shim/linux/types.h user/shim/linux/math64.h
	@mkdir -p $(BUILD)
	$(CC) $(USER_CFLAGS) -o $@ $<

$(UNIT): tests/unit/test-codel.c tests/unit/tap.h user/pktq.h codel.h user/shim/linux/types.h user/shim/linux/math64.h
	@mkdir -p $(BUILD)
	$(CC) $(USER_CFLAGS) -o $@ $< -lm

unit: $(UNIT) $(SIM)
	$(UNIT)

# tc with tc-patch/ applied, from Debian's iproute2 source; and the stock
# tc 6.15 the guest tests the plugin with (downloaded, not installed).
tc: $(TC)
	@scripts/stock-tc.sh bookworm-backports >/dev/null

$(TC): $(wildcard tc-patch/*.patch) scripts/build-tc.sh scripts/iproute2-source.sh
	scripts/build-tc.sh

# The guest's test programs: the netlink fuzzer and the UDP GSO sender (the
# guest carries the host's glibc; qemu/run installs gso-burst, tests --add
# the fuzzer).
fuzz: $(FUZZ) $(GSO_BURST)

$(FUZZ): tests/fuzz/codel-fuzz.c pkt_sched_codel.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -g -std=gnu11 -Wall -Wextra -Werror -pthread -I. -o $@ $<

$(GSO_BURST): tests/tools/gso-burst.c
	@mkdir -p $(BUILD)
	$(CC) -O2 -g -std=gnu11 -Wall -Wextra -Werror -o $@ $<

# Both install what they need first (Debian packages only), then build.
check: deps
	@$(MAKE) --no-print-directory all guest tc fuzz deb
	CHECK_KERNELS=$(KERNELRELEASE) scripts/check.sh

# Host tests once, then the guest suite on every kernel in KERNELS (one
# boot each); one combined summary line.
check-all: deps
	@$(MAKE) --no-print-directory all tc fuzz deb
	@for r in $(KERNELS); do \
		$(MAKE) --no-print-directory guest KERNELRELEASE=$$r || exit 1; \
	done
	CHECK_KERNELS="$(KERNELS)" CHECK_DEB_RELEASES="bookworm trixie" scripts/check.sh

# What CI runs (.ci/run), on a fresh machine: a minimal Debian 12 root made
# anew under build/fresh, where make deps must install everything.  Tests
# the committed HEAD (the root gets a clone).
check-fresh:
	scripts/fresh-root.sh bookworm 'make demo && make style && make check-all'

demo: deps
	@$(MAKE) --no-print-directory all guest
	qemu/run demo/demo.sh

# The guest suite on a KASAN/KMEMLEAK/LOCKDEP/UBSAN kernel built from
# Debian's linux-source-6.1 (cached in build/linux-debug).
check-debug: deps
	@rel=$$(scripts/debug-kernel.sh) && \
	$(MAKE) --no-print-directory all guest tc fuzz KERNELRELEASE=$$rel \
		KDIR=$(CURDIR)/build/linux-debug/src && \
	KERNELRELEASE=$$rel CHECK_ONLY=guest CHECK_NO_MQ=1 CHECK_LOG=build/check-debug \
		GUEST_TIMEOUT=7200 scripts/check.sh

# Snapshot packages of the committed HEAD under build/deb (scripts/deb.sh),
# then lintian.  make check tests them.
deb:
	scripts/deb.sh

# Not part of check: each tests/mutants/*.patch against the tests that
# must catch it (scripts/mutate.sh).
mutate: deps
	@$(MAKE) --no-print-directory all guest
	scripts/mutate.sh

# Not part of check: SOAK_MINUTES of traffic with random live changes.
soak: deps
	@$(MAKE) --no-print-directory all guest
	qemu/run --timeout $$(( $(SOAK_MINUTES) * 60 + 600 )) tests/guest/soak.sh $(SOAK_MINUTES)

# Measures, asserts nothing; QUICK=1 for a short run.
bench: deps
	@$(MAKE) --no-print-directory all guest
	QUICK=$(QUICK) bench/run.sh

# Install the built module for KERNELRELEASE (not necessarily the running
# kernel) under updates/, so it wins over the in-tree sch_codel, and depmod.
install: module
	install -D -m 0644 $(MODULE) $(DESTDIR)/lib/modules/$(KERNELRELEASE)/updates/sch_codel.ko
	depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KERNELRELEASE)

# Sources to /usr/src/sch_codel-VERSION, registered with DKMS.
dkms-add:
	@command -v dkms >/dev/null || { echo "dkms is not installed (make deps)" >&2; exit 1; }
	@test -n "$(VERSION)" || { echo "no version: dpkg-parsechangelog (dpkg-dev) missing (make deps)" >&2; exit 1; }
	install -d $(DESTDIR)/usr/src/sch_codel-$(VERSION)
	install -m 0644 Kbuild $(MODULE_SOURCES) $(DESTDIR)/usr/src/sch_codel-$(VERSION)/
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf >$(DESTDIR)/usr/src/sch_codel-$(VERSION)/dkms.conf
	dkms add -m sch_codel -v $(VERSION)

# Build without warnings against each Debian flavour's headers, in
# every supported series.
flavours:
	scripts/flavours.sh $(FLAVOURS)

style: deps
	scripts/style.sh $(KERNELS)

clean:
	-@if test -e "$(KDIR)/Makefile" && test -d $(MODDIR); then \
		$(MAKE) -C $(KDIR) M=$(CURDIR)/$(MODDIR) clean; fi
	rm -f $(SIM) $(UNIT)

distclean:
	rm -rf $(BUILD)
