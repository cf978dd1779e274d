# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The kernel's own tc test suite (tdc, from Debian's linux-source-6.1,
# unmodified) against our module: its codel.json (9 cases) and our cases in
# the same format (tests/tdc/codel-sch_codel.json).  tdc runs with the
# host's python3 and tc in /hostroot (lib.sh); make check copies build/tdc
# into the guest.  Each tdc case becomes one TAP line here.  Sourced by
# all.sh.

ALL_TESTS="$ALL_TESTS
	tdc_codel_json
	tdc_sch_codel_json
"

TDC=/payload/tdc

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
	chroot /hostroot sh -c "cd /tdc && ./tdc.py -f tc-tests/qdiscs/$file" >/tmp/tdc.out 2>&1
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
