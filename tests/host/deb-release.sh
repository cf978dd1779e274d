#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The Debian packages as a Debian developer and an administrator of
# RELEASE (bookworm, trixie) meet them, each step in a fresh minimal root
# of that release (a copy of build/pkgroots/base-RELEASE, debootstrap
# --variant=minbase, made once and never changed):
#  - build: a clean clone of HEAD, build-essential and `apt-get build-dep`
#    only, then `dpkg-buildpackage -us -uc` (the release in
#    debian/changelog) and a snapshot above it; lintian from RELEASE on
#    the release's .changes: no E or W, every other tag justified in
#    tests/host/lintian-allowed;
#  - stock tc: RELEASE's own tc with the plugin prints the extended usage
#    (tc parses "codel help" and exits before it sends anything; it runs
#    in a network namespace of its own);
#  - install: `apt install` both packages and the headers of RELEASE's
#    kernels (RELEASE's and RELEASE-backports' linux-headers-amd64):
#    DKMS builds for each, the module in updates/dkms with the package's
#    version; then an upgrade to the snapshot (the old module and sources
#    gone), the headers of a kernel outside the supported series (dpkg
#    clean, nothing built, the reason said) and a purge (nothing left,
#    iproute2's man page back).
# Never loads anything: DKMS builds and installs files, nothing more.
# Needs root, debootstrap and git.  Usage: tests/host/deb-release.sh RELEASE
set -uo pipefail
rel=${1:?usage: tests/host/deb-release.sh RELEASE}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
. "$top/tests/host/lintian.sh"
# shellcheck source=scripts/root-lib.sh
. "$top/scripts/root-lib.sh"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
base=$top/build/pkgroots/base-$rel
root=$top/build/pkgroots/$rel
log=$top/build/pkgroots/$rel.log
archive=$(scripts/archive-uri.sh)
umount_root() { root_release "$root"; }
# The last step's root goes too (its log stays): a gigabyte of headers
# and build tools that nothing reads again.
trap 'umount_root && rm -rf "$root"' EXIT
trap 'exit 130' INT TERM

# in_root CMD: a bash command line as root in the root, output to $log.
in_root() {
	echo "# in $rel root: $1" >>"$log"
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash -c "$1" >>"$log" 2>&1
}

# fresh_root: a new copy of the base root, with RELEASE's APT sources
# (-updates, -security and -backports too) and /proc, /sys and /dev mounted.
fresh_root() {
	umount_root || return 1
	rm -rf "$root"
	if [ ! -e "$base/.done" ]; then
		rm -rf "$base"
		mkdir -p "$base"
		debootstrap --variant=minbase --keyring="$keyring" "$rel" "$base" "$archive" \
			>"$top/build/pkgroots/debootstrap-$rel.log" 2>&1 || return 1
		touch "$base/.done"
	fi
	cp -a "$base" "$root"
	rm -f "$root/.done"
	root_configure "$root" "$rel" "$rel" "$rel-updates" "$rel-backports"
	root_mount "$root"
	in_root "apt-get update -q"
}

build_in_clean_root() {
	: >"$log"
	fresh_root
	check_err $? "fresh $rel root (log: $log)"
	git clone -q "$top" "$root/src"
	in_root "apt-get install -y -q --no-install-recommends build-essential &&
		cd /src && apt-get build-dep -y -q --no-install-recommends ./"
	check_err $? "build-essential and Build-Depends in the $rel root"
	in_root "cd /src && dpkg-buildpackage -us -uc"
	check_err $? "dpkg-buildpackage from a clean clone in the $rel root"
	release=$(chroot "$root" sh -c 'cd /src && dpkg-parsechangelog -SVersion')
	# The snapshot: the same tree with a newer changelog entry, as
	# make deb writes one.
	snapshot=$release+git$(date -u +%Y%m%d%H%M%S).test
	cp -a "$root/src" "$root/snap"
	{
		printf 'sch-codel (%s) unstable; urgency=medium\n\n  * Snapshot for the upgrade test.\n\n' "$snapshot"
		printf ' -- sch_codel developers <sch-codel@example.org>  %s\n\n' "$(date -R)"
		cat "$root/src/debian/changelog"
	} >"$root/snap/debian/changelog"
	in_root "cd /snap && dpkg-buildpackage -us -uc -b"
	check_err $? "dpkg-buildpackage of the snapshot in the $rel root"
	[ -f "$root/sch-codel_${release}_amd64.changes" ]
	check_err $? "precondition: sch-codel_${release}_amd64.changes built"
	in_root "apt-get install -y -q --no-install-recommends lintian &&
		lintian --info --display-info --pedantic /sch-codel_${release}_amd64.changes \
			>/lintian.txt 2>&1; true"
	cp "$root/lintian.txt" "$top/build/pkgroots/lintian-$rel.txt"
	lintian_judge "$top/build/pkgroots/lintian-$rel.txt" \
		"$rel $(chroot "$root" dpkg-query -W -f='${Version}' lintian)"
	mkdir -p "$top/build/pkgroots/debs-$rel"
	rm -f "$top/build/pkgroots/debs-$rel"/*
	cp "$root"/*.deb "$top/build/pkgroots/debs-$rel/"
	diag "$rel: built $(cd "$root" && ls ./*.deb | tr '\n' ' ')"
	log_test "deb ($rel): dpkg-buildpackage in a clean $rel root; lintian from $rel clean"
}

# state: what purging must leave as installing found it.
state() {
	chroot "$root" sh -c 'ls -d /usr/src/sch_codel-* /var/lib/dkms/sch_codel 2>/dev/null
		find /lib/modules -path "*/updates/dkms/sch_codel.ko*" -o \
			-path "*/updates/dkms/sch_fq_codel_ext.ko*" 2>/dev/null
		ls /usr/lib/x86_64-linux-gnu/tc/q_codel.so \
			/usr/lib/x86_64-linux-gnu/tc/q_fq_codel_ext.so /usr/sbin/codel-exporter 2>/dev/null
		ls /lib/systemd/system/codel-exporter.* /usr/lib/systemd/system/codel-exporter.* 2>/dev/null
		dpkg-divert --list /usr/share/man/man8/tc-codel.8.gz
		md5sum /usr/share/man/man8/tc-codel.8.gz'
}

# kernels: RELEASE's kernels with headers in the root.
kernels() { ls "$root/usr/src" | sed -n 's/^linux-headers-\(.*-amd64\)$/\1/p' | sort; }

# dkms_has VERSION: each kernel's module built, installed, of VERSION.
dkms_has() {
	local v=$1 k ko
	for k in $(kernels); do
		# DKMS 3.2 (trixie) adds "(Original modules exist)" where the
		# kernel has its own sch_codel; ours is in updates/dkms all the same.
		check_eq "$(chroot "$root" dkms status -m sch_codel -k "$k" 2>/dev/null |
			sed 's/,.*: /: /; s/ (Original modules exist)$//')" \
			"sch_codel/$v: installed" "dkms status ($rel, $k)"
		for m in sch_codel sch_fq_codel_ext; do
			ko=$(cd "$root" && ls "lib/modules/$k/updates/dkms/"$m.ko* 2>/dev/null | head -n 1)
			check_eq "$(chroot "$root" modinfo -F version "/$ko" 2>/dev/null)" "$v" "$m version ($k)"
		done
	done
}

# other_kernel_headers: the headers of kernel 9.9.9-custom, a series
# outside BUILD_EXCLUSIVE_KERNEL (a custom or a newer kernel), installed
# as a kernel upgrade installs them: their postinst runs the header hooks,
# DKMS's among them, and fails on the first failure, as Debian's
# linux-headers-*.postinst does.  dpkg must end clean (bookworm's dkms
# 3.0.10 failed the hook, exit 11, and left the package half-configured),
# nothing built for that kernel, and the output must say why.
other_kernel_headers() {
	local k=9.9.9-custom d=$root/tmp/headers out why
	rm -rf "$d"
	mkdir -p "$d/DEBIAN" "$d/usr/src/linux-headers-$k/include/linux" "$d/lib/modules/$k"
	ln -s "/usr/src/linux-headers-$k" "$d/lib/modules/$k/build"
	cat >"$d/DEBIAN/control" <<-EOF
	Package: linux-headers-$k
	Version: 9.9.9-1
	Architecture: amd64
	Maintainer: sch_codel tests <sch-codel@example.org>
	Description: headers of a kernel sch_codel does not build for (a test)
	EOF
	cat >"$d/DEBIAN/postinst" <<-EOF
	#!/bin/sh
	set -e
	run-parts --report --exit-on-error --arg=$k /etc/kernel/header_postinst.d
	EOF
	chmod 0755 "$d/DEBIAN/postinst"
	dpkg-deb --root-owner-group -b "$d" "$root/debs/linux-headers-$k.deb" >/dev/null
	check_err $? "precondition: linux-headers-$k built"
	out=$(chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive dpkg -i "/debs/linux-headers-$k.deb" 2>&1)
	check_err $? "$rel: dpkg -i linux-headers-$k failed: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
	printf '# in %s root: dpkg -i linux-headers-%s\n%s\n' "$rel" "$k" "$out" >>"$log"
	check_eq "$(chroot "$root" dpkg-query -W -f='${db:Status-Abbrev}' "linux-headers-$k")" "ii " \
		"$rel: linux-headers-$k configured"
	check_eq "$(chroot "$root" dpkg --audit)" "" "$rel: dpkg --audit after linux-headers-$k"
	check_eq "$(cd "$root" && ls -d var/lib/dkms/sch_codel/*/"$k" lib/modules/"$k"/updates 2>/dev/null)" "" \
		"$rel: nothing built or installed for $k"
	# Why, in the hook's output: bookworm's dkms says nothing of a module
	# it does not autoinstall, so dkms.conf says it; trixie's says it.
	case $rel in
	bookworm) why="sch_codel: not built for kernel $k, not a series this package supports" ;;
	*) why="Autoinstall on $k was skipped for module(s) sch_codel" ;;
	esac
	case $out in
	*"$why"*) ;;
	*) check_err 1 "$rel: the hook's output does not say \"$why\"" ;;
	esac
	chroot "$root" dpkg --purge "linux-headers-$k" >>"$log" 2>&1
	check_err $? "$rel: purge linux-headers-$k"
}

install_upgrade_purge() {
	local name="deb ($rel): apt install builds for each $rel kernel; upgrade replaces; purge leaves nothing"
	local d=$top/build/pkgroots/debs-$rel
	[ -f "$d/sch-codel-dkms_${release}_all.deb" ] || { log_skip "$name" "no packages built"; return; }
	fresh_root
	check_err $? "fresh $rel root"
	in_root "apt-get install -y -q --no-install-recommends iproute2 dkms"
	before=$(state)
	mkdir -p "$root/debs"
	cp "$d"/*.deb "$root/debs/"
	# RELEASE's kernel headers and those of RELEASE-backports, installed
	# as an administrator would (they bring their kernel images too).
	in_root "apt-get install -y -q --no-install-recommends linux-headers-amd64 &&
		apt-get install -y -q --no-install-recommends -t $rel-backports linux-headers-amd64 &&
		apt-get install -y -q --no-install-recommends \
			/debs/sch-codel-dkms_${release}_all.deb /debs/tc-codel_${release}_amd64.deb"
	check_err $? "apt install in the $rel root (log: $log)"
	check_eq "$(kernels | wc -l)" 2 "precondition: two $rel kernels with headers ($(kernels | tr '\n' ' '))"
	dkms_has "$release"
	diag "$rel: $(chroot "$root" dkms status -m sch_codel 2>/dev/null | tr '\n' ';')"
	# The release's own tc, with the plugin, in a network namespace of
	# its own: "help" is parsed by the plugin and nothing is sent.
	usage=$(unshare -n chroot "$root" tc qdisc add dev lo root codel help 2>&1)
	case $usage in
	*memory_limit*split_gso*|*split_gso*memory_limit*) ;;
	*) check_err 1 "$rel's tc with the plugin: no extended usage: $usage" ;;
	esac
	diag "$rel: $(chroot "$root" tc -V)"
	# The exporter on the release's python3 and tc (a namespace of its
	# own: no qdisc of ours, nothing to write, nothing loaded).
	out=$(unshare -n chroot "$root" codel-exporter --stdout 2>&1)
	check_err $? "$rel: codel-exporter --stdout: $out"
	check_eq "$out" "" "$rel: codel-exporter with no codel qdisc"
	in_root "apt-get install -y -q --no-install-recommends \
		/debs/sch-codel-dkms_${snapshot}_all.deb /debs/tc-codel_${snapshot}_amd64.deb"
	check_err $? "upgrade to the snapshot"
	dkms_has "$snapshot"
	check_eq "$(ls -d "$root"/usr/src/sch_codel-* | sed "s|^$root||")" "/usr/src/sch_codel-$snapshot" "sources after the upgrade"
	check_eq "$(chroot "$root" dkms status -m sch_codel 2>/dev/null | grep -c "sch_codel/$release,")" 0 "old version gone from DKMS"
	other_kernel_headers
	in_root "apt-get purge -y -q sch-codel-dkms tc-codel"
	check_err $? "apt purge"
	check_eq "$(state)" "$before" "state after purge"
	log_test "$name"
}

cleanup_all() { umount_root; }

release=$(dpkg-parsechangelog -SVersion)
snapshot=
mkdir -p "$top/build/pkgroots"
ALL_TESTS="build_in_clean_root install_upgrade_purge"
run_tests
