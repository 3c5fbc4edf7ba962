// SPDX-License-Identifier: GPL-2.0-only
/* The target's status.c, compiled into the test module. */
#include "../../dm-crypt-inline/status.c"
