// SPDX-License-Identifier: GPL-2.0-only
/*
 * xtsproxy on a kernel it is not built for (see Kbuild and cri_stub.h).
 * From 6.16 on there is nothing to proxy, and it says so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "cri_stub.h"

static int __init xtsproxy_stub_init(void)
{
	return cri_stub_refuse(CRI_STUB_XTSPROXY_WHY);
}
module_init(xtsproxy_stub_init);

MODULE_DESCRIPTION("xtsproxy placeholder: " CRI_STUB_XTSPROXY_WHY);
MODULE_LICENSE("GPL");
