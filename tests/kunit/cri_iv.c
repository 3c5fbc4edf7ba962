// SPDX-License-Identifier: GPL-2.0-only
/* The target's iv.c, compiled into the test module. */
#include "../../dm-crypt-inline/iv.c"
