/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a module of this project is where the real one cannot be had (see
 * cri_stub.mk): on a kernel outside the series the code is written and
 * tested for, or where its build failed.  A placeholder registers nothing
 * and refuses to load, saying why.  DKMS then always has a module to
 * install, so a new kernel's installation never fails on us (Debian 12's
 * dkms fails it on a BUILD_EXCLUSIVE mismatch or a failed build), and
 * modprobe's failure lets a fallback such as in-tree dm-crypt take over.
 */
#ifndef CRI_STUB_H
#define CRI_STUB_H

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/utsname.h>
#include <linux/version.h>

#ifdef CRI_STUB_failed
#define CRI_STUB_WHY \
	"not built for this kernel: its build failed (see DKMS's make.log)"
#else
#define CRI_STUB_WHY \
	"not built for this kernel: the code is written and tested for 6.1 and 6.12"
#endif

/*
 * 6.16 made x86's AES-XTS synchronous and dropped the internal __xts(aes)
 * that xtsproxy reaches: from there on xtsproxy has nothing to do.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define CRI_STUB_XTSPROXY_WHY \
	"not needed on this kernel: its xts(aes) is synchronous already"
#else
#define CRI_STUB_XTSPROXY_WHY CRI_STUB_WHY
#endif

static inline int cri_stub_refuse(const char *why)
{
	pr_err("%s (kernel %s)\n", why, init_utsname()->release);
	return -ENODEV;
}

#endif /* CRI_STUB_H */
