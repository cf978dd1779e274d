#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Host tests of the Debian packages (make deb): their contents, lintian,
# and, as root, install / remove / purge with apt.  Installing builds the
# module with DKMS (dh_dkms's postinst); nothing is ever loaded into the
# running kernel.  The 6.12 series is built with "dkms build
# --kernelsourcedir" against its unpacked headers: installing
# linux-headers-6.12 would pull in the 6.12 kernel image (docs/kernels.md).
# Run from the top of the tree after make deb: tests/host/deb.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
. "$top/tests/host/lintian.sh"
# The snapshot version make deb built (scripts/deb.sh).
ver=$(cat build/deb/version 2>/dev/null)
dkmsdeb=build/deb/sch-codel-dkms_${ver}_all.deb
tcdeb=build/deb/tc-codel_${ver}_amd64.deb
man=/usr/share/man/man8/tc-codel.8.gz
tclib=/usr/lib/x86_64-linux-gnu/tc

# After each test: no package of ours left installed, whatever failed.
cleanup_all() {
	for p in sch-codel-dkms tc-codel; do
		dpkg -s "$p" >/dev/null 2>&1 || continue
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "$p" >/dev/null 2>&1
	done
}

# contents DEB: its file list, one path per line, directories left out.
contents() {
	dpkg-deb -c "$1" | awk '$1 !~ /^d/ { print $6 }' | sort
}

deb_contents() {
	for d in "$dkmsdeb" "$tcdeb"; do
		[ -f "$d" ] || check_err 1 "$d not built"
	done
	check_eq "$(contents "$dkmsdeb" | tr '\n' ' ')" \
		"./usr/share/doc/sch-codel-dkms/README.Debian ./usr/share/doc/sch-codel-dkms/changelog.gz ./usr/share/doc/sch-codel-dkms/copyright ./usr/src/sch_codel-$ver/Kbuild ./usr/src/sch_codel-$ver/codel.h ./usr/src/sch_codel-$ver/codel_nl.h ./usr/src/sch_codel-$ver/codel_trace.h ./usr/src/sch_codel-$ver/compat.h ./usr/src/sch_codel-$ver/dkms.conf ./usr/src/sch_codel-$ver/fq_codel_trace.h ./usr/src/sch_codel-$ver/pkt_sched_codel.h ./usr/src/sch_codel-$ver/sch_codel.c ./usr/src/sch_codel-$ver/sch_fq_codel.c " \
		"sch-codel-dkms contents"
	conf=$(dpkg-deb --fsys-tarfile "$dkmsdeb" | tar -xO "./usr/src/sch_codel-$ver/dkms.conf")
	check_eq "$(echo "$conf" | sed -n 's/^PACKAGE_VERSION=//p')" "\"$ver\"" "dkms.conf's version is the package's"
	echo "$conf" | grep -qx 'BUILD_EXCLUSIVE_KERNEL=.*'
	check_err $? "dkms.conf without BUILD_EXCLUSIVE_KERNEL"
	check_eq "$(contents "$tcdeb" | tr '\n' ' ')" \
		"./lib/systemd/system/codel-exporter.service ./lib/systemd/system/codel-exporter.timer .$tclib/q_codel.so .$tclib/q_fq_codel_ext.so ./usr/sbin/codel-exporter ./usr/share/doc/tc-codel/changelog.gz ./usr/share/doc/tc-codel/copyright ./usr/share/man/man8/codel-exporter.8.gz .$man ./usr/share/man/man8/tc-fq_codel_ext.8.gz " \
		"tc-codel contents"
	check_eq "$(dpkg-deb -f "$dkmsdeb" Version) $(dpkg-deb -f "$tcdeb" Version)" "$ver $ver" \
		"both versions are the snapshot's"
	dpkg --compare-versions "$ver" gt "$(dpkg-parsechangelog -SVersion)"
	check_err $? "snapshot $ver not above the last release"
	dpkg-deb -f "$dkmsdeb" Depends | grep -q dkms
	check_err $? "sch-codel-dkms does not depend on dkms"
	log_test "deb: both packages built, with exactly the expected files"
}

# Every file the module's sources include is in the one list (sources.mk)
# the package, style check and mutation run read.
deb_sources_complete() {
	srcs=$(scripts/module-sources.sh)
	check_cmp "$(echo "$srcs" | wc -w)" -ge 5 "precondition: sources.mk lists the sources"
	for f in $srcs; do
		for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			echo " $srcs " | grep -q " $inc " || check_err 1 "$f includes $inc, not in sources.mk"
		done
	done
	log_test "deb: every header the module includes is in sources.mk"
}

# Every tag lintian gives must be in tests/host/lintian-allowed with its
# reason (none today).
deb_lintian_clean() {
	lintian_judge "$top/build/deb/lintian.txt" "make deb, $(lintian --version)"
	log_test "deb: lintian reports nothing not justified in tests/host/lintian-allowed"
}

# state: what installing and purging must leave as it was.
state() {
	ls -d /usr/src/sch_codel-* /var/lib/dkms/sch_codel 2>/dev/null
	find /lib/modules -path '*/updates/dkms/sch_codel.ko*' -o \
		-path '*/updates/dkms/sch_fq_codel_ext.ko*' 2>/dev/null
	ls $tclib/q_codel.so $tclib/q_fq_codel_ext.so /usr/sbin/codel-exporter \
		/lib/systemd/system/codel-exporter.* 2>/dev/null
	dpkg-divert --list "$man"
	md5sum "$man"
}

deb_install_remove_purge() {
	name="deb: apt installs both, DKMS builds for each Debian kernel, purge leaves nothing"
	if [ "$(id -u)" != 0 ]; then
		log_skip "$name" "needs root to install packages"
		return
	fi
	rel61=$(scripts/kernel-release.sh)
	rel612=$(scripts/kernel-release.sh 6.12)
	before=$(state)
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"./$dkmsdeb" "./$tcdeb" >build/deb/install.log 2>&1
	check_err $? "apt-get install: $(tail -n 5 build/deb/install.log)"
	# Built and installed by the package's postinst for the installed kernel.
	check_eq "$(dkms status -m sch_codel -v "$ver" -k "$rel61" | sed 's/,.*: /: /')" \
		"sch_codel/$ver: installed" "dkms status after apt install ($rel61)"
	# Both modules, each indexed where modprobe finds it first.
	for m in sch_codel sch_fq_codel_ext; do
		ko=$(ls /lib/modules/"$rel61"/updates/dkms/$m.ko* 2>/dev/null | head -n 1)
		check_eq "$(modinfo -F version "$ko" 2>/dev/null)" "$ver" "$m version from the package"
		/sbin/depmod -n "$rel61" 2>/dev/null | grep -q "^updates/dkms/$m.ko[.a-z]*:"
		check_err $? "depmod does not index updates/dkms/$m.ko"
		# DKMS signs with its MOK key when one exists (Secure Boot).
		if [ -f /var/lib/dkms/mok.key ]; then
			check_eq "$(modinfo -F signer "$ko" 2>/dev/null)" "DKMS module signing key" "$m signature"
		fi
	done
	check_eq "$(modinfo -F alias /lib/modules/"$rel61"/updates/dkms/sch_fq_codel_ext.ko* 2>/dev/null)" \
		net-sch-fq_codel_ext "fq_codel_ext's alias, which tc's autoload asks for"
	for p in q_codel q_fq_codel_ext; do
		nm -D --defined-only "$tclib/$p.so" 2>/dev/null | grep -q " ${p#q_}_qdisc_util\$"
		check_err $? "$tclib/$p.so does not define ${p#q_}_qdisc_util, which tc looks up"
	done
	# The 6.12 series, from its unpacked headers.
	hdr=$(scripts/kernel-headers.sh "$rel612")
	dkms build -m sch_codel -v "$ver" -k "$rel612" --kernelsourcedir "$hdr" \
		>build/deb/dkms-612.log 2>&1
	check_err $? "dkms build for $rel612: $(tail -n 5 build/deb/dkms-612.log)"
	check_eq "$(dkms status -m sch_codel -v "$ver" -k "$rel612" | sed 's/,.*: /: /')" \
		"sch_codel/$ver: built" "dkms status ($rel612)"
	diag "$(dkms status -m sch_codel | tr '\n' ';')"
	# The exporter runs (a namespace of its own: no qdisc of ours, no
	# metric, nothing loaded), its units verify, its timer is not enabled.
	out=$(unshare -n /usr/sbin/codel-exporter --stdout 2>&1)
	check_err $? "codel-exporter --stdout: $out"
	check_eq "$out" "" "codel-exporter with no codel qdisc"
	out=$(systemd-analyze verify --man=no /lib/systemd/system/codel-exporter.service \
		/lib/systemd/system/codel-exporter.timer 2>&1)
	check_err $? "systemd-analyze verify: $out"
	check_eq "$out" "" "systemd-analyze verify of the exporter's units"
	[ ! -e /etc/systemd/system/timers.target.wants/codel-exporter.timer ]
	check_err $? "codel-exporter.timer enabled by the package"
	# The man page is ours, iproute2's is diverted.
	zcat "$man" | grep -q no_ce_threshold_selector
	check_err $? "tc-codel(8) is not ours"
	dpkg-divert --list "$man" | grep -q 'by tc-codel'
	check_err $? "iproute2's tc-codel(8) not diverted"
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q sch-codel-dkms tc-codel \
		>build/deb/purge.log 2>&1
	check_err $? "apt-get purge: $(tail -n 5 build/deb/purge.log)"
	after=$(state)
	check_eq "$after" "$before" "state after purge"
	log_test "$name"
}

ALL_TESTS="deb_contents deb_sources_complete deb_lintian_clean deb_install_remove_purge"
run_tests
