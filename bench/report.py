#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
"""Aggregate bench/run.sh's raw output into a table (stdout), a Markdown
report and gnuplot SVGs.  Medians over repeats, spread as min..max, ratios
of medians.  Usage: report.py RAWDIR REPORT.md PLOTDIR (see bench/run.sh)."""

import os
import statistics
import subprocess
import sys

raw, report, plotdir = sys.argv[1:4]
os.makedirs(plotdir, exist_ok=True)
QNAMES = {"ours": "codel (ours)", "intree": "codel (in-tree)",
          "pfifo": "pfifo limit 1000", "fq_codel": "fq_codel (in-tree)",
          "fq_codel_ext": "fq_codel_ext (ours)", "cake": "cake (leaf, unlimited)",
          "fq_codel_ext_hash": "fq_codel_ext hash_headers (ours)",
          "ours_adapt": "codel adaptive_target (ours)",
          "fq_codel_ext_adapt": "fq_codel_ext hash_headers adaptive_target (ours)"}
PNAMES = {"noqueue": "noqueue", "pfifo": "pfifo (root, bypass)",
          "prio-pfifo": "prio + pfifo", "prio-intree": "prio + codel (in-tree)",
          "prio-ours": "prio + codel (ours)", "prio-fq_codel": "prio + fq_codel (in-tree)",
          "prio-fq_codel_ext": "prio + fq_codel_ext (ours)",
          "prio-fq_codel_ext-hash": "prio + fq_codel_ext hash_headers (ours)"}


def read(name):
    path = os.path.join(raw, name)
    return open(path).read().splitlines() if os.path.exists(path) else []


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def spread(xs):
    return "%.1f..%.1f" % (min(xs), max(xs)) if xs else "-"


def rate_key(r):
    """Mbit/s of a tc rate ("256kbit", "10mbit")."""
    if r.endswith("kbit"):
        return float(r[:-4]) / 1000
    return float(r.replace("mbit", ""))


# --- latency -----------------------------------------------------------
runs = {}
rtt = {}
errors = []
for line in read("latency.out"):
    f = line.split()
    if not f:
        continue
    if f[0] == "RUN" and len(f) == 13:
        key = (f[1], int(f[2]), f[3])
        vals = [float(x) for x in f[5:13]]
        runs.setdefault(key, []).append(vals)
    elif f[0] == "RTT" and len(f) == 7:
        rtt.setdefault((f[3], int(f[4])), []).append((int(f[5]), float(f[6])))
    elif f[0] == "ERROR":
        errors.append(line)

FIELDS = ["idle", "med", "p90", "p99", "max", "goodput", "drops", "marks"]


def agg(key, field):
    return [r[FIELDS.index(field)] for r in runs.get(key, [])]


out = []
out.append("## Latency under load (ping RTT in ms; goodput Mbit/s; medians over repeats)\n")
out.append("| rate | flows | qdisc | runs | idle | median | p90 | p99 | max | goodput | drops | marks | median spread |")
out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
rates = sorted({k[0] for k in runs}, key=rate_key)
flows = sorted({k[1] for k in runs})
qorder = [q for q in ["ours", "ours_adapt", "intree", "fq_codel_ext", "fq_codel_ext_hash",
                      "fq_codel_ext_adapt", "fq_codel", "cake", "pfifo"]
          if any(k[2] == q for k in runs)]
for r in rates:
    for fl in flows:
        for q in qorder:
            k = (r, fl, q)
            if k not in runs:
                continue
            out.append("| %s | %d | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %d | %d | %s |" % (
                r, fl, QNAMES[q], len(runs[k]), med(agg(k, "idle")), med(agg(k, "med")),
                med(agg(k, "p90")), med(agg(k, "p99")), med(agg(k, "max")),
                med(agg(k, "goodput")), med(agg(k, "drops")), med(agg(k, "marks")),
                spread(agg(k, "med"))))

out.append("\n### Ratios and goals (medians)\n")
out.append("| rate | flows | ours/in-tree median RTT | ours/in-tree p99 | pfifo/ours median | ours goodput / pfifo | ours RTT increase over idle: median, p99 (ms) | achieved / configured rate (pfifo) |")
out.append("|---|---|---|---|---|---|---|---|")
goals = []
for r in rates:
    for fl in flows:
        o, i, p = (r, fl, "ours"), (r, fl, "intree"), (r, fl, "pfifo")
        if o not in runs:
            continue
        def ratio(a, b):
            return a / b if b else float("nan")
        mo, mi, mp = med(agg(o, "med")), med(agg(i, "med")), med(agg(p, "med"))
        po, pi = med(agg(o, "p99")), med(agg(i, "p99"))
        go, gp = med(agg(o, "goodput")), med(agg(p, "goodput"))
        idle = med(agg(o, "idle"))
        conf = rate_key(r)
        out.append("| %s | %d | %.2f | %.2f | %.0fx | %.3f | %.1f, %.1f | %.2f |" % (
            r, fl, ratio(mo, mi), ratio(po, pi), ratio(mp, mo), ratio(go, gp),
            mo - idle, po - idle, ratio(gp, conf)))
        if r == "10mbit" and fl == 1:
            goals = [
                ("RTT increase over idle, median <= 10 ms", mo - idle, mo - idle <= 10),
                ("RTT increase over idle, p99 <= 30 ms", po - idle, po - idle <= 30),
                ("goodput >= 95% of pfifo's", ratio(go, gp), ratio(go, gp) >= 0.95),
                ("median >= 50x lower than pfifo", ratio(mp, mo), ratio(mp, mo) >= 50),
                ("ours/in-tree median RTT <= 1.0", ratio(mo, mi), ratio(mo, mi) <= 1.0),
            ]

for ext in ["fq_codel_ext", "fq_codel_ext_hash", "fq_codel_ext_adapt"]:
    if not any(k[2] == ext for k in runs):
        continue
    out.append("\n### %s against the in-tree fq_codel and cake (medians)\n" % QNAMES[ext])
    out.append("| rate | flows | ours/in-tree fq_codel median RTT | p99 | ours/cake median | p99 | goodput ours/in-tree |")
    out.append("|---|---|---|---|---|---|---|")
    for r in rates:
        for fl in flows:
            o, i, c = (r, fl, ext), (r, fl, "fq_codel"), (r, fl, "cake")
            if o not in runs or i not in runs:
                continue
            def rt(a, b):
                return "%.2f" % (a / b) if b else "-"
            mo, mi = med(agg(o, "med")), med(agg(i, "med"))
            po, pi = med(agg(o, "p99")), med(agg(i, "p99"))
            mc = med(agg(c, "med")) if c in runs else 0
            pc = med(agg(c, "p99")) if c in runs else 0
            out.append("| %s | %d | %s | %s | %s | %s | %s |" % (
                r, fl, rt(mo, mi), rt(po, pi), rt(mo, mc), rt(po, pc),
                rt(med(agg(o, "goodput")), med(agg(i, "goodput")))))

# --- per-packet cost ----------------------------------------------------
pps = {}
for line in read("pps.out"):
    f = line.split()
    if f and f[0] == "PPS" and len(f) == 4:
        pps.setdefault(f[1], []).append(float(f[3]))
    elif f and f[0] == "ERROR":
        errors.append(line)
if pps:
    out.append("\n## Per-packet cost: pktgen, 64-byte packets, dummy device, QEMU -icount (virtual ns = guest instructions)\n")
    out.append("| configuration | runs | ns/packet (median) | spread | over noqueue | packets/s |")
    out.append("|---|---|---|---|---|---|")
    base = med(pps.get("noqueue", []))
    for c in ["noqueue", "pfifo", "prio-pfifo", "prio-intree", "prio-ours", "prio-fq_codel",
              "prio-fq_codel_ext", "prio-fq_codel_ext-hash"]:
        if c in pps:
            m = med(pps[c])
            out.append("| %s | %d | %.1f | %s | %s | %.0f |" % (
                PNAMES[c], len(pps[c]), m, spread(pps[c]),
                "%+.1f" % (m - base) if "noqueue" in pps else "-", 1e9 / m))
    if "prio-ours" in pps and "prio-intree" in pps and "prio-pfifo" in pps:
        o, i, p = med(pps["prio-ours"]), med(pps["prio-intree"]), med(pps["prio-pfifo"])
        out.append("\npps ratio ours/in-tree: %.3f; ours/pfifo (both under prio): %.3f" % (i / o, p / o))
        goals += [("pps ours/in-tree >= 1.0", i / o, i / o >= 1.0),
                  ("pps ours >= 0.95x pfifo", p / o, p / o >= 0.95)]
    if "prio-fq_codel_ext" in pps and "prio-fq_codel" in pps:
        o, i = med(pps["prio-fq_codel_ext"]), med(pps["prio-fq_codel"])
        out.append("\nfq_codel_ext (ours) - in-tree fq_codel: %+.1f guest instructions per packet (ratio %.4f)"
                   % (o - i, o / i))
        goals += [("fq_codel_ext instructions per packet <= in-tree fq_codel's", o - i, o <= i)]

# --- cost at scale: mq, two tx queues, two pktgen threads --------------
mq = {}
mqsent = {}
for line in read("mqpps.out"):
    f = line.split()
    if f and f[0] == "MQPPS" and len(f) >= 4:
        mq.setdefault(f[1], []).append(float(f[3]))
        mqsent.setdefault(f[1], []).append(" ".join(f[4:]))
    elif f and f[0] == "ERROR":
        errors.append(line)
MQNAMES = {"mq-pfifo": "mq + pfifo (bypass)", "mq-intree": "mq + codel (in-tree)",
           "mq-ours": "mq + codel (ours)"}
if mq:
    out.append("\n## Cost at scale: mq on a 2-queue dummy, pktgen on 2 threads (TCG wall clock, 2 vCPUs)\n")
    out.append("Not -icount: icount needs one vCPU, and one vCPU would run the two threads in turn. "
               "TCG time is not hardware time: read the ratios, within this boot.\n")
    out.append("| configuration | runs | ns/packet, both threads (median) | spread | packets/s |")
    out.append("|---|---|---|---|---|")
    for c in ["mq-pfifo", "mq-intree", "mq-ours"]:
        if c in mq:
            m = med(mq[c])
            out.append("| %s | %d | %.1f | %s | %.0f |" % (MQNAMES[c], len(mq[c]), m, spread(mq[c]), 1e9 / m))
    if "mq-ours" in mq and "mq-intree" in mq and "mq-pfifo" in mq:
        o, i, p = med(mq["mq-ours"]), med(mq["mq-intree"]), med(mq["mq-pfifo"])
        out.append("\nmq pps ratio ours/in-tree: %.3f; ours/pfifo: %.3f; per-queue Sent of the last ours run: %s"
                   % (i / o, p / o, mqsent["mq-ours"][-1]))

# --- host instruction counts ---------------------------------------------
cg = {}
for line in read("callgrind.out"):
    f = line.split()
    if len(f) == 2:
        cg[f[0]] = float(f[1])
if cg:
    out.append("\n## codel.h in userspace: instructions per enqueue+dequeue (callgrind, (I(2N) - I(N)) / N)\n")
    out.append("| path | instructions | over FIFO |")
    out.append("|---|---|---|")
    for m in ["fifo", "nodrop", "dropping"]:
        if m in cg:
            out.append("| %s | %.1f | %+.1f |" % (m, cg[m], cg[m] - cg.get("fifo", 0)))

# --- split_gso -----------------------------------------------------------
split = {}
for line in read("split.out"):
    f = line.split()
    if f and f[0] == "SPLIT" and len(f) == 12:
        split.setdefault((f[1], f[2]), []).append([float(x) for x in f[4:12]])
    elif f and f[0] == "ERROR":
        errors.append(line)
SNAMES = {"intree": "codel (in-tree)", "ours": "codel (ours)", "ours-split": "codel (ours) split_gso"}
if split:
    out.append("\n## split_gso: TSO/GSO on at the sender, 1 TCP flow (RTT ms, medians over repeats)\n")
    out.append("| rate | qdisc | runs | idle | median | p90 | p99 | goodput | drops | maxpacket |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted({k[0] for k in split}, key=rate_key):
        for c in ["intree", "ours", "ours-split"]:
            v = split.get((r, c))
            if not v:
                continue
            col = lambda i: med([x[i] for x in v])
            out.append("| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %d | %d |" % (
                r, SNAMES[c], len(v), col(0), col(1), col(2), col(3), col(5), col(6), col(7)))
    with open(os.path.join(raw, "split.dat"), "w") as fh:
        n = 0
        for r in sorted({k[0] for k in split}, key=rate_key):
            for c in ["intree", "ours", "ours-split"]:
                v = split.get((r, c))
                if v:
                    fh.write('%d "%s %s" %.2f %.2f\n' % (n, r, SNAMES[c], med([x[1] for x in v]),
                                                      med([x[3] for x in v])))
                    n += 1

if goals:
    out.append("\n## Goals (reported, not asserted)\n")
    out.append("| goal | measured | met |")
    out.append("|---|---|---|")
    for g, v, ok in goals:
        out.append("| %s | %.3f | %s |" % (g, v, "yes" if ok else "**no**"))
if errors:
    out.append("\n## Errors during the run\n")
    out += ["    " + e for e in errors]

text = "\n".join(out) + "\n"
print(text)

# --- plots ----------------------------------------------------------------
os.makedirs(plotdir, exist_ok=True)
plots = []
if rtt:
    series = []
    for q in qorder:
        first = rtt.get((q, 1))
        if not first:
            continue
        # RTT over time: the first repeat; CDF: every repeat.
        with open(os.path.join(raw, "rtt-time-%s.dat" % q), "w") as fh:
            for s, v in first:
                fh.write("%.1f %.3f\n" % (s / 10.0, v))
        pts = [p for (qq, _), ps in rtt.items() if qq == q for p in ps]
        vals = sorted(v for _, v in pts)
        with open(os.path.join(raw, "rtt-cdf-%s.dat" % q), "w") as fh:
            for n, v in enumerate(vals, 1):
                fh.write("%.3f %.4f\n" % (v, n / len(vals)))
        series.append(q)
    for kind, xl, yl, extra in [
            ("time", "time (s)", "ping RTT (ms)", "set logscale y"),
            ("cdf", "ping RTT (ms)", "fraction of pings", "set logscale x")]:
        gp = ["set terminal svg size 800,480 dynamic noenhanced", "set output '%s/rtt-%s.svg'" % (plotdir, kind),
              "set title 'Ping RTT under 1 bulk TCP flow, 10 Mbit/s bottleneck (QEMU TCG)'",
              "set xlabel '%s'" % xl, "set ylabel '%s'" % yl, extra, "set grid", "set key top left"]
        gp.append("plot " + ", ".join("'%s/rtt-%s-%s.dat' using 1:2 with lines title '%s'" % (
            raw, kind, q, QNAMES[q]) for q in series))
        subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=False)
        plots.append("rtt-%s.svg" % kind)
if pps:
    with open(os.path.join(raw, "pps.dat"), "w") as fh:
        for n, c in enumerate([c for c in PNAMES if c in pps]):
            fh.write("%d \"%s\" %.0f\n" % (n, PNAMES[c], 1e9 / med(pps[c])))
    gp = ["set terminal svg size 800,480 dynamic noenhanced", "set output '%s/pps.svg'" % plotdir,
          "set title 'pktgen packets per virtual second (QEMU -icount), median'",
          "set style fill solid 0.6", "set boxwidth 0.6", "set yrange [0:*]", "set grid y",
          "set ylabel 'packets/s'", "set xtics rotate by -20",
          "plot '%s/pps.dat' using 1:3:xtic(2) with boxes notitle" % raw]
    subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=False)
    plots.append("pps.svg")

if split:
    gp = ["set terminal svg size 900,480 dynamic noenhanced", "set output '%s/split.svg'" % plotdir,
          "set title 'split_gso: ping RTT under 1 bulk TCP flow with TSO/GSO on (medians)'",
          "set style data histograms", "set style histogram clustered", "set style fill solid 0.6",
          "set logscale y", "set grid y", "set ylabel 'RTT (ms)'", "set xtics rotate by -25",
          "plot '%s/split.dat' using 3:xtic(2) title 'median', '' using 4 title 'p99'" % raw]
    subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=False)
    plots.append("split.svg")

with open(report, "a") as fh:
    fh.write(text)
    if plots:
        fh.write("\n## Plots\n\n")
        rel = os.path.relpath(plotdir, os.path.dirname(report))
        for p in plots:
            fh.write("![%s](%s/%s)\n\n" % (p, rel, p))
