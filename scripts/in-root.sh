#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/in-root.sh RELEASE COMMAND [ARG...]: run COMMAND with RELEASE's
# compiler: inside build/roots/RELEASE, a minimal Debian root made with
# debootstrap (once, and again when its package list changes), holding
# the build tools and the tool Depends of RELEASE's kernel headers
# (scripts/unpacked-depends.sh RELEASE: trixie's kernels need gcc-14,
# which Debian 12 cannot install).  This tree is bind-mounted at its own
# path in the root and the command runs from the current directory, in a
# private mount namespace: the mounts end with it, whatever happens.
# Never runs anything but the build; nothing is loaded or installed on
# the host.
set -eu
rel=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
root=$top/build/roots/$rel
# sparse and perl for make style (kernel-doc at W=1), kmod for modinfo.
packages="make libc6-dev sparse perl kmod $("$top/scripts/unpacked-depends.sh" "$rel" | tr '\n' ' ')"
stamp="$packages"

mkdir -p "$top/build/roots"
(
	flock 9
	if [ "$(cat "$root/.packages" 2>/dev/null)" != "$stamp" ]; then
		echo "in-root: making the $rel build root (debootstrap)" >&2
		rm -rf "$root"
		archive=$("$top/scripts/archive-uri.sh")
		# shellcheck disable=SC2086
		debootstrap --variant=minbase --include="$(echo $packages | tr ' ' ,)" \
			--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
			"$rel" "$root" "$archive" >"$top/build/roots/$rel.log" 2>&1 || {
			tail -n 20 "$top/build/roots/$rel.log" >&2
			echo "in-root: debootstrap $rel failed (log: build/roots/$rel.log)" >&2
			exit 1
		}
		echo "$stamp" >"$root/.packages"
	fi
) 9>"$top/build/roots/.lock"

mkdir -p "$root$top"
exec unshare -m sh -euc '
	root=$1 top=$2 cwd=$3
	shift 3
	mount --make-rprivate /
	mount --bind "$top" "$root$top"
	mount -t proc proc "$root/proc"
	cd "$root$cwd"
	exec chroot "$root" sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
' in-root "$root" "$top" "$(pwd)" "$@"
