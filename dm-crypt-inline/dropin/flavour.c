// SPDX-License-Identifier: GPL-2.0-only
/* The drop-in's flavour.c: the same source, built with CRI_DROPIN (see Kbuild). */
#include "../flavour.c"
