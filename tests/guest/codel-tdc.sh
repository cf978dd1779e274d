# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The kernel's own tc test suite (tdc, from the Debian source of the kernel
# under test, unmodified) against our modules: its codel.json (9 cases up
# to 6.12, 14 in 7.3) and our cases in the same format (tests/tdc/codel-sch_codel.json, adapted to
# that tdc's nsPlugin by scripts/tdc-prepare.sh), and its fq_codel.json
# with the kind renamed, against fq_codel_ext (fq_codel_ext.json, by
# scripts/tdc-prepare.sh; stock tc reads it with the plugin of make deb).  tdc runs with the
# host's python3 and tc in /hostroot (lib.sh); make check copies build/tdc
# into the guest.  Each tdc case becomes one TAP line here.  Sourced by
# all.sh.

ALL_TESTS="$ALL_TESTS
	tdc_codel
"

TDC=/payload/tdc
# The files tdc runs; every case each holds must run.
TDC_FILES="codel.json codel-sch_codel.json fq_codel_ext.json"

# tdc_codel: every file in TDC_FILES in one tdc run, one TAP line per case.
# One run per boot: a second tdc run in the same boot of 6.12 (from its
# own Python start) was seen to take 134 s instead of 35 s and to fail
# cases, before any of ours ran, while one run of both files passes.
tdc_codel() {
	if [ ! -e "$TDC/tdc.py" ]; then
		log_skip "tdc" "tdc not in the guest (make check, or qemu/run --add build/tdc/REL=/payload/tdc)"
		return
	fi
	rmmod sch_codel 2>/dev/null
	modprobe sch_codel
	if ! grep -q O /sys/module/sch_codel/taint; then
		log_skip "tdc" "could not load our sch_codel"
		return
	fi
	diag "tdc against $(modinfo -F filename sch_codel) (taint $(cat /sys/module/sch_codel/taint))"
	if [ ! -f "$TC_PLUGIN_DIR/q_fq_codel_ext.so" ]; then
		log_skip "tdc" "the tc plugin q_fq_codel_ext.so is not built (make deb)"
		return
	fi
	# Stock tc finds the plugin there (tdc_config_local.py, from
	# scripts/tdc-prepare.sh); the built-in kinds need none.
	mkdir -p "$TDC/tc-lib"
	cp "$TC_PLUGIN_DIR/q_fq_codel_ext.so" "$TDC/tc-lib/"
	hostroot_up || { log_skip "tdc" "host /usr not reachable over 9p"; return; }
	mkdir -p /hostroot/tdc
	grep -q " /hostroot/tdc " /proc/mounts || mount --bind "$TDC" /hostroot/tdc
	files=
	for file in $TDC_FILES; do files="$files tc-tests/qdiscs/$file"; done
	# In a mount namespace of its own, with an empty /run/netns: tdc from
	# 6.12 on ends with "ip -a netns del", which would also take the
	# guest's "far" namespace (and its eth1) with it.
	mkdir -p /hostroot/run/netns
	unshare -m sh -c "mount -t tmpfs tdc-netns /hostroot/run/netns &&
		exec chroot /hostroot sh -c 'cd /tdc && ./tdc.py -f$files'" \
		>/tmp/tdc.out 2>&1
	grep -E '^(not )?ok [0-9]+ [0-9a-f]{4} - ' /tmp/tdc.out >/tmp/tdc.tap
	for file in $TDC_FILES; do
		want=$(grep -c '"id": "' "$TDC/tc-tests/qdiscs/$file") n=0
		[ "$want" -gt 0 ] || check_err 1 "no case in $file"
		while read -r line; do
			name=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ //')
			# The file that holds this case's id.
			grep -q "\"id\": \"${name%% *}\"" "$TDC/tc-tests/qdiscs/$file" || continue
			n=$((n + 1))
			case $line in
			"not ok"*) check_err 1 "tdc: $name" ;;
			*"# skipped"*) check_err 1 "tdc skipped: $name" ;;
			esac
			log_test "tdc $file $name"
		done </tmp/tdc.tap
		if [ "$n" -ne "$want" ]; then
			check_err 1 "tdc ran $n of $want cases of $file"
			sed 's/^/# tdc: /' /tmp/tdc.out | tail -n 30
			log_test "tdc $file: all $want cases ran"
		fi
	done
	grep -q O /sys/module/sch_codel/taint
	check_err $? "sch_codel was not ours at the end of tdc"
	grep -q O /sys/module/sch_fq_codel_ext/taint
	check_err $? "sch_fq_codel_ext was not ours at the end of tdc"
	log_test "tdc: ran against the out-of-tree modules"
}
