// SPDX-License-Identifier: GPL-2.0-only
/* The target's path.c, compiled into the test module. */
#include "../../dm-crypt-inline/path.c"
