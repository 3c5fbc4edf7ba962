// SPDX-License-Identifier: GPL-2.0-only
/* The drop-in's defer.c: the same source, built with CRI_DROPIN (see Kbuild). */
#include "../defer.c"
