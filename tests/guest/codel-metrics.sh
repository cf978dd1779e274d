# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The tc-codel package's Prometheus exporter (exporter/codel-exporter) on a
# real run: codel and fq_codel_ext leaves under load, their counters read
# by stock tc with the plugins, the file checked by promtool and served by
# node_exporter's textfile collector.  promtool and node_exporter come from
# Debian's packages (make guest-tools), python3 from the host's /usr.
# Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	metrics_exporter_textfile_served
"

# prom_value FILE SERIES: the value of SERIES (name{labels}, labels as the
# exporter orders them, which node_exporter keeps) in the Prometheus text
# FILE, as a number; fails if the series is not there.
prom_value() {
	awk -v k="$2" 'index($0, k " ") == 1 { printf "%.17g\n", $2; f = 1; exit }
		END { exit !f }' "$1"
}

# metrics_match HANDLE KIND PARENT: the series of qdisc HANDLE in
# /tmp/prom/codel.prom against its counters in tc's JSON (/tmp/m.json).
metrics_match() {
	local q l sent drops hist sum_ns b run v n le
	q=$("$TCJ" obj "$1" </tmp/m.json)
	l="{device=\"eth0\",handle=\"$1\",kind=\"$2\",parent=\"$3\""
	set -- $(echo "$q" | "$TCJ" get packets drops sojourn_hist sojourn_sum_ns)
	sent=$1 drops=$2 hist=$3 sum_ns=$4
	diag "$l}: Sent $sent, drops $drops, histogram $hist, sojourn_sum_ns $sum_ns"
	check_cmp "$drops" -gt 0 "precondition: CoDel dropped in $l}"
	check_eq "$(prom_value /tmp/prom/codel.prom "codel_sent_packets_total$l}")" "$sent" "$l} sent packets"
	check_eq "$(prom_value /tmp/prom/codel.prom "codel_dropped_packets_total$l}")" "$drops" "$l} drops"
	check_eq "$(prom_value /tmp/prom/codel.prom "codel_sojourn_seconds_count$l}")" "$sent" "$l} histogram count = Sent"
	v=$(prom_value /tmp/prom/codel.prom "codel_sojourn_seconds_sum$l}")
	check_eq "$(awk -v v="$v" 'BEGIN { printf "%.0f\n", v * 1e9 }')" "$sum_ns" "$l} _sum, in ns"
	# Cumulative buckets: bucket b's le is its upper edge, 2^(b+18) ns.
	b=0 run=0
	for n in $(echo "$hist" | tr ',' ' '); do
		run=$((run + n))
		if [ $b = 13 ]; then
			le=+Inf
		else
			le=$(awk -v ns=$((1 << (b + 18))) 'BEGIN { printf "%.9f\n", ns / 1e9 }' | sed 's/0*$//')
		fi
		check_eq "$(prom_value /tmp/prom/codel.prom "codel_sojourn_seconds_bucket$l,le=\"$le\"}")" "$run" "$l} bucket le=$le"
		b=$((b + 1))
	done
}

# scrape: node_exporter's /metrics on loopback, into /tmp/scrape.prom.
scrape() {
	chroot /hostroot python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:9100/metrics", timeout=5).read().decode())' \
		>/tmp/scrape.prom 2>/dev/null
}

metrics_exporter_textfile_served() {
	local name="metrics: codel-exporter's file passes promtool; node_exporter serves it, values as tc's" out line rate n
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	prometheus_up || { log_skip "$name" "promtool and node_exporter not shared (make guest-tools)"; return; }
	rate=$(bottleneck 10mbit)
	topo_router_up
	# codel and fq_codel_ext side by side, each fed by its own iperf3
	# port, so that the two series differ; the rest to a pfifo.
	tc_plugin -batch - <<-EOF
	qdisc add dev eth0 root handle 1: htb default 30
	class add dev eth0 parent 1: classid 1:10 htb rate $rate ceil $rate quantum 1514
	class add dev eth0 parent 1: classid 1:20 htb rate $rate ceil $rate quantum 1514
	class add dev eth0 parent 1: classid 1:30 htb rate 100mbit quantum 1514
	qdisc add dev eth0 parent 1:10 handle 10: codel
	qdisc add dev eth0 parent 1:20 handle 20: fq_codel_ext
	qdisc add dev eth0 parent 1:30 handle 30: pfifo
	filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dport 5201 0xffff flowid 1:10
	filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dport 5202 0xffff flowid 1:20
	EOF
	check_err $? "the HTB tree with codel and fq_codel_ext leaves"
	iperf_server_up
	iperf_server_up far 5202
	check_err $? "iperf3 listening on 5202"
	ip netns exec near iperf3 -c "$FAR" -p 5201 -t 3 >/dev/null 2>&1 &
	ip netns exec near iperf3 -c "$FAR" -p 5202 -t 3 -P 2 >/dev/null 2>&1
	wait
	wait_settled
	# All devices, as the exporter runs tc (with "dev", tc leaves it out).
	tc_plugin -s -j qdisc show >/tmp/m.json
	check_err $? "tc -s -j with the plugins"
	cp /payload/codel-exporter /tmp/codel-exporter
	rm -rf /tmp/prom && mkdir /tmp/prom
	out=$(chroot /hostroot python3 /tmp/codel-exporter --input /tmp/m.json --textfile-dir /tmp/prom 2>&1)
	check_err $? "codel-exporter: $out"
	check_eq "$out" "" "codel-exporter printed something"
	out=$(chroot /hostroot "$PROM_BIN"/promtool check metrics </tmp/prom/codel.prom 2>&1)
	check_err $? "promtool check metrics: $out"
	check_eq "$out" "" "promtool printed something"
	diag "$(grep '^codel_sojourn_seconds_[sc]' /tmp/prom/codel.prom | head -n 2)"
	metrics_match 10: codel 1:10
	metrics_match 20: fq_codel_ext 1:20
	check_eq "$(grep -c 'handle="30:"' /tmp/prom/codel.prom)" 0 "pfifo not exported"
	# node_exporter's textfile collector serves the same series.
	chroot /hostroot "$PROM_BIN"/prometheus-node-exporter --web.listen-address=127.0.0.1:9100 \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory=/tmp/prom >/tmp/node-exporter.log 2>&1 &
	NODE_EXPORTER=$!
	busywait 10000 scrape
	check_err $? "scraping node_exporter: $(tail -n 3 /tmp/node-exporter.log)"
	check_eq "$(prom_value /tmp/scrape.prom node_textfile_scrape_error)" 0 "node_textfile_scrape_error"
	n=0
	while read -r line; do
		case $line in '#'*) continue ;; esac
		n=$((n + 1))
		check_eq "$(prom_value /tmp/scrape.prom "${line% *}")" \
			"$(awk -v v="${line##* }" 'BEGIN { printf "%.17g\n", v }')" "served: ${line% *}"
	done </tmp/prom/codel.prom
	diag "node_exporter served all $n series of codel.prom"
	check_cmp "$n" -ge 60 "series in codel.prom"
	# Control: a file node_exporter cannot parse is reported, so the
	# check above can fail.
	echo 'codel_broken{' >/tmp/prom/broken.prom
	scrape
	check_eq "$(prom_value /tmp/scrape.prom node_textfile_scrape_error)" 1 "control: a broken file is a scrape error"
	kill "$NODE_EXPORTER"
	wait "$NODE_EXPORTER" 2>/dev/null
	NODE_EXPORTER=
	rm -rf /tmp/prom
	log_test "$name"
}
