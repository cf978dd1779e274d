# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Reading tc, for lib.sh: counters and settings from tc's JSON (tc -j),
# read with tcj (tests/tools/tcj.c): one exec of a small static reader,
# where python3 costs half a second a start under TCG.

# First line of "tc qdisc show dev DEV", trailing blanks trimmed (the text
# a user reads, for the tests of tc's output).
qdisc_line() {
	tc qdisc show dev "$1" | head -n 1 | sed 's/[[:space:]]*$//'
}

# dump DEV [TC]: "tc -s -j qdisc show dev DEV" (TC: the tc to run), saved
# by tests that read several qdiscs from one dump: qdiscs read from one
# dump are microseconds apart, not a tc spawn apart (6.1 still reads each
# qdisc's counters without its lock, so a dump is not atomic).  Debian
# 12's tc prints some qdiscs' options as text inside the JSON (HFSC's
# "options":{default 10 }, multiq's bands): such text goes.
dump() {
	${2:-tc} -s -j qdisc show dev "$1" | sed 's/"options":{[^"}][^}]*}/"options":{}/g'
}

# block_of qdisc HANDLE [FILE]: one qdisc (HANDLE like 1:), as one line of
# JSON, from a dump in FILE or on stdin; empty if there is none.
block_of() {
	if [ -n "${3:-}" ]; then
		"$TCJ" obj "$2" <"$3"
	else
		"$TCJ" obj "$2"
	fi || true
}

# root_stats DEV: the block of DEV's root qdisc, live.
root_stats() {
	dump "$1" | "$TCJ" first
}

# stats_of qdisc DEV HANDLE: block_of, live.
stats_of() {
	dump "$2" | block_of "$1" "$3"
}

# class_backlog DEV CLASSID: "PACKETS BYTES" the class holds.  Debian 12's
# tc prints classes as text even with -j: this one reader parses text.
class_backlog() {
	tc -s class show dev "$1" | awk -v c="$2" '
		$1 == "class" { on = ($3 == c) }
		on && $1 == "backlog" { b = $2; p = $3; sub(/b$/, "", b); sub(/p$/, "", p)
			print p, b; exit }'
}

# field BLOCK KEY: KEY's value in BLOCK (at the top, else in its options);
# empty when BLOCK has no KEY.  Times are in microseconds, sizes in bytes,
# as tc -j prints them.
field() {
	local v
	v=$(echo "$1" | "$TCJ" get "$2")
	[ "$v" = None ] || echo "$v"
}

sent_bytes() { field "$1" bytes; }
sent_pkts() { field "$1" packets; }
dropped() { field "$1" drops; }
backlog_bytes() { field "$1" backlog; }
backlog_pkts() { field "$1" qlen; }

# xjson DEV HANDLE KEY...: values of KEYs of qdisc HANDLE on DEV, as the
# patched tc prints them (our extensions too), on one line ("None" for a
# missing key; lists joined with commas).
xjson() {
	local dev=$1 handle=$2
	shift 2
	dump "$dev" "$TC_PATCHED" | "$TCJ" obj "$handle" | "$TCJ" get "$@"
}

# hist_p50 DEV HANDLE: the histogram bucket holding the median sojourn
# (buckets as pkt_sched_codel.h defines them): the proof that a queue
# really stood.
hist_p50() { xjson "$1" "$2" sojourn_p50_bucket; }

# hist_total BLOCK: the packets in a qdisc block's sojourn histogram.
hist_total() { echo $(( $(field "$1" sojourn_hist | tr ',' '+') )); }

# check_hist_sum HIST SUM WHAT: SUM (sojourn_sum_ns) within the bounds the
# histogram HIST (its 14 buckets, comma-separated) sets: each packet at
# or above its bucket's lower edge and below its upper one (the last
# bucket has none), in whole 1024 ns steps.  A sum left unkept, or kept
# in the wrong unit, falls outside once the queue stood.
check_hist_sum() {
	local lo hi
	set -- "$1" "$2" "$3" $(echo "$1" | tr ',' '\n' | awk '
		{ u = NR == 1 ? 262144 : 2 * u; l = NR == 1 ? 0 : u / 2
		  lo += $1 * l
		  if (NR < 14) hi += $1 * u; else if ($1) inf = 1 }
		END { printf "%.0f %.0f\n", lo, inf ? -1 : hi }')
	lo=$4 hi=$5
	diag "$3: sojourn_sum_ns $2, bounds from the histogram [$lo, $hi)"
	check_cmp "$2" -ge "$lo" "$3: sojourn_sum_ns at or above the buckets' lower edges"
	[ "$hi" = -1 ] || check_cmp "$2" -lt "$hi" "$3: sojourn_sum_ns below the buckets' upper edges"
	check_eq "$(( $2 % 1024 ))" 0 "$3: sojourn_sum_ns in 1024 ns steps"
}

# json_check: read JSON on stdin; fail unless it parses.
json_check() { "$TCJ" check; }

# agreeing_dump DEV HANDLE_A HANDLE_B FN: dumps of DEV, 0.2 s apart, for
# up to a second (ten on the debug kernel, where one dump can take one),
# until shell function FN (given one qdisc's block, prints some of
# its counters) prints the same for both qdiscs in one dump.  A dump is
# not atomic (see dump), so one packet can move between the two readings;
# a real accounting drift makes every dump disagree.  The last dump stays
# in /tmp/agreeing_dump (read it with block_of) and DUMPS holds every pair
# seen, for a diagnostic.  Returns 1 if no dump agreed or a qdisc is
# missing.  Five tries at least, however long each dump takes: on a slow
# host one dump once took the whole second.  With AGREE_WHILE set to a
# process's PID, tries go on while that process (the load) lives: a
# sender that shares its core pauses, and the queue with it.
agreeing_dump() {
	local ms=1000 n=0 start
	debug_kernel && ms=10000
	DUMPS=
	start=$(uptime_ms)
	until dump_agrees "$@"; do
		n=$((n + 1))
		[ $n -lt 5 ] || [ $(($(uptime_ms) - start)) -lt $ms ] ||
			{ [ -n "${AGREE_WHILE:-}" ] && kill -0 "$AGREE_WHILE" 2>/dev/null; } ||
			return 1
		sleep 0.1
	done
}

# One try of agreeing_dump.
dump_agrees() {
	local a b
	dump "$1" >/tmp/agreeing_dump
	a=$(block_of qdisc "$2" /tmp/agreeing_dump)
	b=$(block_of qdisc "$3" /tmp/agreeing_dump)
	# Two missing qdiscs would agree: no such dump counts.
	if [ -z "$a" ] || [ -z "$b" ]; then
		DUMPS="$DUMPS [$2 or $3 missing]"
		return 1
	fi
	a=$("$4" "$a")
	b=$("$4" "$b")
	DUMPS="$DUMPS [$2 $a, $3 $b]"
	[ "$a" = "$b" ]
}

# Counter sets for agreeing_dump, from one block.
backlog_of() { echo "$(backlog_pkts "$1") $(backlog_bytes "$1")"; }
# backlog_of for a queue that must stand: an empty qdisc prints its own
# handle, so two empty qdiscs never agree and the next dump is tried.
standing_backlog_of() {
	if [ "$(backlog_pkts "$1")" -gt 0 ]; then
		backlog_of "$1"
	else
		echo "empty $(field "$1" handle)"
	fi
}
# Sent packets and drops of one qdisc's block.  HTB sends a packet that
# arrives before its default class exists (tc builds a tree one command at
# a time) directly, counted in direct_packets_stat: such a packet never
# reaches the child, so it is taken out of the root's Sent here.
sent_dropped_of() {
	local direct
	direct=$(field "$1" direct_packets_stat)
	echo "$(($(sent_pkts "$1") - ${direct:-0})) $(dropped "$1")"
}

# queue_empty DEV HANDLE: qdisc HANDLE on DEV holds no packet.
queue_empty() { qlen_is "$1" "$2" 0; }

# drops_reach DEV HANDLE N: qdisc HANDLE on DEV has counted N drops or more.
drops_reach() {
	[ "$(dropped "$(stats_of qdisc "$1" "$2")")" -ge "$3" ]
}

# qlen_is DEV HANDLE N: qdisc HANDLE on DEV holds N packets.
qlen_is() {
	[ "$(backlog_pkts "$(stats_of qdisc "$1" "$2")")" = "$3" ]
}

# all_drained qdisc|class [DEV]: every qdisc (or class) on DEV (eth0)
# holds nothing; false if there is none.  Classes from text (see
# class_backlog).
all_drained() {
	local out
	if [ "$1" = class ]; then
		tc -s class show dev "${2:-eth0}" | awk '/backlog / { n++; if (/backlog 0b 0p/) z++ }
			END { exit !(n > 0 && n == z) }'
		return
	fi
	out=$(dump "${2:-eth0}" | tr ',' '\n')
	echo "$out" | grep -q '"qlen":' && ! echo "$out" | grep -q '"qlen":[1-9]' &&
		! echo "$out" | grep -q '"backlog":[1-9]'
}

# wait_drained: wait (up to 20 s) until every qdisc on eth0 is empty.
wait_drained() {
	busywait 20000 all_drained qdisc
}

# wait_settled: wait (up to 9 s) until every qdisc on eth0 is empty and
# neither eth0 nor veth0 (if there) moved a packet for 0.3 s: the end of a
# flow (a TCP close, the last ACKs, a packet between near and the qdisc)
# has then passed, so counters read next are final.
wait_settled() {
	local BUSYWAIT_SLEEP=0.3
	SETTLED_LAST=
	busywait 9000 settled
}

# One look of wait_settled: the device counters as at the last look.
settled() {
	local now
	now="$(dev_stat eth0 tx_packets) $(dev_stat eth0 rx_packets)"
	[ ! -e /sys/class/net/veth0 ] || now="$now $(dev_stat veth0 rx_packets)"
	[ "$now" = "$SETTLED_LAST" ] && all_drained qdisc && return 0
	SETTLED_LAST=$now
	return 1
}

# dev_stat DEV COUNTER: a device counter in the current namespace.
dev_stat() {
	local v
	read -r v <"/sys/class/net/$1/statistics/$2"
	echo "$v"
}

# far_stat COUNTER: a counter of far's eth1 (what the receiver got).
far_stat() { ns_stat far eth1 "$1"; }

# ns_stat NS DEV COUNTER: a counter of DEV in namespace NS.
ns_stat() {
	in_ns "$1" awk -v d="$2" -v c="$3" '
		BEGIN { f["rx_bytes"] = 1; f["rx_packets"] = 2; f["rx_dropped"] = 4
			f["tx_bytes"] = 9; f["tx_packets"] = 10
			if (!(c in f)) { print "ns_stat: no counter " c > "/dev/stderr"; exit 1 } }
		{ sub(/^ */, "") }
		index($0, d ":") == 1 { sub(/^[^:]*: */, ""); split($0, v, " "); print v[f[c]] }' /proc/net/dev
}

# snmp NS KEY: counter KEY, named as nstat names it (IpExtInCEPkts,
# TcpInCsumErrors, ...), from /proc/net/snmp and /proc/net/netstat of
# namespace NS.
snmp() {
	in_ns "$1" cat /proc/net/snmp /proc/net/netstat | awk -v k="$2" '
		# Each group is a header line of names, then one of values.
		{ p = $1; sub(/:$/, "", p) }
		seen[p]++ % 2 == 0 { for (i = 2; i <= NF; i++) name[p, i] = p $i; next }
		{ for (i = 2; i <= NF; i++) if (name[p, i] == k) { print $i; exit } }'
}

# The tc-codel package's plugins (make deb), where qemu/run installs them.
TC_PLUGIN_DIR=/usr/local/lib/tc-codel

# tc_plugin ARGS...: Debian's stock tc with the plugins.
tc_plugin() { TC_LIB_DIR=$TC_PLUGIN_DIR tc "$@"; }
