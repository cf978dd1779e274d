#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/unpacked-depends.sh [RELEASE]: print the packages that the Debian
# packages the project unpacks with dpkg-deb instead of installing Depend
# on, for every supported kernel series of a Debian release (bookworm, the
# default: 6.1 and 6.12; trixie: its own and its backports' kernels, built
# in build/roots/trixie by scripts/in-root.sh): the headers, their -common and
# linux-kbuild (scripts/kernel-headers.sh; kbuild Depends on pahole, the
# headers on their gcc), and linux-source (scripts/linux-source.sh).
# Unpacking brings none of them; make deps installs what this prints.
#
# Read from the archive's Depends fields (first alternative of each, no
# version), less the unpacked packages themselves and kernel images (and,
# from 7.3 on, the pieces they are split into: linux-base-REL, ...): the
# headers' "linux-image-REL | ...-unsigned" must never reach the host,
# and of an image (qemu/kernel.sh) only its files are used, vmlinuz by
# QEMU and its modules by depmod (kmod, in deps.sh's list); its Depends
# serve its maintainer scripts, which never run here.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
release=${1:-bookworm}
case $release in
bookworm) all_series="6.1 6.12" ;;
trixie) all_series="trixie trixie-backports" ;;
*) echo "unpacked-depends: unknown release '$release'" >&2; exit 1 ;;
esac
APT_CONFIG=$("$top/scripts/apt.sh" "$release")
export APT_CONFIG

# depends PACKAGE: its Depends, one name a line.
depends() {
	apt-cache show "$1" | sed -n '0,/^Depends:/s/^Depends: //p' | tr ',' '\n' |
		sed 's/|.*//; s/(.*//; s/:any//; s/ //g' | grep . || true
}

unpacked=
for series in $all_series; do
	rel=$("$top/scripts/kernel-release.sh" "$series")
	[ -n "$rel" ] || { echo "unpacked-depends: no $series kernel release" >&2; exit 1; }
	headers=linux-headers-$rel
	ver=$(apt-cache show "linux-image-$rel" "linux-image-$rel-unsigned" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1)
	unpacked="$unpacked $headers linux-source-$(echo "$ver" | cut -d. -f1,2)
		$(depends "$headers" | grep -E '^linux-(headers-.*-common|kbuild-)')"
done
for p in $unpacked; do
	depends "$p"
done | sort -u | while read -r d; do
	case " $(echo $unpacked) " in *" $d "*) continue ;; esac
	case $d in linux-image-* | linux-base-[0-9]* | linux-binary-* | linux-modules-*) continue ;; esac
	echo "$d"
done
