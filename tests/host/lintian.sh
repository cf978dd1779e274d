# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
# Sourced by the host package tests (after tests/tap.sh).

# lintian_judge FILE WHO: each tag in lintian's output FILE must be in
# tests/host/lintian-allowed with its reason, and none an E or W; prints
# the tag count.  WHO names the run in the messages.
lintian_judge() {
	local tags allowed t
	tags=$(grep -E '^[EWIPX]: ' "$1" | sort -u)
	allowed=$(grep -v '^#' "$top/tests/host/lintian-allowed" | cut -d' ' -f1)
	# "P: PACKAGE[ source]: TAG ...": a source package's tags say "source:".
	for t in $(echo "$tags" | sed -E 's/^[EWIPX]: [^ ]+( source)?: ([^ ]+).*/\2/' | sort -u); do
		echo "$allowed" | grep -qx "$t" ||
			check_err 1 "lintian ($2): $(echo "$tags" | grep " $t" | head -n 1)"
	done
	! echo "$tags" | grep -q '^[EW]: ' || check_err 1 "lintian ($2) gives an E or W tag"
	diag "lintian ($2): $(echo "$tags" | grep -c .) tags, in ${1#"$top"/}"
}
