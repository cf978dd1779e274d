# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# docs/deploy.md's recipes, run verbatim: qemu/run puts the document in the
# payload, and each "<!-- recipe: NAME -->" shell block runs as it is
# written (in a subshell with set -e, tc and ip being the real tools as on
# a Debian host).  Each then has its tree checked and carries traffic that
# its leaf must count.  Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	deploy_router_recipes_run_verbatim
	deploy_host_and_persistence_recipes_run_verbatim
	deploy_rollback_recipes_run_verbatim
	deploy_multiqueue_recipe_runs_verbatim
"

DEPLOY_DOC=/payload/deploy.md
FAR_IP=198.18.0.2
NEAR_IP=198.18.0.1

# doc_block KIND NAME: the fenced block after "<!-- KIND: NAME -->".
doc_block() {
	awk -v mark="<!-- $1: $2 -->" '
		$0 == mark { want = 1; next }
		want && !inside && /^```/ { inside = 1; next }
		inside && /^```$/ { exit }
		inside { print }' "$DEPLOY_DOC"
}

# run_recipe NAME: run recipe NAME; a failing command fails the test, with
# the recipe's output.
run_recipe() {
	local body out
	body=$(doc_block recipe "$1")
	[ -n "$body" ] || { check_err 1 "deploy.md has no recipe $1"; return 1; }
	# tc with the tc-codel package's plugins, as a host that installed
	# it runs them (its tc looks in the directory the package fills).
	out=$( (set -e; export TC_LIB_DIR=$TC_PLUGIN_DIR; eval "$body") 2>&1)
	check_err $? "recipe $1 failed: $out"
}

# leaf_parent DEV KIND HANDLE: the parent of qdisc KIND HANDLE on DEV.
leaf_parent() {
	tc qdisc show dev "$1" | awk -v k="$2" -v h="$3" \
		'$2 == k && $3 == h && $4 == "parent" { print $5 }'
}

# carries DEV HANDLE NS DEST WHAT: 20 pings from namespace NS ("" for the
# root) to DEST all answered, and all counted by qdisc HANDLE on DEV.
carries() {
	local dev=$1 handle=$2 ns=$3 dest=$4 what=$5 before after
	before=$(sent_pkts "$(stats_of qdisc "$dev" "$handle")")
	[ -n "$before" ]
	check_err $? "$what: no qdisc $handle on $dev"
	if [ -n "$ns" ]; then
		ip netns exec "$ns" ping -q -c 20 -i 0.02 -W 2 "$dest" >/dev/null
	else
		ping -q -c 20 -i 0.02 -W 2 "$dest" >/dev/null
	fi
	check_err $? "$what: pings through it"
	after=$(sent_pkts "$(stats_of qdisc "$dev" "$handle")")
	check_cmp "$(( ${after:-0} - ${before:-0} ))" -ge 20 "$what: packets through qdisc $handle on $dev"
}

# no_codel_left DEV: neither codel nor fq_codel_ext on DEV.
no_codel_left() {
	local left
	left=$(tc qdisc show dev "$1" | awk '$2 == "codel" || $2 == "fq_codel_ext"')
	check_eq "$left" "" "the remove recipe left a qdisc on $1"
}

deploy_router_recipes_run_verbatim() {
	local name="deploy.md: HTB, HFSC, TBF and IFB router recipes run verbatim and carry traffic"
	local r parent
	for r in router-htb:1:10 router-hfsc:1:10 router-tbf:1:1; do
		parent=${r#*:}
		r=${r%%:*}
		run_recipe "$r" || continue
		check_eq "$(leaf_parent eth0 codel 10:)" "$parent" "$r: codel 10: under $parent"
		carries eth0 10: "" "$FAR_IP" "$r"
		run_recipe remove
		no_codel_left eth0
	done
	# As on a fresh host: the ifb driver not loaded yet (all.sh loads it
	# with numifbs=0; loaded by "ip link add ... type ifb" it makes ifb0
	# and ifb1 by itself).
	rmmod ifb
	check_err $? "precondition: ifb unloaded"
	if run_recipe router-ingress-ifb; then
		check_eq "$(leaf_parent ifb4eth0 fq_codel_ext 10:)" 1:10 "ifb: fq_codel_ext 10: under 1:10"
		carries ifb4eth0 10: far "$NEAR_IP" "ifb"
		run_recipe remove-ingress
		! ip link show ifb4eth0 >/dev/null 2>&1
		check_err $? "remove-ingress left ifb4eth0"
	fi
	# Nothing the recipe's driver load made may stay (ifb0, ifb1).
	check_eq "$(ls /sys/class/net | grep '^ifb' | tr '\n' ' ')" "" "IFB devices left"
	# The driver as all.sh loads it, whatever the recipe did.
	rmmod ifb 2>/dev/null
	modprobe ifb numifbs=0
	log_test "$name"
}

deploy_host_and_persistence_recipes_run_verbatim() {
	local name="deploy.md: default_qdisc, sysctl.d and ifupdown recipes run verbatim"
	local old cmds line
	old=$(sysctl -n net.core.default_qdisc)
	check_cmp "$old" != fq_codel_ext "precondition: default_qdisc is not ours yet"
	if run_recipe host-single-queue; then
		check_eq "$(sysctl -n net.core.default_qdisc)" fq_codel_ext "default_qdisc"
		check_eq "$(tc qdisc show dev eth0 | awk '$4 == "root" { print $2 }')" fq_codel_ext \
			"eth0's root"
		carries eth0 "$(tc qdisc show dev eth0 | awk '$4 == "root" { print $3 }')" "" \
			"$FAR_IP" "host"
		# A device made now gets the default by itself (an IFB: a dummy
		# has no queue).
		ip link add ifb9 type ifb && ip link set ifb9 up
		check_eq "$(tc qdisc show dev ifb9 | awk '{ print $2 }')" fq_codel_ext "a new device's root"
		ip link del ifb9
	fi
	# The old default first: deleting the root attaches the default.
	sysctl -w net.core.default_qdisc="$old" >/dev/null
	run_recipe remove

	mkdir -p /etc/sysctl.d
	if run_recipe persist-sysctl; then
		check_eq "$(sysctl -n net.core.default_qdisc)" fq_codel_ext "default_qdisc from sysctl.d"
	fi
	rm -f /etc/sysctl.d/90-codel.conf
	sysctl -w net.core.default_qdisc="$old" >/dev/null

	# ifupdown runs each post-up command with IFACE set.
	cmds=$(doc_block file interfaces | sed -n 's/^[[:space:]]*post-up //p')
	check_cmp "$(echo "$cmds" | wc -l)" -eq 3 "post-up lines in deploy.md's interfaces"
	line=$( (set -e; IFACE=eth0; eval "$cmds") 2>&1)
	check_err $? "post-up commands: $line"
	check_eq "$(leaf_parent eth0 codel 10:)" 1:10 "ifupdown: codel 10: under 1:10"
	carries eth0 10: "" "$FAR_IP" "ifupdown"
	run_recipe remove
	log_test "$name"
}

deploy_rollback_recipes_run_verbatim() {
	local name="deploy.md: roll back to the in-tree codel and forward to ours, verbatim"
	local dep=/lib/modules/$KERNELRELEASE
	mkdir -p /etc/depmod.d
	tc qdisc add dev eth0 root codel
	check_err $? "precondition: a codel root"
	codel_is_ours
	check_err $? "precondition: ours in effect"
	if run_recipe rollback-intree; then
		check_eq "$(modinfo -n sch_codel)" "$dep/kernel/net/sched/sch_codel.ko" \
			"after rollback, the module autoload loads"
		tc qdisc add dev eth0 root codel
		check_err $? "codel root after rollback"
		! codel_is_ours && [ ! -e /sys/module/sch_codel/version ]
		check_err $? "after rollback the loaded codel is the in-tree one"
		run_recipe rollforward-ours
	fi
	rm -f /etc/depmod.d/sch_codel-intree.conf
	check_eq "$(modinfo -n sch_codel)" "$dep/updates/sch_codel.ko" \
		"after roll forward, the module autoload loads"
	tc qdisc add dev eth0 root codel
	check_err $? "codel root after roll forward"
	codel_is_ours
	check_err $? "after roll forward the loaded codel is ours"
	run_recipe remove
	log_test "$name"
}

# The multiqueue recipe on eth2 (qemu/run --mq: 4 tx queues), renamed eth0
# for the recipe's sake while the main eth0 is out of the way.
deploy_multiqueue_recipe_runs_verbatim() {
	local name="deploy.md: the multiqueue host recipes run verbatim, fq_codel_ext on each queue, one replaced"
	local old children queues
	ip link show eth2 >/dev/null 2>&1 || { log_skip "$name" "no eth2 (qemu/run --mq)"; return; }
	old=$(sysctl -n net.core.default_qdisc)
	ip link set eth0 down && ip link set eth0 name eth9 &&
		ip link set eth2 down && ip link set eth2 name eth0 && ip link set eth0 up
	check_err $? "eth2 renamed eth0"
	if run_recipe host-multiqueue; then
		check_eq "$(tc qdisc show dev eth0 | awk '$4 == "root" { print $2 }')" mq "the root"
		queues=$(ls -d /sys/class/net/eth0/queues/tx-* | wc -l)
		check_cmp "$queues" -ge 2 "precondition: eth0 (eth2) has several tx queues"
		children=$(tc qdisc show dev eth0 | awk '$2 == "fq_codel_ext" && $4 == "parent"' | wc -l)
		check_eq "$children" "$queues" "fq_codel_ext children of mq, one per tx queue"
		if run_recipe host-multiqueue-one-queue; then
			check_eq "$(tc qdisc show dev eth0 | awk '$3 == "12:" { print $2, $4, $5 }')" \
				"fq_codel_ext parent 1:2" "the second queue's child replaced by the doc's 1:2"
		fi
	fi
	sysctl -w net.core.default_qdisc="$old" >/dev/null
	tc qdisc del dev eth0 root 2>/dev/null
	ip link set eth0 down && ip link set eth0 name eth2 && ip link set eth2 up &&
		ip link set eth9 name eth0 && ip link set eth0 up
	check_err $? "names restored"
	log_test "$name"
}
