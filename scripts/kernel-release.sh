#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/kernel-release.sh [SERIES [FLAVOUR]]: print the kernel release
# of one supported series, e.g. 6.1.0-57-amd64 or 6.12.95+deb12-amd64.
#
#   6.1  (default) Debian 12's kernel: the installed linux-headers-FLAVOUR
#        metapackage's release; nothing if it is not installed yet (make
#        deps installs it).
#   6.12 bookworm-backports' kernel: what its linux-headers-FLAVOUR
#        metapackage names, read through the private APT configuration.
#
# FLAVOUR defaults to amd64 (also: cloud-amd64, rt-amd64).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
series=${1:-6.1}
flavour=${2:-amd64}
case $series in
6.1)
	dpkg-query -W -f='${Status} ${Depends}\n' "linux-headers-$flavour" 2>/dev/null |
		sed -n 's/^install ok installed linux-headers-\([^ ,]*\).*/\1/p'
	;;
6.12)
	APT_CONFIG=$("$top/scripts/apt.sh")
	export APT_CONFIG
	apt-cache show "linux-headers-$flavour/bookworm-backports" 2>/dev/null |
		sed -n 's/^Depends: linux-headers-\([^ ,]*\).*/\1/p' | head -n 1
	;;
*)
	echo "kernel-release: unknown series '$series' (6.1 or 6.12)" >&2
	exit 1
	;;
esac
