// SPDX-License-Identifier: GPL-2.0-only
/* The target's integrity.c, compiled into the test module. */
#include "../../dm-crypt-inline/integrity.c"
