// SPDX-License-Identifier: GPL-2.0-only
/* The drop-in's tags.c: the same source, built with CRI_DROPIN (see Kbuild). */
#include "../tags.c"
