# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The kernel's own tc test suite (tdc, from the Debian source of the kernel
# under test, unmodified) against our module: its codel.json (9 cases) and our cases in
# the same format (tests/tdc/codel-sch_codel.json).  tdc runs with the
# host's python3 and tc in /hostroot (lib.sh); make check copies build/tdc
# into the guest.  Each tdc case becomes one TAP line here.  Sourced by
# all.sh.

ALL_TESTS="$ALL_TESTS
	tdc_codel_json
	tdc_sch_codel_json
"

TDC=/payload/tdc

# tdc_once FILE: one tdc run into /tmp/tdc.out.
tdc_once() {
	unshare -m sh -c "mount -t tmpfs tdc-netns /hostroot/run/netns &&
		exec chroot /hostroot sh -c 'cd /tdc && ./tdc.py -f tc-tests/qdiscs/$1'" \
		>/tmp/tdc.out 2>&1
}

# run_tdc FILE EXPECTED_CASES
run_tdc() {
	file=$1 want=$2
	if [ ! -e "$TDC/tdc.py" ]; then
		log_skip "tdc $file" "tdc not in the guest (make check, or qemu/run --add build/tdc=/payload/tdc)"
		return
	fi
	rmmod sch_codel 2>/dev/null
	modprobe sch_codel
	if ! grep -q O /sys/module/sch_codel/taint; then
		log_skip "tdc $file" "could not load our sch_codel"
		return
	fi
	diag "tdc $file against $(modinfo -F filename sch_codel) (taint $(cat /sys/module/sch_codel/taint))"
	hostroot_up || { log_skip "tdc $file" "host /usr not reachable over 9p"; return; }
	mkdir -p /hostroot/tdc
	grep -q " /hostroot/tdc " /proc/mounts || mount --bind "$TDC" /hostroot/tdc
	# In a mount namespace of its own, with an empty /run/netns: tdc from
	# 6.12 on ends with "ip -a netns del", which would also take the
	# guest's "far" namespace (and its eth1) with it.
	mkdir -p /hostroot/run/netns
	tdc_once "$file"
	# 6.12's tdc drives every namespace change through one "ip -b -" that
	# dies on its first error, after which every later case fails in
	# nsPlugin's pre_case (seen once under TCG, not reproduced in the next
	# boot).  A harness exception, never a failed case, gets one rerun.
	if grep -q 'in call to pre_case' /tmp/tdc.out &&
		! grep -qE '^not ok [0-9]+ [0-9a-f]{4} - ' /tmp/tdc.out; then
		diag "tdc $file: harness exception, rerunning once: $(grep -m1 'exception' /tmp/tdc.out)"
		tdc_once "$file"
	fi
	grep -E '^(not )?ok [0-9]+ [0-9a-f]{4} - ' /tmp/tdc.out >/tmp/tdc.tap
	n=0
	while read -r line; do
		n=$((n + 1))
		name=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ //')
		case $line in
		"not ok"*) check_err 1 "tdc: $name" ;;
		*"# skipped"*) check_err 1 "tdc skipped: $name" ;;
		esac
		log_test "tdc $file $name"
	done </tmp/tdc.tap
	if [ "$n" -ne "$want" ]; then
		check_err 1 "tdc ran $n of $want cases"
		sed 's/^/# tdc: /' /tmp/tdc.out | tail -n 30
		log_test "tdc $file: all $want cases ran"
	fi
	grep -q O /sys/module/sch_codel/taint
	check_err $? "sch_codel was not ours at the end of tdc $file"
	log_test "tdc $file: ran against the out-of-tree module"
}

tdc_codel_json() { run_tdc codel.json 9; }
tdc_sch_codel_json() { run_tdc codel-sch_codel.json 22; }
