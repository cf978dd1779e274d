#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
"""scripts/mutant-map.py: which function of codel.h, codel_nl.h, sch_codel.c and sch_fq_codel.c each
tests/mutants/*.patch mutates, as a Markdown table function -> mutants,
every function of the four files listed (none: no mutant yet)."""

import glob
import os
import re

FILES = ["codel.h", "codel_nl.h", "sch_codel.c", "sch_fq_codel.c"]
FUNC = re.compile(r"^(?:static\s+)?(?:[\w\s\*]+?)\b(\w+)\(")


def functions(path):
    """(first line, last line, name) of every function definition in path:
    a line at column 0 naming NAME( whose body opens with { at column 0."""
    out = []
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^(?:[A-Za-z_][\w \*]*?\b)?(\w+)\(", line)
        if not m or line.startswith((" ", "\t", "#")) or line.rstrip().endswith(";"):
            continue
        j = i
        while j < len(lines) and not lines[j].startswith("{") and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or not lines[j].startswith("{"):
            continue
        end = j
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        out.append((i + 1, end + 1, m.group(1)))
    return out


def changed_lines(patch, path):
    """Line numbers of path the patch removes or changes (old side)."""
    nums, cur, on = [], 0, False
    for line in open(patch):
        if line.startswith("--- a/"):
            on = line[6:].strip() == path
        elif on and line.startswith("@@"):
            cur = int(re.match(r"@@ -(\d+)", line).group(1))
        elif on and line.startswith("-") and not line.startswith("---"):
            nums.append(cur)
            cur += 1
        elif on and line.startswith("+") and not line.startswith("+++"):
            nums.append(cur)
        elif on and line.startswith(" "):
            cur += 1
    return nums


rows = {}
for path in FILES:
    funcs = functions(path)
    for _, _, name in funcs:
        rows.setdefault((path, name), [])
    for patch in sorted(glob.glob("tests/mutants/*.patch")):
        for n in changed_lines(patch, path):
            owner = "(file scope: tables and policies)"
            for start, end, name in funcs:
                if start <= n <= end:
                    owner = name
            key = (path, owner)
            m = os.path.basename(patch)[:-6]
            rows.setdefault(key, [])
            if m not in rows[key]:
                rows[key].append(m)
print("| file | function | mutants |")
print("|---|---|---|")
for (path, name), ms in rows.items():
    print("| %s | `%s` | %s |" % (path, name, ", ".join(ms) if ms else "**none**"))
