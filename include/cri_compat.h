/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-version differences, in one place, so the code reads as if written
 * for one kernel.  Each helper names the version that changed.
 */
#ifndef CRI_COMPAT_H
#define CRI_COMPAT_H

#include <linux/version.h>
#include <crypto/skcipher.h>

/* 6.12 moved the unaligned access helpers from asm/ to linux/. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.3 changed crypto completion callbacks from taking the request to taking
 * its data pointer.  Declare callbacks as
 *	static void cb(CRI_CRYPTO_CB_ARG arg, int err)
 * and get the pointer given to skcipher_request_set_callback() with
 * cri_crypto_cb_data(arg).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define CRI_CRYPTO_CB_ARG	void *
static inline void *cri_crypto_cb_data(void *data)
{
	return data;
}
#else
#define CRI_CRYPTO_CB_ARG	struct crypto_async_request *
static inline void *cri_crypto_cb_data(struct crypto_async_request *req)
{
	return req->data;
}
#endif

#endif /* CRI_COMPAT_H */
