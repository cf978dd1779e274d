#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/test-weights.sh LOG...: each guest test's median time, in whole
# seconds (at least 1), over the "# TEST took S s" lines of the guest logs
# given, one "TEST SECONDS" a line, by name.  tests/guest/weights is its
# output over a repeat's logs: all.sh's PART=K/N splits a suite by it.
set -eu
[ $# -gt 0 ] || { echo "usage: $0 LOG..." >&2; exit 2; }
awk '/^# [a-z0-9_]+ took [0-9.]+ s$/ { print $2, $4 }' "$@" | sort -k1,1 -k2,2n |
	awk 'function out() { if (k != "") { m = v[int((n + 1) / 2)]; printf "%s %d\n", k, m < 1 ? 1 : m + 0.5 } }
	$1 != k { out(); k = $1; n = 0 }
	{ v[++n] = $2 }
	END { out() }'
