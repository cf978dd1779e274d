#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
# Print the kernel release of Debian's installed linux-headers-<flavour>
# metapackage (default amd64), e.g. 6.1.0-57-amd64; nothing if absent.
flavour=${1:-amd64}
dpkg-query -W -f='${Status} ${Depends}\n' "linux-headers-$flavour" 2>/dev/null |
	sed -n 's/^install ok installed linux-headers-\([^ ,]*\).*/\1/p'
