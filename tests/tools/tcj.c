// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * tcj: read tc's JSON (tc -j) in the guest, where a python3 start costs
 * half a second under TCG and busybox has no JSON reader.
 *
 *   tcj check             stdin parses as one JSON value
 *   tcj obj [KEY=]VALUE   from a JSON array of qdiscs or classes, the first
 *                         whose KEY ("handle" if not given) is the string
 *                         VALUE, on one line
 *   tcj first             the array's first object (a device's root qdisc)
 *   tcj get KEY...        from one JSON object, each KEY's value, looked up
 *                         at the top and then in "options": numbers,
 *                         true/false as they are, strings unquoted, arrays
 *                         of scalars joined with commas, objects as JSON;
 *                         "None" for a missing key; one line, space-separated
 *
 * Exit status 1 when the input does not parse or obj finds nothing, 2 on
 * bad usage.  Only what tc prints is handled: no \u escapes are decoded.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *in;		/* the whole input */
static const char *p;		/* the parser's position in it */

static void skip_ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
}

static bool parse_value(void);

static bool parse_string(void)
{
	if (*p != '"')
		return false;
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return false;
	if (*p != '"')
		return false;
	p++;
	return true;
}

/* An object or array: members separated by commas up to close. */
static bool parse_members(char close, bool keys)
{
	p++;
	skip_ws();
	if (*p == close) {
		p++;
		return true;
	}
	for (;;) {
		skip_ws();
		if (keys) {
			if (!parse_string())
				return false;
			skip_ws();
			if (*p++ != ':')
				return false;
		}
		if (!parse_value())
			return false;
		skip_ws();
		if (*p == close) {
			p++;
			return true;
		}
		if (*p++ != ',')
			return false;
	}
}

static bool parse_value(void)
{
	skip_ws();
	switch (*p) {
	case '{':
		return parse_members('}', true);
	case '[':
		return parse_members(']', false);
	case '"':
		return parse_string();
	default:
		if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) {
			p += 4;
			return true;
		}
		if (!strncmp(p, "false", 5)) {
			p += 5;
			return true;
		}
		if (*p != '-' && (*p < '0' || *p > '9'))
			return false;
		while (strchr("+-.eE0123456789", *p) && *p)
			p++;
		return true;
	}
}

/* Print [start, end) without whitespace outside strings. */
static void print_compact(const char *start, const char *end)
{
	bool str = false;

	for (const char *c = start; c < end; c++) {
		if (str && *c == '\\') {
			putchar(*c++);
		} else if (*c == '"') {
			str = !str;
		} else if (!str && strchr(" \t\n\r", *c)) {
			continue;
		}
		putchar(*c);
	}
}

/* Print one value as the shell wants it (see the usage above). */
static void print_value(const char *start, const char *end)
{
	if (*start == '"') {
		fwrite(start + 1, 1, end - start - 2, stdout);
	} else if (*start == '[') {
		bool first = true;

		p = start + 1;
		for (skip_ws(); *p != ']'; skip_ws()) {
			const char *v;

			if (*p == ',')
				p++;
			skip_ws();
			v = p;
			parse_value();
			if (!first)
				putchar(',');
			first = false;
			print_value(v, p);
			skip_ws();
		}
	} else {
		print_compact(start, end);
	}
}

/*
 * In the object at obj, the value of key: its bounds, false if missing.
 * With nested set, a key missing at the top is looked up in "options".
 */
static bool find_key(const char *obj, const char *key, bool nested,
		     const char **vs, const char **ve)
{
	size_t klen = strlen(key);
	const char *opts = NULL;

	p = obj + 1;
	for (skip_ws(); *p != '}'; skip_ws()) {
		const char *k;
		size_t len;

		if (*p == ',')
			p++;
		skip_ws();
		k = p + 1;
		parse_string();
		len = (size_t)(p - k - 1);
		skip_ws();
		p++;		/* ':' */
		skip_ws();
		*vs = p;
		parse_value();
		*ve = p;
		if (len == klen && !strncmp(k, key, klen))
			return true;
		if (len == 7 && !strncmp(k, "options", 7) && **vs == '{')
			opts = *vs;
	}
	return nested && opts && find_key(opts, key, false, vs, ve);
}

static char *read_all(void)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	size_t n;

	while (buf && (n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (len + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf) {
		perror("tcj");
		exit(2);
	}
	buf[len] = 0;
	return buf;
}

int main(int argc, char **argv)
{
	const char *vs, *ve;

	if (argc < 2 || (strcmp(argv[1], "check") && strcmp(argv[1], "first") && argc < 3)) {
		fprintf(stderr, "usage: tcj check | tcj obj HANDLE | tcj first | tcj get KEY...\n");
		return 2;
	}
	in = p = read_all();
	if (!parse_value() || (skip_ws(), *p)) {
		fprintf(stderr, "tcj: not JSON at byte %ld\n", (long)(p - in));
		return 1;
	}
	p = in;
	skip_ws();
	if (!strcmp(argv[1], "check"))
		return 0;
	if (!strcmp(argv[1], "first")) {
		const char *o;

		if (*p != '[')
			return 1;
		p++;
		skip_ws();
		if (*p != '{')
			return 1;
		o = p;
		parse_value();
		print_compact(o, p);
		putchar('\n');
		return 0;
	}
	if (!strcmp(argv[1], "obj")) {
		char *key = "handle", *value = argv[2], *eq = strchr(argv[2], '=');
		const char *start = p;

		if (eq) {
			*eq = 0;
			key = argv[2];
			value = eq + 1;
		}

		if (*start != '[')
			return 1;
		p = start + 1;
		for (skip_ws(); *p != ']'; skip_ws()) {
			const char *o, *end;

			if (*p == ',')
				p++;
			skip_ws();
			o = p;
			parse_value();
			end = p;
			if (*o == '{' && find_key(o, key, false, &vs, &ve) &&
			    ve - vs == (long)strlen(value) + 2 &&
			    !strncmp(vs + 1, value, ve - vs - 2)) {
				print_compact(o, end);
				putchar('\n');
				return 0;
			}
			p = end;
		}
		return 1;
	}
	if (!strcmp(argv[1], "get")) {
		const char *obj = p;

		if (*obj != '{')
			return 1;
		for (int i = 2; i < argc; i++) {
			if (i > 2)
				putchar(' ');
			if (find_key(obj, argv[i], true, &vs, &ve))
				print_value(vs, ve);
			else
				fputs("None", stdout);
		}
		putchar('\n');
		return 0;
	}
	fprintf(stderr, "tcj: unknown command %s\n", argv[1]);
	return 2;
}
