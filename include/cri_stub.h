/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a module of this project is on a kernel outside the series the code
 * is written and tested for (see the Kbuild files): a placeholder that
 * registers nothing and refuses to load, saying why.  DKMS then always has
 * a module to install, so a new kernel's installation never fails on us
 * (Debian 12's dkms fails it on a BUILD_EXCLUSIVE mismatch), and modprobe's
 * failure lets a fallback such as in-tree dm-crypt take over.
 */
#ifndef CRI_STUB_H
#define CRI_STUB_H

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/utsname.h>
#include <linux/version.h>

#define CRI_STUB_UNTESTED \
	"not built for this kernel: the code is written and tested for 6.1 and 6.12"

/*
 * 6.16 made x86's AES-XTS synchronous and dropped the internal __xts(aes)
 * that xtsproxy reaches: from there on xtsproxy has nothing to do.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define CRI_STUB_XTSPROXY_WHY \
	"not needed on this kernel: its xts(aes) is synchronous already"
#else
#define CRI_STUB_XTSPROXY_WHY CRI_STUB_UNTESTED
#endif

static inline int cri_stub_refuse(const char *why)
{
	pr_err("%s (kernel %s)\n", why, init_utsname()->release);
	return -ENODEV;
}

#endif /* CRI_STUB_H */
