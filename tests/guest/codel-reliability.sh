# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Reliability: the netlink fuzzer (tests/fuzz/codel-fuzz.c, copied into the
# guest by make check as /usr/local/bin/codel-fuzz) on dummies and on eth0
# while traffic flows, and the module lifecycle.  Sourced by all.sh.
# Tunables (all.sh VAR=VALUE): FUZZ_OPS (100000), FUZZ_SEED (1),
# USERNS_OPS (20000), PARENT_OPS (600 per parent), LIFECYCLE_CYCLES (150 per
# window, two windows); for fq_codel_ext, FQ_FUZZ_OPS (20000) and
# FQ_PARENT_OPS (300 per parent), FQ_USERNS_OPS (5000).

ALL_TESTS="$ALL_TESTS
	fuzz_netlink
	fuzz_under_parents
	fuzz_unprivileged_userns
	fq_fuzz_netlink
	fq_fuzz_unprivileged_userns
	fq_fuzz_under_parents
	lifecycle_load_use_unload
	fq_lifecycle_load_use_unload
"


fuzz_netlink() {
	fuzz_netlink_run codel "${FUZZ_OPS:-100000}"
}

# The same for fq_codel_ext, against its own model of the options.
fq_fuzz_netlink() {
	fuzz_netlink_run fq_codel_ext "${FQ_FUZZ_OPS:-20000}"
}

# fuzz_both_sides OPS OUT: proof from the fuzzer's summary in OUT that both
# sides of the model were exercised, a twentieth of OPS each.
fuzz_both_sides() {
	local a r
	read -r a r <<-EOF
	$(sed -n 's/.*: [0-9]* operations, \([0-9]*\) accepted, \([0-9]*\) rejected .*/\1 \2/p' "$2")
	EOF
	check_cmp "${a:-0}" -ge $(($1 / 20)) "operations accepted"
	check_cmp "${r:-0}" -ge $(($1 / 20)) "operations rejected by the model"
}

# fuzz_netlink_run KIND OPS
fuzz_netlink_run() {
	local kind=$1 ops=$2 name rc start what=
	[ "$kind" = codel ] || what="$kind: "
	name="fuzz: $what$ops netlink operations, seed ${FUZZ_SEED:-1}"
	if [ ! -x "$FUZZ" ]; then
		log_skip "$name" "codel-fuzz not in the guest (make guest-tools)"
		return
	fi
	require_cmd iperf3 "$name" || return
	for d in d1 d2; do
		ip link add "$d" type dummy
		echo 1 >"/proc/sys/net/ipv6/conf/$d/disable_ipv6"
		ip link set "$d" up
	done
	topo_router_up
	iperf_server_up
	# Traffic through eth0 for as long as the fuzzer runs.
	ip netns exec near iperf3 -c "$FAR" -u -b 20M -l 1200 -t 3600 >/dev/null 2>&1 &
	start=$(date +%s)
	"$FUZZ" --kind "$kind" --seed "${FUZZ_SEED:-1}" --ops "$ops" d1 d2 eth0 >/tmp/fuzz.out 2>&1
	rc=$?
	killall -9 iperf3 2>/dev/null
	sed 's/^# //; s/^/# /' /tmp/fuzz.out | tail -n 25
	diag "fuzzer ran $(( $(date +%s) - start ))s"
	check_eq "$rc" 0 "fuzzer exit status"
	grep -q "operations, .* 0 failures" /tmp/fuzz.out
	check_err $? "fuzzer summary"
	fuzz_both_sides "$ops" /tmp/fuzz.out
	ip link del d1
	ip link del d2
	log_test "$name"
}

# The fuzzer on a codel that is the child of each classful parent at
# 1 Mbit/s (the non-shaping ones under a TBF; build_parent() in the
# fuzzer) with a standing, partly ECN-capable backlog, device events
# (down/up, MTU, delete and re-create, a loaded namespace dying) and a
# second thread dumping every qdisc and class: each change, graft, replace
# and delete meets a real queue, and the tree must drain to zero at every
# level every 64 operations.  mqprio and taprio are left out: they must be
# the root, and a root that does not shape leaves no queue on a dummy.
FUZZ_PARENTS="htb hfsc tbf cbs qfq drr prio ets multiq"
# PARENT_KINDS=a,b,...: only those (the sanitizer stage's budget).
fuzz_under_parents() {
	fuzz_parents_run codel "$(echo "${PARENT_KINDS:-$FUZZ_PARENTS}" | tr , ' ')" "${PARENT_OPS:-600}"
}

# fq_codel_ext under the parents whose dequeue, peek and class handling
# differ most (a shaper, a peeking shaper, a scheduler under a TBF).
fq_fuzz_under_parents() {
	fuzz_parents_run fq_codel_ext "htb tbf qfq" "${FQ_PARENT_OPS:-300}"
}

# fuzz_parents_run KIND PARENTS OPS
fuzz_parents_run() {
	local qkind=$1 parents=$2 ops=$3 name seed T rc t0 kind txqs drops empty marks ev mod what=
	# A queue of 5 small frames is 12 ms at 1 Mbit/s, past CoDel's
	# target (its drops, marks and episodes are checked below): 6-9 on
	# the debug kernel and 8 on a slow host, whose fuzzers send frames
	# more slowly, 10 to 30 elsewhere.
	local deep=5
	[ "$qkind" = codel ] || what="$qkind: "
	name="fuzz: $what$ops operations each under $parents, with a backlog, device events and a concurrent dump thread"
	if [ ! -x "$FUZZ" ]; then
		log_skip "$name" "codel-fuzz not in the guest (make guest-tools)"
		return
	fi
	seed=${FUZZ_SEED:-1}
	T=/sys/kernel/tracing
	# The module's own events: codel_*, or fq_codel_ext_*.
	ev=codel mod=sch_codel
	[ "$qkind" = codel ] || ev=fq_codel_ext mod=$FQ_MODULE
	lsmod | grep -q "^$mod " || modprobe "$mod"
	# Enabled once for all the parents: each enable and disable patches
	# kernel text, which TCG makes a (rare) hazard.
	for e in dequeue_drops ecn_mark ce_mark; do
		echo 1 >"$T/events/$ev/${ev}_$e/enable"
	done
	# Whatever an earlier test left (tracing_on is not part of the
	# isolation state), these events are read below.
	echo 1 >$T/tracing_on
	for kind in $parents; do
		txqs=1
		[ "$kind" = multiq ] && txqs=4	# multiq wants a multiqueue device
		ip -batch - <<-EOF
		link add p1 numtxqueues $txqs type dummy
		link add p2 numtxqueues $txqs type dummy
		link set p1 up
		link set p2 up
		EOF
		echo >$T/trace
		t0=$(uptime_ds)
		"$FUZZ" --kind "$qkind" --seed "$seed" --ops "$ops" --parent $kind --events p1 p2 >/tmp/pfuzz.out 2>&1
		rc=$?
		t0=$(($(uptime_ds) - t0))
		# CoDel's drops and marks, seen by the module's own events: the
		# counters of a short-lived instance may not show them at a
		# drain check.  Among the drops, the CVE-2025-37798 condition: a
		# dequeue or peek that dropped and left codel empty.
		drops=$(grep -c " ${ev}_dequeue_drops: " $T/trace)
		empty=$(grep -c " ${ev}_dequeue_drops: .* qlen=0 " $T/trace)
		marks=$(grep -c " ${ev}_ecn_mark: \| ${ev}_ce_mark: " $T/trace)
		echo >$T/trace
		sed 's/^# //; s/^/# /' /tmp/pfuzz.out | tail -n 8
		check_eq "$rc" 0 "$kind: fuzzer exit status"
		# Proof that the run did what it claims: frames, events, dumps.
		set -- $(sed -n 's/.* \([0-9]*\) frames, \([0-9]*\) device events, \([0-9]*\) dumps by .*, 0 failures$/\1 \2 \3/p' /tmp/pfuzz.out)
		check_cmp "${1:-0}" -ge "$ops" "$kind: frames sent"
		# (a device event every ~50 operations: 12 at 600 on average)
		check_cmp "${2:-0}" -ge $((ops / 100)) "$kind: device events"
		check_cmp "${3:-0}" -ge 10 "$kind: dumps by the second thread"
		set -- $(sed -n 's/.*deepest root queue \([0-9]*\) packets; codel had dropped at \([0-9]*\) and marked at \([0-9]*\) .*/\1 \2 \3/p' /tmp/pfuzz.out)
		check_cmp "${1:-0}" -ge $deep "$kind: a backlog stood (deepest root queue)"
		check_cmp "$drops" -ge 1 "$kind: codel dropped under the parent (events)"
		check_cmp "$marks" -ge 1 "$kind: codel marked ECN-capable frames (events)"
		diag "$kind: $drops dequeues or peeks dropped, $empty of them left codel empty; $marks marks; $((t0 / 10)).$((t0 % 10)) s"
		check_cmp "$empty" -ge 1 "$kind: a drop-to-empty episode reached its condition"
		ip -force -batch - >/dev/null 2>&1 <<-EOF
		link del p1
		link del p2
		EOF
		seed=$((seed + 1))
	done
	for e in dequeue_drops ecn_mark ce_mark; do
		echo 0 >"$T/events/$ev/${ev}_$e/enable"
	done
	log_test "$name"
}

# Everything an unprivileged user must not be able to change from its own
# namespaces: every qdisc (with counters) and link of the root and "far"
# namespaces, and the namespaces themselves.
outside_state() {
	tc -s qdisc show
	ip -o link show | sed 's/^[0-9]*: //'
	ip netns exec far tc -s qdisc show
	ip netns list
}

fuzz_unprivileged_userns() {
	fuzz_userns_run codel sch_codel "${USERNS_OPS:-20000}"
}

# The same for fq_codel_ext, autoloaded from the namespace.
fq_fuzz_unprivileged_userns() {
	fuzz_userns_run fq_codel_ext sch_fq_codel_ext "${FQ_USERNS_OPS:-5000}"
}

# fuzz_userns_run KIND MODULE OPS
fuzz_userns_run() {
	local kind=$1 mod=$2 ops=$3 name rc
	name="fuzz: $ops operations as an unprivileged user in its own user+net namespace, $kind autoloaded there"
	if [ ! -x "$FUZZ" ]; then
		log_skip "$name" "codel-fuzz not in the guest (make guest-tools)"
		return
	fi
	if [ "$(cat /proc/sys/kernel/unprivileged_userns_clone 2>/dev/null || echo 1)" != 1 ]; then
		log_skip "$name" "unprivileged user namespaces are off on this kernel"
		return
	fi
	rmmod "$mod" 2>/dev/null
	[ ! -e "/sys/module/$mod" ]
	check_err $? "precondition: $mod not loaded before the run"
	# The dummy driver's module load adds dummy0 to the initial namespace
	# (numdummies=1): load it first, so the namespace's autoload of it
	# changes nothing outside.  No background traffic on eth0 (quiet_path).
	modprobe dummy numdummies=0
	quiet_path
	outside_state >/tmp/outside.before
	# 65534 is nobody: no capability in the initial namespaces.
	"$FUZZ" --kind "$kind" --userns 65534 --seed "${FUZZ_SEED:-1}" --ops "$ops" u0 u1 \
		>/tmp/ufuzz.out 2>&1
	rc=$?
	sed 's/^# //; s/^/# /' /tmp/ufuzz.out | tail -n 5
	check_eq "$rc" 0 "fuzzer exit status"
	grep -q "seed [0-9]*: $ops operations, .* 0 failures" /tmp/ufuzz.out
	check_err $? "fuzzer summary"
	# The namespace's root could change the qdisc at all.
	fuzz_both_sides "$ops" /tmp/ufuzz.out
	module_is_ours "$mod"
	check_err $? "the namespace's autoload did not load our $mod"
	# The namespace dies with the fuzzer (cleanup_net runs later).
	busywait 5000 module_unused "$mod"
	check_eq "$(cat "/sys/module/$mod/refcnt" 2>/dev/null)" 0 "module references left after the namespace went"
	outside_state >/tmp/outside.after
	cmp -s /tmp/outside.before /tmp/outside.after
	check_err $? "state outside the namespace changed: $(diff /tmp/outside.before /tmp/outside.after | grep '^[-+][^-+]' | head -n 4 | tr '\n' ' ')"
	# And a qdisc of the initial namespace, made after the module came:
	# the fuzzer again (a tenth of the operations, at least 200) must
	# leave its counters alone.
	dummy_up
	tc qdisc add dev d0 root handle 1: "$kind"
	check_err $? "tc qdisc add dev d0 root $kind"
	tc -s qdisc show dev d0 >/tmp/d0.before
	grep -q "qdisc $kind 1: root" /tmp/d0.before
	check_err $? "precondition: $kind on d0: $(head -n 1 /tmp/d0.before)"
	"$FUZZ" --kind "$kind" --userns 65534 --seed "$(( ${FUZZ_SEED:-1} + 1 ))" \
		--ops "$(( ops / 10 > 200 ? ops / 10 : 200 ))" u0 >/tmp/ufuzz2.out 2>&1
	check_err $? "second fuzzer run: $(tail -n 1 /tmp/ufuzz2.out)"
	tc -s qdisc show dev d0 >/tmp/d0.after
	cmp -s /tmp/d0.before /tmp/d0.after
	check_err $? "the initial namespace's $kind changed: $(tr -s ' \n' ' ' </tmp/d0.after)"
	log_test "$name"
}

# slab_objects: "CACHE ACTIVE_OBJECTS" for every slab cache.
slab_objects() {
	awk 'NR > 2 { print $1, $2 }' /proc/slabinfo
}

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# Let RCU and the slab caches settle before their objects are counted.
# Shrinking every cache frees its empty slabs and per-CPU partial slabs and,
# on a KASAN kernel, empties the quarantine of freed objects, which still
# count as slab there (the debug kernel's reading otherwise swung by
# -236 kB and +192 kB over the same 1000 cycles).  kfree_rcu() batches
# for up to 5 s (6.1), longer than any pause here: what is pending at one
# reading is of the same kind at the next, not a growth that repeats.
settle_slabs() {
	sleep 0.5
	echo 3 >/proc/sys/vm/drop_caches
	sleep 0.5
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 >"$f"
	done 2>/dev/null
}

# lifecycle_window N FILE: N lifecycle cycles, then a ping through eth0 and
# the settled per-cache object counts into FILE.  Returns the fuzzer's
# status; its last lines are in /tmp/life.out.
lifecycle_window() {
	"$LIFECYCLE" "$1" "$LC_PATH" eth0 d1 d2 >/tmp/life.out 2>&1
	rc=$?
	sed 's/^# //; s/^/# /' /tmp/life.out | tail -n 5
	# still usable the ordinary way afterwards
	ping -c 1 -W 2 "$FAR" >/dev/null
	check_err $? "ping after the lifecycle"
	settle_slabs
	slab_objects >"$2"
	return $rc
}

# grown_both A B C D: the slab cache whose object count grew most in both
# windows A->B and B->C (the smaller of its two growths), less what it
# grew in D, an idle window as long as B->C after it, as "CACHE N".
grown_both() {
	awk 'FILENAME == ARGV[1] { a[$1] = $2; next }
		FILENAME == ARGV[2] { b[$1] = $2; next }
		FILENAME == ARGV[3] { c[$1] = $2; next }
		{ g = c[$1] - b[$1]; if (b[$1] - a[$1] < g) g = b[$1] - a[$1]
		  i = $2 - c[$1]; if (i > 0) g -= i
		  if (g > max) { max = g; k = $1 } }
		END { print (k == "" ? "none" : k), max + 0 }' "$@"
}

# The module lifecycle_run loads: sch_codel, or sch_fq_codel_ext.
LC_PATH=$MODULE_PATH

lifecycle_load_use_unload() {
	LC_PATH=$MODULE_PATH
	lifecycle_run "${LIFECYCLE_CYCLES:-150}"
}

# The same for fq_codel_ext.  As many cycles: with 60, noise alone once
# grew filp by 50 in both windows on 6.1 (over 3/4 of 60) and 150 cycles
# then grew no cache at all.
fq_lifecycle_load_use_unload() {
	LC_PATH=$FQ_MODULE_PATH
	lifecycle_run "${FQ_LIFECYCLE_CYCLES:-150}"
	LC_PATH=$MODULE_PATH
}

# lifecycle_run CYCLES: two windows of CYCLES lifecycle cycles of the
# module at LC_PATH; no slab cache may grow in both by 3/4 of CYCLES.
lifecycle_run() {
	local mod
	cycles=$1
	mod=$(basename "$LC_PATH" .ko)
	name="lifecycle: 2 x $cycles x init_module of $mod, add on 3 devices, traffic, delete, delete_module"
	if [ ! -x "$LIFECYCLE" ]; then
		log_skip "$name" "codel-lifecycle not in the guest (make guest-tools)"
		return
	fi
	for d in d1 d2; do
		ip link add "$d" type dummy
		echo 1 >"/proc/sys/net/ipv6/conf/$d/disable_ipv6"
		ip link set "$d" up
	done
	rmmod "$mod" 2>/dev/null
	# Warm-up: the first module loads grow kernel caches (the in-tree
	# module does the same: +228 kB over its first 300 cycles, +8 kB
	# over the next 300), which is not a leak of ours.
	"$LIFECYCLE" "${LIFECYCLE_WARMUP:-50}" "$LC_PATH" eth0 d1 d2 >/dev/null 2>&1
	settle_slabs
	slab_objects >/tmp/slab0
	# LIFECYCLE_KMEMLEAK=0: kmemleak_clean, last in the boot, judges the
	# leaks (on the debug kernel this test took 127 s at 10 cycles, 145
	# at 30: its four scans, not the cycles).
	[ "${LIFECYCLE_KMEMLEAK:-1}" = 0 ] || kmemleak_suspects >/tmp/leak0
	# Two windows of $cycles cycles, counted per cache: 3 qdiscs and one
	# module load a cycle, so a leak of even one object a cycle grows
	# its cache by $cycles in each window.  Noise does not repeat: a
	# cache moved by up to 170 objects in one window with no cycle run
	# at all (files, slabs of the settling itself), and vmap_area, which
	# the module loader's lazily freed areas inflate, by up to 136 over
	# 150 cycles before a purge dropped it again.  A cache must grow by
	# 3/4 of $cycles in both windows, more than it grew in an idle
	# window as long as the second, to fail.
	for w in 1 2; do
		t0=$(uptime_ms)
		lifecycle_window "$cycles" /tmp/slab$w
		check_err $? "lifecycle window $w: $(tail -n 5 /tmp/life.out)"
		i=$(sed -n 's/.*lifecycle: \([0-9]*\) cycles.*/\1/p' /tmp/life.out)
		check_eq "${i:-0}" "$cycles" "window $w: cycles completed"
	done
	t0=$(( $(uptime_ms) - t0 ))
	lsmod | grep -q "^$mod " && check_err 1 "module still loaded"
	if [ -e /sys/kernel/debug/kmemleak ] && [ "${LIFECYCLE_KMEMLEAK:-1}" = 0 ]; then
		diag "leaks: left to kmemleak_clean (LIFECYCLE_KMEMLEAK=0)"
	elif [ -e /sys/kernel/debug/kmemleak ]; then
		# The debug kernel (KASAN, kmemleak) has a leak detector, and
		# its slab counts are not one: after the fuzzers, kmalloc-8
		# grew by 34 to 52 objects a window whatever ran (136 in an
		# idle 29 s), while the same fuzzers and windows under
		# slub_debug=U,kmalloc-8 left it exactly unchanged, so what
		# moved was SLUB's per-CPU slabs, not objects in use.
		kmemleak_suspects >/tmp/leak1
		# (a line no address matches: an empty pattern file is no filter)
		echo none >>/tmp/leak0
		grep -vxF -f /tmp/leak0 /tmp/leak1 >/tmp/leaknew
		new=$(wc -l </tmp/leaknew)
		diag "kmemleak: $(($(wc -l </tmp/leak0) - 1)) suspects before the windows, $new new after them"
		[ "$new" -eq 0 ] || grep -A 20 -F -f /tmp/leaknew /sys/kernel/debug/kmemleak | head -n 40 | sed 's/^/# /'
		check_eq "$new" 0 "objects kmemleak finds unreferenced after $((2 * cycles)) cycles"
	else
		sleep "$((t0 / 1000)).$(printf '%03d' $((t0 % 1000)))"
		settle_slabs
		slab_objects >/tmp/slab3
		diag "idle window of $((t0 / 1000)) s, the cache that grew most: $(awk '
			FILENAME == ARGV[1] { a[$1] = $2; next }
			{ g = $2 - a[$1]; if (g > m) { m = g; k = $1 } }
			END { print (k == "" ? "none" : k), m + 0 }' /tmp/slab2 /tmp/slab3)"
		grown=$(grown_both /tmp/slab0 /tmp/slab1 /tmp/slab2 /tmp/slab3)
		diag "largest growth of one slab cache in both windows, less the idle window's: ${grown}; SUnreclaim $(meminfo SUnreclaim) kB"
		check_cmp "${grown##* }" -lt $((cycles * 3 / 4)) "slab cache ${grown% *} grew by ${grown##* }+ objects in each of two windows of $cycles cycles"
	fi
	ip link del d1
	ip link del d2
	log_test "$name"
}

# kmemleak_suspects: after two scans (objects freed by RCU or still on a
# stack need the second), the address of every object kmemleak reports
# unreferenced, one a line; nothing on a kernel without kmemleak.
kmemleak_suspects() {
	[ -e /sys/kernel/debug/kmemleak ] || return 0
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	sed -n 's/^unreferenced object \(0x[0-9a-f]*\) .*/\1/p' /sys/kernel/debug/kmemleak
}

# Run first by all.sh: forget what kmemleak suspects from boot (firmware,
# init code of other subsystems), so that kmemleak_clean sees only objects
# leaked while the suite ran.
kmemleak_baseline() {
	[ -e /sys/kernel/debug/kmemleak ] || return 0
	echo scan >/sys/kernel/debug/kmemleak
	echo clear >/sys/kernel/debug/kmemleak
}

# Run last by all.sh: a kmemleak scan after the whole suite must report
# nothing.  Only kernels built with CONFIG_DEBUG_KMEMLEAK (make check-debug).
kmemleak_clean() {
	name="kmemleak: no leak reported after the whole suite"
	if [ ! -e /sys/kernel/debug/kmemleak ]; then
		log_skip "$name" "kernel without CONFIG_DEBUG_KMEMLEAK (make check-debug runs it)"
		return
	fi
	leaks=$(kmemleak_suspects | wc -l)
	if [ "$leaks" -ne 0 ]; then
		head -n 40 /sys/kernel/debug/kmemleak | sed 's/^/# /'
	fi
	check_eq "$leaks" 0 "kmemleak unreferenced objects"
	log_test "$name"
}
