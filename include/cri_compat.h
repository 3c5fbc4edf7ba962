/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-version differences, in one place, so the code reads as if written
 * for one kernel.  Each helper names the version that changed.
 */
#ifndef CRI_COMPAT_H
#define CRI_COMPAT_H

#include <linux/version.h>
#include <crypto/skcipher.h>
#include <linux/blk-integrity.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/mempool.h>
#include <linux/workqueue.h>

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

/*
 * Key types that exist only where the kernel was built with them (Debian's
 * 6.1 and 6.12 have encrypted keys built in and no trusted keys).  Each
 * cri_key_type_X() is NULL where X is missing; cri_X_payload() gives the key
 * bytes of a key of that type, called with key->sem held.
 */
#include <linux/key.h>

#if IS_REACHABLE(CONFIG_ENCRYPTED_KEYS)
#include <keys/encrypted-type.h>
static inline struct key_type *cri_key_type_encrypted(void)
{
	return &key_type_encrypted;
}

static inline const u8 *cri_encrypted_payload(const struct key *key,
					      unsigned int *len)
{
	const struct encrypted_key_payload *ekp = dereference_key_locked(key);

	if (!ekp)
		return NULL;
	*len = ekp->decrypted_datalen;
	return ekp->decrypted_data;
}
#else
static inline struct key_type *cri_key_type_encrypted(void)
{
	return NULL;
}

static inline const u8 *cri_encrypted_payload(const struct key *key,
					      unsigned int *len)
{
	return NULL;
}
#endif

#if IS_REACHABLE(CONFIG_TRUSTED_KEYS)
#include <keys/trusted-type.h>
static inline struct key_type *cri_key_type_trusted(void)
{
	return &key_type_trusted;
}

static inline const u8 *cri_trusted_payload(const struct key *key,
					    unsigned int *len)
{
	const struct trusted_key_payload *tkp = dereference_key_locked(key);

	if (!tkp)
		return NULL;
	*len = tkp->key_len;
	return tkp->key;
}
#else
static inline struct key_type *cri_key_type_trusted(void)
{
	return NULL;
}

static inline const u8 *cri_trusted_payload(const struct key *key,
					    unsigned int *len)
{
	return NULL;
}
#endif

/*
 * Whether a mempool's reserve is full.  Newer kernels have
 * mempool_is_saturated() with this very test; 6.1 does not.
 */
static inline bool cri_mempool_is_saturated(mempool_t *pool)
{
	return READ_ONCE(pool->curr_nr) >= pool->min_nr;
}

/*
 * dm-audit's record of a target's construction or destruction.  dm core
 * exports dm_audit_log_ti() where CONFIG_DM_AUDIT is set, but declares it
 * in a header private to drivers/md; the prototype here is that one.
 */
struct dm_target;
#if IS_ENABLED(CONFIG_DM_AUDIT)
void dm_audit_log_ti(int audit_type, const char *dm_msg_prefix, const char *op,
		     struct dm_target *ti, int result);
static inline void cri_dm_audit_ti(int audit_type, const char *prefix,
				   const char *op, struct dm_target *ti,
				   int result)
{
	dm_audit_log_ti(audit_type, prefix, op, ti, result);
}
#else
static inline void cri_dm_audit_ti(int audit_type, const char *prefix,
				   const char *op, struct dm_target *ti,
				   int result)
{
}
#endif

/*
 * Zoned writes: from 6.10 block layer zone write plugging holds a zone's
 * writes, and a write split by a target could deadlock a queue freeze; so
 * dm-crypt splits none there, and io_hints keeps them to one clone.  6.1
 * has no plugging and dm core does not apply the queue's limits to bios of
 * a dm device: writes are split in map(), as 6.1's dm-crypt splits them.
 */
static inline bool cri_zoned_writes_unsplit(void)
{
	return LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0);
}

/*
 * Before 6.10, dm core follows a zone's write pointer around map(): it
 * advances its copy once map() returns, and at the clone's completion
 * unlocks the zone and derives an emulated zone append's sector from that
 * copy.  A zoned write must therefore reach the device from map() itself,
 * as 6.1's dm-crypt submits it (waiting there for asynchronous crypto):
 * one completing before map() returns would leave the next writer of the
 * zone a stale write pointer (EIO) or give an append a wrong sector.  Zone
 * write plugging (6.10+) takes the write pointer from the device instead.
 */
static inline bool cri_zoned_writes_in_map(void)
{
	return !cri_zoned_writes_unsplit();
}

/*
 * Add a buffer of metadata tuples to a bio's integrity payload.  6.12's
 * bio_integrity_add_page() counts the bytes into bip_iter.bi_size; 6.1's
 * does not, and its dm-crypt sets the size itself.  A payload of size 0
 * with a bio that dm core then trims (a split beneath us) WARNs in
 * bio_integrity_advance and leaves the tags off their sectors.
 */
static inline bool cri_bip_add_tags(struct bio *bio, void *tags,
				    unsigned int len)
{
	if (bio_integrity_add_page(bio, virt_to_page(tags), len,
				   offset_in_page(tags)) != len)
		return false;
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
	bio_integrity(bio)->bip_iter.bi_size = len;
#endif
	return true;
}

/*
 * Work run in softirq context on the CPU that scheduled it.  6.9 added BH
 * workqueues (system_bh_wq) to replace tasklets, and dm-crypt moved its
 * hard-IRQ deferral to them then; 6.1 has only tasklets.  Either core
 * touches the struct after the callback returns, so a struct cri_bh must
 * outlive every callback: keep it static, never in a bio's data.  The
 * callback never runs twice at once, on any CPU.
 */
struct cri_bh {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	struct work_struct work;
#else
	struct tasklet_struct tasklet;
#endif
	void (*fn)(struct cri_bh *bh);
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
static inline void cri_bh_run(struct work_struct *work)
{
	struct cri_bh *bh = container_of(work, struct cri_bh, work);

	bh->fn(bh);
}

static inline void cri_bh_init(struct cri_bh *bh, void (*fn)(struct cri_bh *))
{
	bh->fn = fn;
	INIT_WORK(&bh->work, cri_bh_run);
}

/* Called with preemption or migration disabled (hard IRQ, softirq). */
static inline void cri_bh_schedule(struct cri_bh *bh)
{
	queue_work_on(smp_processor_id(), system_bh_wq, &bh->work);
}

/* Nothing schedules it any more: wait for a callback still running. */
static inline void cri_bh_kill(struct cri_bh *bh)
{
	flush_work(&bh->work);
}
#else
static inline void cri_bh_run(struct tasklet_struct *t)
{
	struct cri_bh *bh = container_of(t, struct cri_bh, tasklet);

	bh->fn(bh);
}

static inline void cri_bh_init(struct cri_bh *bh, void (*fn)(struct cri_bh *))
{
	bh->fn = fn;
	tasklet_setup(&bh->tasklet, cri_bh_run);
}

static inline void cri_bh_schedule(struct cri_bh *bh)
{
	tasklet_schedule(&bh->tasklet);
}

static inline void cri_bh_kill(struct cri_bh *bh)
{
	tasklet_kill(&bh->tasklet);
}
#endif

#endif /* CRI_COMPAT_H */
