// SPDX-License-Identifier: GPL-2.0-only
/* The target's table.c, compiled into the test module. */
#include "../../dm-crypt-inline/table.c"
