/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The few iproute2 library symbols tc/q_codel.c calls, declared as
 * iproute2 declares them (include/utils.h, libnetlink.h, json_print.h and
 * color.h of iproute2 6.1; the iproute2 authors), so that the plugin
 * builds without iproute2's source, which no Debian binary package ships.
 * Stock tc exports these symbols (it links with -export-dynamic) and
 * resolves them when it loads q_codel.so.  tests/host/tc-plugin.sh checks
 * that the plugin built against this file is the plugin built against
 * iproute2's own headers, and that each stock tc exports every symbol.
 */
#ifndef SCH_CODEL_TC_UTILS_H
#define SCH_CODEL_TC_UTILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <asm/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* utils.h */
#define SPRINT_BSIZE 64
#define SPRINT_BUF(x)	char x[SPRINT_BSIZE]

void incomplete_command(void) __attribute__((noreturn));
#define NEXT_ARG() do { argv++; if (--argc <= 0) incomplete_command(); } while (0)

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

int get_unsigned(unsigned int *val, const char *arg, int base);
int get_u8(__u8 *val, const char *arg, int base);
int get_size(unsigned int *size, const char *str);
int get_time(unsigned int *time, const char *str);
char *sprint_time(__u32 time, char *buf);

/* libnetlink.h */
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr_l(struct nlmsghdr *n, int maxlen, int type,
	      const void *data, int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);
#define parse_rtattr_nested(tb, max, rta) \
	(parse_rtattr_flags((tb), (max), RTA_DATA(rta), RTA_PAYLOAD(rta), \
			    NLA_F_NESTED))

static inline __u8 rta_getattr_u8(const struct rtattr *rta)
{
	return *(__u8 *)RTA_DATA(rta);
}

static inline __u32 rta_getattr_u32(const struct rtattr *rta)
{
	return *(__u32 *)RTA_DATA(rta);
}

/* color.h: only the last value, which the print helpers pass. */
enum color_attr {
	COLOR_NONE = 6,
};

/* json_print.h */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
void print_nl(void);
char *sprint_size(__u32 sz, char *buf);

#define SCH_CODEL_TC_PRINT(type_name, type)				\
	int print_color_##type_name(enum output_type t,			\
				    enum color_attr color,		\
				    const char *key,			\
				    const char *fmt,			\
				    type value);			\
	static inline int print_##type_name(enum output_type t,		\
					    const char *key,		\
					    const char *fmt,		\
					    type value)			\
	{								\
		return print_color_##type_name(t, COLOR_NONE, key, fmt,	\
					       value);			\
	}
SCH_CODEL_TC_PRINT(int, int)
SCH_CODEL_TC_PRINT(bool, bool)
SCH_CODEL_TC_PRINT(string, const char *)
SCH_CODEL_TC_PRINT(uint, unsigned int)
SCH_CODEL_TC_PRINT(u64, uint64_t)
#undef SCH_CODEL_TC_PRINT

#endif /* SCH_CODEL_TC_UTILS_H */
