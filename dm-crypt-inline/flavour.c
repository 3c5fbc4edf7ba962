// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: what differs between the two targets built from these
 * sources (see cri.h and Kbuild).
 *
 * The drop-in stands in for in-tree dm-crypt, so it takes dm-crypt's name
 * and the running kernel's dm-crypt version, prints hex keys as dm-crypt
 * does (dmsetup hides them for "crypt" unless --showkeys), and turns
 * force_inline into dm-crypt's own two flags: every table line it prints
 * is one that cryptsetup, which fails on optional arguments it does not
 * know, can parse.  Its workqueues and write thread have dm-crypt's names,
 * so that what administrators tune by name (the workqueues' sysfs
 * directories on 6.12) applies to it; crypt-inline's have "-inline" added.
 * A keyring key that is gone is gone for the drop-in, as for dm-crypt
 * (cryptsetup's own tests check that a reload then fails); crypt-inline
 * falls back on the key its live table holds.
 */

#include <linux/bits.h>

#include "cri.h"
#include "cri_dmcrypt.h"

#ifdef CRI_DROPIN
const struct cri_flavour cri_flavour = {
	.name		= "crypt",
	.version	= CRI_DM_CRYPT_VERSION,
	.inline_on	= BIT(CRI_NO_READ_WORKQUEUE) | BIT(CRI_NO_WRITE_WORKQUEUE),
	.hex_keys	= true,
	.name_suffix	= "",
	.live_table_keys = false,
};
#else
const struct cri_flavour cri_flavour = {
	.name		= "crypt-inline",
	.version	= {0, 1, 0},
	.inline_on	= BIT(CRI_FORCE_INLINE),
	.hex_keys	= false,
	.name_suffix	= "-inline",
	.live_table_keys = true,
};
#endif
