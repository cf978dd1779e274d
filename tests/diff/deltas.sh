#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# tests/diff/deltas.sh SRC DEST [SKIP]: copy a kernel's include/net/codel.h
# and codel_impl.h from SRC (build/linux-src/REL) to DEST/include/net and
# apply there the deliberate deltas of our codel.h that this kernel lacks,
# leaving out the one named SKIP.  Prints the names of those applied, one
# a line.  Each is a later mainline change (7.3, docs/parity.md) that
# codel.h carries on every kernel:
#   one-tick  the control law advances drop_next by at least one tick
#   drop-cap  one dequeue drops at most CODEL_MAX_DROPS_PER_DEQUEUE (256)
#             in its loop, then restarts the schedule from now
# A delta that does not apply exactly fails: the source moved.
set -eu
src=$1 dest=$2 skip=${3:-}
inc=$dest/include/net
rm -rf "$dest/include"
mkdir -p "$inc"
cp "$src/include/net/codel.h" "$src/include/net/codel_impl.h" "$inc/"
impl=$inc/codel_impl.h

fail() { echo "deltas: $1 does not apply to $src: $2" >&2; exit 1; }

if ! grep -q 'max_t(u32, 1,' "$impl" && [ "$skip" != one-tick ]; then
	sed -i 's/^\(\treturn t + \)\(reciprocal_scale(interval, rec_inv_sqrt << REC_INV_SQRT_SHIFT)\);$/\1max_t(u32, 1, \2);/' "$impl"
	[ "$(grep -c 'return t + max_t(u32, 1, reciprocal_scale' "$impl")" = 1 ] ||
		fail one-tick "no single control-law return"
	echo one-tick
fi
if ! grep -q CODEL_MAX_DROPS_PER_DEQUEUE "$inc/codel.h" && [ "$skip" != drop-cap ]; then
	awk '
	/^#define __NET_SCHED_CODEL_IMPL_H$/ {
		print; print "#define CODEL_MAX_DROPS_PER_DEQUEUE 256"; n++; next }
	/^\tbool drop;$/ { print "\tunsigned int drops = 0;"; print; n++; next }
	prev ~ /^\t\t\twhile \(vars->dropping &&$/ &&
	    /^\t\t\t       codel_time_after_eq\(now, vars->drop_next\)\) \{$/ {
		print
		print "\t\t\t\tif (++drops > CODEL_MAX_DROPS_PER_DEQUEUE) {"
		print "\t\t\t\t\tvars->drop_next = codel_control_law(now, params->interval, vars->rec_inv_sqrt);"
		print "\t\t\t\t\tbreak;"
		print "\t\t\t\t}"
		n++; prev = $0; next }
	{ print; prev = $0 }
	END { if (n != 3) exit 1 }' "$impl" >"$impl.new" ||
		fail drop-cap "expected the guard, one 'bool drop;' and one dropping loop"
	mv "$impl.new" "$impl"
	echo drop-cap
fi
