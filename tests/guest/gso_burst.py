# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
"""Send COUNT UDP GSO super-packets of SEGS segments of SIZE bytes, at once.

Usage: gso_burst.py DEST COUNT[,COUNT...] SEGS SIZE [PAUSE]

With several COUNTs, one burst each, PAUSE seconds apart (one Python start
under TCG costs more than a second: a test's rounds share one).

Each sendmsg() becomes one GSO skb (UDP_SEGMENT), larger than the MTU, so
that a qdisc holds packets bigger than CoDel's MTU guard: only then can a
dequeue drop and still leave the queue empty.  Prints the datagrams sent;
exits 1 if the kernel refused GSO (the test then says why it cannot run).
"""
import socket
import sys
import time

SOL_UDP = 17
UDP_SEGMENT = 103		# <linux/udp.h>, not exported by Python 3.11


def main():
    dest, counts = sys.argv[1], [int(c) for c in sys.argv[2].split(",")]
    segs, size = map(int, sys.argv[3:5])
    pause = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(SOL_UDP, UDP_SEGMENT, size)
    payload = bytes(segs * size)
    sent = 0
    for i, count in enumerate(counts):
        if i:
            time.sleep(pause)
        for _ in range(count):
            try:
                s.sendto(payload, (dest, 9))
            except OSError as e:
                print(f"gso_burst: sendto: {e}", file=sys.stderr)
                return 1
            sent += 1
    print(sent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
