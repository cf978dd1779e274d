# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
# The module's sources: the one list the build, DKMS package, style check
# and mutation run read (make: include; shell: scripts/module-sources.sh).
MODULE_SOURCES := sch_codel.c sch_fq_codel.c codel.h codel_nl.h codel_trace.h fq_codel_trace.h compat.h pkt_sched_codel.h
