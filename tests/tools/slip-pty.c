// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * slip-pty DIR
 *
 * A SLIP interface (drivers/net/slip) over a pseudo-terminal whose master
 * nobody reads until asked: the interface stops its queue for each packet
 * until the line has written it, so its root qdisc's core requeues what a
 * transmit could not finish (the rest of a GSO packet's segments) and
 * holds it while the line stays unread (tests/guest/codel-fq_codel.sh).
 *
 * Writes the interface's name to DIR/ifname, then waits for signals:
 * SIGUSR1 reads the master until 300 ms pass with nothing more; SIGUSR2
 * makes one read, once there is something (up to 3 s), so that the
 * interface is woken for one more packet.  Each then writes the number
 * of SLIP frames read so far to DIR/frames, and has appended a line to
 * DIR/log for each frame: its length and, for IPv4, its destination
 * address ("142 198.19.9.2"), in the order the line carried them.
 * SIGTERM or SIGINT closes the line, which removes the interface, and
 * exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SLIP_END 0xc0		/* RFC 1055 */
#define SLIP_ESC 0xdb
#define SLIP_ESC_END 0xdc
#define SLIP_ESC_ESC 0xdd
#define LDISC_SLIP 1		/* N_SLIP, <linux/tty.h> */

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[4096], tmp[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s", dir, name);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror("slip-pty: writing the state directory");
		return -1;
	}
	return 0;
}

/* A frame being decoded, and where its lines go. */
struct line {
	unsigned char	frame[65536];
	size_t		len;
	int		esc;
	unsigned long	frames;
	FILE		*log;
};

static void frame_end(struct line *l)
{
	const unsigned char *d = l->frame + 16;

	if (!l->len)
		return;
	l->frames++;
	if (l->len >= 20 && l->frame[0] >> 4 == 4)
		fprintf(l->log, "%zu %u.%u.%u.%u\n", l->len, d[0], d[1], d[2], d[3]);
	else
		fprintf(l->log, "%zu -\n", l->len);
	l->len = 0;
}

static void line_byte(struct line *l, unsigned char c)
{
	if (c == SLIP_END) {
		frame_end(l);
		l->esc = 0;
		return;
	}
	if (c == SLIP_ESC) {
		l->esc = 1;
		return;
	}
	if (l->esc) {
		c = c == SLIP_ESC_END ? SLIP_END : c == SLIP_ESC_ESC ? SLIP_ESC : c;
		l->esc = 0;
	}
	if (l->len < sizeof(l->frame))
		l->frame[l->len++] = c;
}

/*
 * Read the master until it is quiet for @quiet_ms, or @once after one
 * read.
 */
static int drain(int master, int quiet_ms, int once, struct line *l)
{
	struct pollfd p = { .fd = master, .events = POLLIN };
	unsigned char buf[4096];
	ssize_t i, n;

	while (poll(&p, 1, quiet_ms) > 0) {
		n = read(master, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		for (i = 0; i < n; i++)
			line_byte(l, buf[i]);
		if (once)
			break;
	}
	return fflush(l->log) ? -1 : 0;
}

int main(int argc, char **argv)
{
	int master, slave, ldisc = LDISC_SLIP, sig;
	char ifname[IFNAMSIZ + 1] = "", text[4096];
	static struct line l;
	sigset_t set;

	if (argc != 2) {
		fprintf(stderr, "usage: slip-pty DIR\n");
		return 2;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("slip-pty: a pseudo-terminal");
		return 1;
	}
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0 || ioctl(slave, TIOCSETD, &ldisc) ||
	    ioctl(slave, SIOCGIFNAME, ifname)) {
		perror("slip-pty: SLIP on the pseudo-terminal (is slip.ko there?)");
		return 1;
	}
	snprintf(text, sizeof(text), "%s/log", argv[1]);
	l.log = fopen(text, "w");
	if (!l.log) {
		perror("slip-pty: DIR/log");
		return 1;
	}
	strcat(ifname, "\n");
	if (write_file(argv[1], "ifname", ifname))
		return 1;
	for (;;) {
		if (sigwait(&set, &sig))
			return 1;
		if (sig != SIGUSR1 && sig != SIGUSR2)
			return 0;
		if (drain(master, sig == SIGUSR1 ? 300 : 3000, sig == SIGUSR2,
			  &l)) {
			perror("slip-pty: reading the master");
			return 1;
		}
		snprintf(text, sizeof(text), "%lu\n", l.frames);
		if (write_file(argv[1], "frames", text))
			return 1;
	}
}
