// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * codel-lifecycle N MODULE.ko DEV...: N cycles of init_module, a root
 * qdisc of the module's kind on every DEV (sch_KIND.ko: codel, or
 * fq_codel_ext), 20 frames through each, delete_module refused
 * (EWOULDBLOCK) while even one instance is left, delete every instance,
 * delete_module.  In one process, because under TCG every exec of tc or
 * insmod costs ~50 ms.  Exit status 0 when every step did as it must.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "frame.h"
#include "nl.h"

#define MAX_DEVS	8
#define HANDLE		0x10000u	/* 1: */

static unsigned long cycle, failures;

static void fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	printf("# FAIL at cycle %lu: ", cycle);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* The module image, for init_module(); NULL (and a message) on error. */
static void *read_module(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *image = NULL;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !(image = malloc(st.st_size)) ||
	    read(fd, image, st.st_size) != st.st_size) {
		perror(path);
		free(image);
		image = NULL;
	}
	if (fd >= 0)
		close(fd);
	*size = image ? (size_t)st.st_size : 0;
	return image;
}

int main(int argc, char **argv)
{
	int ifindex[MAX_DEVS], ndevs = 0, nl_fd, pk_fd, i, err;
	char module[64], *end, *kind;
	unsigned long cycles;
	size_t size;
	void *image;

	if (argc < 4 || argc - 3 > MAX_DEVS ||
	    !(cycles = strtoul(argv[1], &end, 0)) || *end) {
		fprintf(stderr, "usage: codel-lifecycle N MODULE.ko DEV... (at most %d)\n",
			MAX_DEVS);
		return 2;
	}
	/* The module's name is its file's, the kind that name less "sch_". */
	snprintf(module, sizeof(module), "%s", basename(argv[2]));
	end = strstr(module, ".ko");
	if (!end || strncmp(module, "sch_", 4)) {
		fprintf(stderr, "codel-lifecycle: %s is not sch_KIND.ko\n", argv[2]);
		return 2;
	}
	*end = '\0';
	kind = module + 4;
	image = read_module(argv[2], &size);
	nl_fd = nl_open();
	pk_fd = frame_socket();
	if (!image || nl_fd < 0 || pk_fd < 0) {
		perror("codel-lifecycle: sockets");
		return 2;
	}
	for (i = 3; i < argc; i++)
		if (!(ifindex[ndevs++] = (int)if_nametoindex(argv[i]))) {
			fprintf(stderr, "codel-lifecycle: no device %s\n", argv[i]);
			return 2;
		}
	for (cycle = 1; cycle <= cycles && !failures; cycle++) {
		if (syscall(SYS_init_module, image, (unsigned long)size, ""))
			fail("init_module: %s", strerror(errno));
		for (i = 0; i < ndevs; i++)
			if ((err = nl_qdisc(nl_fd, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
					    ifindex[i], TC_H_ROOT, HANDLE, kind)))
				fail("%s: add %s: %s", argv[3 + i], kind, strerror(-err));
		for (i = 0; i < ndevs; i++)
			for (int k = 0; k < 20; k++)
				if ((err = frame_send(pk_fd, ifindex[i], FRAME_MIN, 0)))
					fail("%s: sendto: %s", argv[3 + i], strerror(-err));
		for (i = 0; i < ndevs; i++) {
			if (!syscall(SYS_delete_module, module, O_NONBLOCK))
				fail("delete_module accepted with %d %s qdiscs left",
				     ndevs - i, kind);
			else if (errno != EWOULDBLOCK)
				fail("delete_module in use: %s, want EWOULDBLOCK", strerror(errno));
			if ((err = nl_qdisc(nl_fd, RTM_DELQDISC, 0, ifindex[i], TC_H_ROOT,
					    HANDLE, NULL)))
				fail("%s: delete %s: %s", argv[3 + i], kind, strerror(-err));
		}
		if (syscall(SYS_delete_module, module, O_NONBLOCK))
			fail("delete_module: %s", strerror(errno));
	}
	printf("# codel-lifecycle: %lu cycles of %s on %d devices, %lu failures\n",
	       cycle - 1, module, ndevs, failures);
	free(image);
	return failures ? 1 : 0;
}
