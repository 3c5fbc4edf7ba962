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
 * its data pointer.  Define a (static) callback with CRI_CRYPTO_CALLBACK(name,
 * data) and use `data` (the pointer given to skcipher_request_set_callback) inside.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define CRI_CRYPTO_CALLBACK(name, data)	static void name(void *data, int err)
#else
#define CRI_CRYPTO_CALLBACK(name, data)					\
	static void name##_data(void *data, int err);			\
	static void name(struct crypto_async_request *areq, int err)	\
	{								\
		name##_data(areq->data, err);				\
	}								\
	static void name##_data(void *data, int err)
#endif

#endif /* CRI_COMPAT_H */
