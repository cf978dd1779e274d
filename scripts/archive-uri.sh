#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/archive-uri.sh [debian|debian-security]: the URI of Debian's
# archive (or of its security archive) that the host's APT sources name,
# deb822 or one-line, or the official one if they name none.  Roots and
# private APT configurations are made from the same archive as the host.
set -eu
which=${1:-debian}
uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
	sed -n 's/^URIs: *//p; s/^deb \(\[[^]]*\] \)\?\([^ ]*\) .*/\2/p' |
	grep -m 1 "/$which/\?\$" || true)
echo "${uri:-http://deb.debian.org/$which}"
