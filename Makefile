# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# sch_codel: the CoDel qdisc (RFC 8289) as an out-of-tree module for
# Debian's kernels (docs/kernels.md).
#
#   make              the module for KERNELRELEASE, and the simulator
#   make install      the module under /lib/modules/KERNELRELEASE/updates
#   make dkms-add     the sources under /usr/src, added to DKMS
#   make style        checkpatch --strict, sparse and W=1 on every kernel
#   make deps         the Debian packages the rest needs (scripts/deps.sh)
#   make deb          the Debian packages of HEAD (scripts/deb.sh)
#   make check        tests: host, then the guest suite under QEMU; more
#                     in tests/tests.mk (check-all, check-fresh, demo, ...)
#   make bench        benchmarks (bench/bench.mk)
#
# KERNELRELEASE defaults to the release of Debian's linux-headers-amd64
# (6.1); KDIR to its build tree, or to Debian's headers for that release
# unpacked under build/headers (never installed).  KERNELS: the releases
# style and check-all cover.

KERNELRELEASE ?= $(shell scripts/kernel-release.sh)
KDIR ?= $(if $(KERNELRELEASE),$(shell scripts/kernel-headers.sh $(KERNELRELEASE)))
KERNELS ?= $(KERNELRELEASE) $(foreach s,6.12 trixie trixie-backports,$(shell scripts/kernel-release.sh $(s)))
# Another Debian release's kernel is built with that release's compiler,
# in its build root (scripts/in-root.sh): trixie's need gcc-14.
DEBIAN_RELEASE := $(if $(KERNELRELEASE),$(shell scripts/kernel-release.sh --debian $(KERNELRELEASE)))
KBUILD := $(if $(filter-out bookworm,$(DEBIAN_RELEASE)),scripts/in-root.sh $(DEBIAN_RELEASE)) $(MAKE)
BUILD := build
MODDIR := $(BUILD)/module/$(KERNELRELEASE)
MODULE := $(MODDIR)/sch_codel.ko
include sources.mk
# The one version: debian/changelog's latest entry.
VERSION := $(shell dpkg-parsechangelog -SVersion 2>/dev/null)
DESTDIR ?=

.PHONY: all module headers install dkms-add style flavours deps deb clean distclean

all: module sim

module: $(MODULE)

headers:
	@test -n "$(KERNELRELEASE)" && test -e "$(KDIR)/Makefile" || \
		{ echo "no kernel headers for '$(KERNELRELEASE)' at '$(KDIR)': run make deps" >&2; exit 1; }

# Kbuild builds in the directory it is given: one per kernel release under
# build/, of links to the sources.
$(MODULE): Kbuild dkms.conf $(MODULE_SOURCES)
	@test -e "$(KDIR)/Makefile" || { echo "no kernel build tree at '$(KDIR)': run make deps" >&2; exit 1; }
	@mkdir -p $(MODDIR)
	@for f in $^; do ln -sf $(CURDIR)/$$f $(MODDIR)/$$f; done
	$(KBUILD) -C $(KDIR) M=$(CURDIR)/$(MODDIR) $(if $(VERSION),SCH_CODEL_VERSION=$(VERSION)) \
		$(if $(W),W=$(W)) $(if $(C),C=$(C)) modules

# Under updates/, so that it wins over the in-tree sch_codel; KERNELRELEASE
# need not be the running kernel.
install: module
	install -D -m 0644 $(MODULE) $(DESTDIR)/lib/modules/$(KERNELRELEASE)/updates/sch_codel.ko
	install -D -m 0644 $(MODDIR)/sch_fq_codel_ext.ko \
		$(DESTDIR)/lib/modules/$(KERNELRELEASE)/updates/sch_fq_codel_ext.ko
	depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KERNELRELEASE)

dkms-add:
	@command -v dkms >/dev/null || { echo "dkms is not installed (make deps)" >&2; exit 1; }
	@test -n "$(VERSION)" || { echo "no version: dpkg-parsechangelog (dpkg-dev) missing (make deps)" >&2; exit 1; }
	install -d $(DESTDIR)/usr/src/sch_codel-$(VERSION)
	install -m 0644 Kbuild $(MODULE_SOURCES) $(DESTDIR)/usr/src/sch_codel-$(VERSION)/
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf >$(DESTDIR)/usr/src/sch_codel-$(VERSION)/dkms.conf
	dkms add -m sch_codel -v $(VERSION)

style: deps
	scripts/style.sh $(KERNELS)

# Without warnings against every Debian flavour's headers of each release.
flavours:
	scripts/flavours.sh amd64 cloud-amd64 rt-amd64

deps:
	scripts/deps.sh

deb:
	scripts/deb.sh

clean:
	-@if test -e "$(KDIR)/Makefile" && test -d $(MODDIR); then \
		$(MAKE) -C $(KDIR) M=$(CURDIR)/$(MODDIR) clean; fi
	rm -rf $(BUILD)/guest-tools $(SIM) $(UNIT)

distclean:
	rm -rf $(BUILD)

include tests/tests.mk bench/bench.mk
