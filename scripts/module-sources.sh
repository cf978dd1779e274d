#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
# Print the module's sources, from sources.mk, one line.
top=$(cd "$(dirname "$0")/.." && pwd)
sed -n 's/^MODULE_SOURCES := //p' "$top/sources.mk"
