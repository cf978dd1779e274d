#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/kernel-release.sh [SERIES [FLAVOUR]]: print the kernel release
# of one supported series, as the archive has it today (a point release
# needs no commit), e.g. 6.1.0-57-amd64 or 7.3.4+deb13-amd64:
#
#   6.1 (default)     Debian 12's kernel: the installed linux-headers-FLAVOUR
#                     metapackage's release; nothing before make deps.
#   6.12              bookworm-backports' kernel
#   trixie            Debian 13's kernel (trixie, trixie-security)
#   trixie-backports  trixie-backports' kernel (7.3)
#   all               the four, one a line (make check-all's KERNELS)
#
# The archive's are read through the private APT configuration of their
# release.  FLAVOUR defaults to amd64 (also: cloud-amd64, rt-amd64).
#
# scripts/kernel-release.sh --debian REL: the Debian release a kernel
# release belongs to (bookworm or trixie), whose compiler builds for it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
series=${1:-6.1}
flavour=${2:-amd64}

# headers_release RELEASE SUITE: the release linux-headers-FLAVOUR names
# in SUITE, or in RELEASE's non-backports suites (the highest) if empty.
headers_release() {
	APT_CONFIG=$("$top/scripts/apt.sh" "$1")
	export APT_CONFIG
	if [ -n "$2" ]; then
		apt-cache show "linux-headers-$flavour/$2" 2>/dev/null
	else
		ver=$(apt-cache policy "linux-headers-$flavour" 2>/dev/null |
			awk '/^     [^ ]/ && !/~bpo/ { print $1; exit }
			     /^ \*\*\* / && !/~bpo/ { print $2; exit }')
		[ -z "$ver" ] || apt-cache show "linux-headers-$flavour=$ver" 2>/dev/null
	fi | sed -n 's/^Depends:.*linux-headers-\([^ ,]*-'"$flavour"'\)\b.*/\1/p' | head -n 1
}

case $series in
--debian)
	case $2 in
	*+deb13-*) echo trixie ;;
	*) echo bookworm ;;
	esac
	;;
6.1)
	dpkg-query -W -f='${Status} ${Depends}\n' "linux-headers-$flavour" 2>/dev/null |
		sed -n 's/^install ok installed linux-headers-\([^ ,]*\).*/\1/p'
	;;
6.12) headers_release bookworm bookworm-backports ;;
trixie) headers_release trixie "" ;;
trixie-backports) headers_release trixie trixie-backports ;;
all)
	for s in 6.1 6.12 trixie trixie-backports; do
		"$0" "$s" "$flavour"
	done
	;;
*)
	echo "kernel-release: unknown series '$series' (6.1, 6.12, trixie, trixie-backports)" >&2
	exit 1
	;;
esac
