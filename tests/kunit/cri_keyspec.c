// SPDX-License-Identifier: GPL-2.0-only
/* The target's keyspec.c, compiled into the test module. */
#include "../../dm-crypt-inline/keyspec.c"
