// SPDX-License-Identifier: GPL-2.0-only
/* The target's flavour.c (crypt-inline's), compiled into the test module. */
#include "../../dm-crypt-inline/flavour.c"
