#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
"""scripts/mutant-refresh.py [NAME...]: rewrite tests/mutants/NAME.patch
(default: every mutant) as diff -u of today's sources, so that its hunk
headers name the lines it really changes.  patch -F0 forbids fuzz, not
offsets: a source change above a mutant's hunk leaves a header that still
applies but is lines off, and scripts/mutant-map.py would then file the
mutant under the wrong function.  tests/host/mutants.sh fails on any
offset.  A mutant that no longer applies is left alone and named (exit 1).

scripts/mutant-refresh.py --new NAME FILE "Mutant: ..." "Tests: ..." OLD NEW
writes a new mutant replacing the only occurrence of OLD in FILE by NEW."""

import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources():
    out = subprocess.run([os.path.join(TOP, "scripts/module-sources.sh")],
                         cwd=TOP, check=True, capture_output=True, text=True)
    return out.stdout.split()


def unified(path, old, new):
    """diff -u of path's text old -> new, headed a/path and b/path."""
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        with open(a, "w") as f:
            f.write(old)
        with open(b, "w") as f:
            f.write(new)
        out = subprocess.run(["diff", "-u", a, b], capture_output=True, text=True)
    if out.returncode != 1:
        raise SystemExit("mutant-refresh: %s: the mutant changes nothing" % path)
    lines = out.stdout.splitlines(True)
    return "--- a/%s\n+++ b/%s\n" % (path, path) + "".join(lines[2:])


def header(patch):
    """The Mutant: and Tests: lines above the first ---."""
    head = []
    for line in open(patch):
        if line.startswith("--- "):
            break
        head.append(line)
    return "".join(head)


def refresh(name):
    patch = os.path.join(TOP, "tests/mutants", name + ".patch")
    srcs = sources()
    with tempfile.TemporaryDirectory() as d:
        for s in srcs:
            shutil.copy(os.path.join(TOP, s), d)
        with open(patch) as f:
            r = subprocess.run(["patch", "-s", "-p1", "-F0", "-d", d], stdin=f,
                               capture_output=True, text=True)
        if r.returncode != 0:
            print("mutant-refresh: %s does not apply: %s" % (name, r.stdout.strip()),
                  file=sys.stderr)
            return False
        body = ""
        for s in srcs:
            old = open(os.path.join(TOP, s)).read()
            new = open(os.path.join(d, s)).read()
            if old != new:
                body += unified(s, old, new)
    text = header(patch) + body
    if text != open(patch).read():
        with open(patch, "w") as f:
            f.write(text)
        print("mutant-refresh: %s rewritten" % name)
    return True


def new(name, path, desc, tests, old, repl):
    patch = os.path.join(TOP, "tests/mutants", name + ".patch")
    if os.path.exists(patch):
        raise SystemExit("mutant-refresh: %s exists" % patch)
    if not desc.startswith("Mutant: ") or not tests.startswith("Tests: "):
        raise SystemExit("mutant-refresh: want \"Mutant: ...\" \"Tests: ...\"")
    text = open(os.path.join(TOP, path)).read()
    if text.count(old) != 1:
        raise SystemExit("mutant-refresh: %s: OLD found %d times, want once"
                         % (path, text.count(old)))
    with open(patch, "w") as f:
        f.write(desc + "\n" + tests + "\n" + unified(path, text, text.replace(old, repl)))
    print("mutant-refresh: %s written" % name)


def main(argv):
    if argv[:1] == ["--new"]:
        if len(argv) != 7:
            raise SystemExit(__doc__)
        new(*argv[1:])
        return 0
    names = argv or sorted(p[:-6] for p in os.listdir(os.path.join(TOP, "tests/mutants"))
                           if p.endswith(".patch"))
    ok = [refresh(n) for n in names]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
