/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel's own dm-crypt does on each kernel version, where the
 * drop-in must do the same: its target version, its workqueue names, the
 * table features it knows, how it cuts IO, what it records for IMA, and
 * which integrity profiles it takes.  Kernel-API differences are in
 * cri_compat.h.
 */
#ifndef CRI_DMCRYPT_H
#define CRI_DMCRYPT_H

#include <linux/version.h>
#include <linux/blk-integrity.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/workqueue.h>

/*
 * In-tree dm-crypt's target version on each kernel.  The drop-in reports
 * it: cryptsetup decides by the version what the kernel's crypt target can
 * do (keyring keys, sector_size, the perf flags).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define CRI_DM_CRYPT_VERSION	{1, 28, 0}
#else
#define CRI_DM_CRYPT_VERSION	{1, 24, 0}
#endif

/*
 * How the running kernel's dm-crypt names a device's workqueues, for
 * cri_wq_name(): 6.1's "kcryptd/253:0"; 6.12's "kcryptd-253:0-1", where the
 * last number is a module-wide id from 1 that keeps the names of a
 * reload's old and new table apart, since 6.12 gives each queue a sysfs
 * directory of that name (WQ_SYSFS: cpumask, nice, max_active).  A
 * workqueue name is cut at 23 characters on 6.1, at 31 on 6.12.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define CRI_WQ_SYSFS	WQ_SYSFS
static inline void cri_wq_name(char *buf, size_t len, const char *base,
			       const char *flavour, const char *dev, int id)
{
	snprintf(buf, len, "%s%s-%s-%d", base, flavour, dev, id);
}
#else
#define CRI_WQ_SYSFS	0
static inline void cri_wq_name(char *buf, size_t len, const char *base,
			       const char *flavour, const char *dev, int id)
{
	snprintf(buf, len, "%s%s/%s", base, flavour, dev);
}
#endif

/*
 * integrity_key_size came to dm-crypt with target version 1.28 (6.11);
 * before that dm-crypt refuses it as an unknown feature, and so do we:
 * a table the kernel's dm-crypt would refuse must not load here either.
 */
static inline bool cri_has_integrity_key_size(void)
{
	return LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0);
}

/*
 * dm-crypt cuts reads and writes at max_read_size/max_write_size (128 KiB
 * by default) from 6.11; before, it sent a read whole to its workqueue and
 * cut a write only at one clone (BIO_MAX_VECS pages).
 */
static inline bool cri_dmcrypt_has_max_io_size(void)
{
	return LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0);
}

/*
 * dm-crypt's dm-ima text gained "high_priority=" with the flag in 6.10; the
 * target records what the running kernel's dm-crypt records.
 */
static inline bool cri_ima_has_high_priority(void)
{
	return LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0);
}

/*
 * The integrity profile of the device beneath an integrity table, judged
 * as the running kernel's dm-crypt judges it; returns its reason for a
 * refusal, or NULL with the bytes of metadata per sector in *tuple and, in
 * *exact, whether the tag and stored IV must fill all of it.  6.1 wants
 * dm-integrity's "DM-DIF-EXT-TAG" profile of exactly @used bytes; 6.12
 * (profiles gave way to a checksum type in 6.11) takes any profile without
 * a checksum that has at least @used bytes.  6.11 is neither: this code is
 * built for 6.1 and 6.12 only (include/cri_stub.mk).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static inline const char *cri_integrity_profile(struct block_device *bdev,
						unsigned int used,
						unsigned int sector_size,
						unsigned int *tuple,
						bool *exact)
{
	struct blk_integrity *bi = blk_get_integrity(bdev->bd_disk);

	if (!bi || bi->csum_type != BLK_INTEGRITY_CSUM_NONE)
		return "Integrity profile not supported.";
	if (bi->tuple_size < used)
		return "Integrity profile tag size mismatch.";
	if (1U << bi->interval_exp != sector_size)
		return "Integrity profile sector size mismatch.";
	*tuple = bi->tuple_size;
	*exact = false;
	return NULL;
}
#else
static inline const char *cri_integrity_profile(struct block_device *bdev,
						unsigned int used,
						unsigned int sector_size,
						unsigned int *tuple,
						bool *exact)
{
	struct blk_integrity *bi = blk_get_integrity(bdev->bd_disk);

	if (!bi || strcasecmp(bi->profile->name, "DM-DIF-EXT-TAG"))
		return "Integrity profile not supported.";
	if (bi->tag_size != used || bi->tuple_size != used)
		return "Integrity profile tag size mismatch.";
	if (1U << bi->interval_exp != sector_size)
		return "Integrity profile sector size mismatch.";
	*tuple = bi->tuple_size;
	*exact = true;
	return NULL;
}
#endif

#endif /* CRI_DMCRYPT_H */
