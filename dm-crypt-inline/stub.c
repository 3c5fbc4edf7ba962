// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-crypt-inline, or the drop-in (CRI_DROPIN), on a kernel it is not
 * built for (see Kbuild and cri_stub.h): no target is registered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "cri_stub.h"

static int __init cri_stub_init(void)
{
	return cri_stub_refuse(CRI_STUB_WHY);
}
module_init(cri_stub_init);

#ifdef CRI_DROPIN
#define CRI_STUB_MODULE "dm-crypt-dropin"
#else
#define CRI_STUB_MODULE "dm-crypt-inline"
#endif
MODULE_DESCRIPTION(CRI_STUB_MODULE " placeholder: " CRI_STUB_WHY);
MODULE_LICENSE("GPL");
