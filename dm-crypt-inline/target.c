// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the device-mapper target.  Registration, constructor and
 * destructor, status and messages; the table grammar is in table.c (its
 * <key> field in keyspec.c), keys in key.c, IVs in iv.c, the status line in
 * status.c, the path decision in path.c and the bio paths in io.c (with
 * crypt.c, pages.c, tags.c and defer.c).
 *
 * The constructor builds in one direction and the error path unwinds in the
 * other, so a refused table leaves nothing allocated.
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "cri.h"

static void cri_free_tfms(struct cri_dev *cd)
{
	unsigned int i;

	for (i = 0; cd->tfms && i < cd->cfg.key_count; i++)
		if (cd->tfms[i])
			crypto_free_skcipher(cd->tfms[i]);
	kfree(cd->tfms);
	cd->tfms = NULL;
	if (cd->aead)
		crypto_free_aead(cd->aead);
	cd->aead = NULL;
}

static void cri_free(struct dm_target *ti)
{
	struct cri_dev *cd = ti->private;

	cri_io_exit(cd);
	cri_integrity_exit(cd);
	cri_put_key(cd);
	cri_iv_exit(cd);
	cri_free_tfms(cd);
	kfree_sensitive(cd->wipe_key);
	if (cd->dev)
		dm_put_device(ti, cd->dev);
	free_percpu(cd->stats);
	cri_config_free(&cd->cfg);
	mutex_destroy(&cd->lock);
	kfree_sensitive(cd);
	ti->private = NULL;
}

/* As dm-crypt, the audit record follows the teardown. */
static void cri_dtr(struct dm_target *ti)
{
	if (!ti->private)
		return;
	cri_free(ti);
	cri_audit_dtr(ti);
}

/*
 * integrity:<n>:aead: one AEAD tfm (capi: has no keycount), allocated as
 * dm-crypt allocates it.
 */
static int cri_alloc_aead(struct cri_dev *cd, char **error)
{
	struct crypto_aead *tfm;

	tfm = crypto_alloc_aead(cd->cfg.crypto_name, 0,
				CRYPTO_ALG_ALLOCATES_MEMORY);
	if (IS_ERR(tfm)) {
		*error = CRI_ERR_TFM "unknown AEAD, mode or hash?";
		return PTR_ERR(tfm);
	}
	cd->aead = tfm;
	return 0;
}

/*
 * One tfm per key of "cipher:<keycount>", as dm-crypt: sector n uses tfm
 * n mod keycount.  Synchronous or not, both work.  As dm-crypt, no
 * implementation that allocates memory per request: under memory pressure
 * it would turn writeback into IO errors.
 */
static int cri_alloc_tfms(struct cri_dev *cd, char **error)
{
	struct crypto_skcipher *tfm;
	unsigned int i;
	int err;

	err = cri_mac_key_init(cd, error);
	if (err)
		return err;
	if (cd->cfg.aead)
		return cri_alloc_aead(cd, error);
	cd->tfms = kcalloc(cd->cfg.key_count, sizeof(*cd->tfms), GFP_KERNEL);
	if (!cd->tfms) {
		*error = CRI_ERR_TFM "out of memory";
		return -ENOMEM;
	}
	for (i = 0; i < cd->cfg.key_count; i++) {
		tfm = crypto_alloc_skcipher(cd->cfg.crypto_name, 0,
					    CRYPTO_ALG_ALLOCATES_MEMORY);
		if (IS_ERR(tfm)) {
			*error = CRI_ERR_TFM "unknown cipher, mode or hash?";
			return PTR_ERR(tfm);
		}
		cd->tfms[i] = tfm;
	}
	return 0;
}

/*
 * A host-managed zoned device takes writes in order within each zone.  As
 * dm-crypt does: writes never go to the write thread, which sorts them (the
 * table shows no_write_workqueue, which the "inline" message then keeps),
 * and dm core turns zone appends into ordinary writes, since an append's
 * sector, and so its IV, is known only once the device has written it.
 * From 6.10 large writes may still be spread to a worker (cri_spreads()):
 * zone write plugging lets one write per zone be in flight, so they reach
 * the zone in the submitter's order.  Before 6.10 dm core follows the
 * write pointer around map(), which then submits every zoned write itself
 * (cri_zoned_writes_in_map()).
 */
static void cri_setup_zoned(struct cri_dev *cd, struct dm_target *ti)
{
	if (!bdev_is_zoned(cd->dev->bdev))
		return;
	cd->zoned = true;
	__set_bit(CRI_NO_WRITE_WORKQUEUE, &cd->cfg.flags);
	ti->emulate_zone_append = true;
}

static int cri_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct cri_dev *cd;
	int err;

	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd) {
		ti->error = "Cannot allocate encryption context";
		return -ENOMEM;
	}
	ti->private = cd;
	mutex_init(&cd->lock);
	cd->md = dm_table_get_md(ti->table);

	err = cri_parse_table(&cd->cfg, argc, argv, &ti->error);
	if (err)
		goto bad;
	err = cri_check_alignment(&cd->cfg, ti->len, &ti->error);
	if (err)
		goto bad;
	cd->sector_shift = __ffs(cd->cfg.sector_size) - SECTOR_SHIFT;

	err = dm_get_device(ti, cd->cfg.dev_path, dm_table_get_mode(ti->table),
			    &cd->dev);
	if (err) {
		ti->error = "Device lookup failed";
		goto bad;
	}
	err = cri_alloc_tfms(cd, &ti->error);
	if (err)
		goto bad;
	err = cri_iv_init(cd, &ti->error);
	if (err)
		goto bad;
	err = cri_load_key(cd, &ti->error);
	if (err)
		goto bad;
	err = cri_integrity_init(cd, &ti->error);
	if (err)
		goto bad;

	cd->stats = alloc_percpu(struct cri_stats);
	if (!cd->stats) {
		ti->error = "Cannot allocate counters";
		err = -ENOMEM;
		goto bad;
	}
	err = cri_io_init(cd, ti, &ti->error);
	if (err)
		goto bad;

	cri_setup_zoned(cd, ti);
	ti->num_flush_bios = 1;
	ti->accounts_remapped_io = true;
	/*
	 * As dm-crypt: every write needs pages from our mempool, so cap the
	 * number of swap bios in flight or swapping onto us can deadlock.
	 * Loading the first such table also flips a static key in dm core;
	 * doing it here, at create, keeps that text patching off a busy path.
	 */
	ti->limit_swap_bios = true;
	if (test_bit(CRI_ALLOW_DISCARDS, &cd->cfg.flags))
		ti->num_discard_bios = 1;
	cri_audit_ctr(ti, true);
	return 0;

bad:
	/*
	 * Audited as dm-crypt audits a refused table: a ctr record with the
	 * reason, then the dtr of its unwinding; not when too few arguments
	 * were given, which dm-crypt refuses before it audits anything.
	 */
	if (argc < 5) {
		cri_free(ti);
		return err;
	}
	cri_audit_ctr(ti, false);
	cri_dtr(ti);
	return err;
}

static void cri_status(struct dm_target *ti, status_type_t type,
		       unsigned int status_flags, char *result,
		       unsigned int maxlen)
{
	struct cri_dev *cd = ti->private;
	struct cri_stats sum;

	switch (type) {
	case STATUSTYPE_INFO:
		cri_sum_stats(cd->stats, &sum);
		cri_emit_status(&sum, result, maxlen);
		break;
	case STATUSTYPE_TABLE:
		/* A "key set" may be replacing the key description. */
		mutex_lock(&cd->lock);
		cri_emit_table_keyed(cd, result, maxlen);
		mutex_unlock(&cd->lock);
		break;
	case STATUSTYPE_IMA:
		mutex_lock(&cd->lock);
		cri_emit_ima(cd, ti->type, result, maxlen);
		mutex_unlock(&cd->lock);
		break;
	}
}

/*
 * "inline on|off|read|write|auto": switch paths at runtime, with no reload.
 * "auto" is both directions inline with large IO spread (cri_spreads()),
 * what "on" means for the drop-in; crypt-inline's "on" never spreads.
 * Bios already mapped keep the path they started on; the table line shows
 * the new mode, so a later reload keeps it.  cd->lock held.
 */
static int cri_message_inline(struct cri_dev *cd, const char *mode,
			      char **error)
{
	unsigned long flags = cd->cfg.flags;
	int err;

	err = cri_inline_flags(mode, &flags);
	if (err) {
		*error = "inline: mode must be on, off, read, write or auto";
		return err;
	}
	if (cd->zoned && !(flags & (BIT(CRI_FORCE_INLINE) |
				    BIT(CRI_NO_WRITE_WORKQUEUE)))) {
		*error = "inline: writes to a zoned device are never queued (on, write or auto)";
		return -EINVAL;
	}
	WRITE_ONCE(cd->cfg.flags, flags);
	return 0;
}

static int cri_message(struct dm_target *ti, unsigned int argc, char **argv,
		       char *result, unsigned int maxlen)
{
	struct cri_dev *cd = ti->private;
	char *error = NULL;
	int err = -EINVAL;

	mutex_lock(&cd->lock);
	if (argc == 2 && !strcasecmp(argv[0], "inline"))
		err = cri_message_inline(cd, argv[1], &error);
	else if (argc >= 2 && !strcasecmp(argv[0], "key"))
		err = cri_key_message(cd, argc, argv, &error);
	else
		error = "unrecognised message received: expected inline or key";
	mutex_unlock(&cd->lock);
	if (err)
		DMWARN("%s: %s", dm_table_device_name(ti->table),
		       error ?: "out of memory");
	return err;
}

/*
 * Key messages are accepted from here until the next resume starts.  dm
 * core calls postsuspend once no bio of ours is left in flight.
 */
static void cri_postsuspend(struct dm_target *ti)
{
	struct cri_dev *cd = ti->private;

	mutex_lock(&cd->lock);
	cd->suspended = true;
	mutex_unlock(&cd->lock);
}

/*
 * As dm-crypt, a device whose key was wiped does not resume.  Key messages
 * are refused from here on, not only from .resume: one accepted between
 * the two would let the device resume without a key.  (Should another
 * target of the table then refuse to resume, the device stays suspended
 * with key messages refused until the next try: the safe side.)
 */
static int cri_preresume(struct dm_target *ti)
{
	struct cri_dev *cd = ti->private;
	int err = 0;

	mutex_lock(&cd->lock);
	if (cd->key_valid)
		cd->suspended = false;
	else
		err = -EAGAIN;
	mutex_unlock(&cd->lock);
	if (err)
		DMERR("aborting resume - crypt key is not set.");
	return err;
}

static int cri_iterate_devices(struct dm_target *ti,
			       iterate_devices_callout_fn fn, void *data)
{
	struct cri_dev *cd = ti->private;

	return fn(ti, cd->dev, cd->cfg.start, ti->len, data);
}

static void cri_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct cri_dev *cd = ti->private;
	unsigned int size = cd->cfg.sector_size;

	limits->logical_block_size = max_t(unsigned int,
					   limits->logical_block_size, size);
	limits->physical_block_size = max_t(unsigned int,
					    limits->physical_block_size, size);
	limits->io_min = max_t(unsigned int, limits->io_min, size);
	/*
	 * As dm-crypt: buffers aligned to the sector size, so that no crypto
	 * sector straddles two bio_vecs.
	 */
	limits->dma_alignment = limits->logical_block_size - 1;
	/*
	 * Zoned writes are not split on 6.10+ (cri_zoned_writes_unsplit()),
	 * so dm core must keep them within one ciphertext clone, as dm-crypt
	 * asks.  On 6.1 zone appends are bounded by their own limit: kept
	 * within one clone too, so that map() never cuts an emulated append
	 * (6.10+ derives the append limit from max_hw_sectors).
	 */
	if (cd->zoned) {
		unsigned int clone = BIO_MAX_VECS << PAGE_SECTORS_SHIFT;

		limits->max_hw_sectors = min(limits->max_hw_sectors, clone);
		limits->max_sectors = min(limits->max_sectors, clone);
		limits->max_zone_append_sectors =
			min_not_zero(limits->max_zone_append_sectors, clone);
	}
}

#ifdef CONFIG_BLK_DEV_ZONED
static int cri_report_zones(struct dm_target *ti,
			    struct dm_report_zones_args *args,
			    unsigned int nr_zones)
{
	struct cri_dev *cd = ti->private;

	return dm_report_zones(cd->dev->bdev, cd->cfg.start,
			       cd->cfg.start + dm_target_offset(ti, args->next_sector),
			       args, nr_zones);
}
#else
#define cri_report_zones NULL
#endif

/* Name and version come from cri_flavour, at init. */
static struct target_type cri_target = {
	.module		= THIS_MODULE,
	.features	= DM_TARGET_ZONED_HM,
	.report_zones	= cri_report_zones,
	.ctr		= cri_ctr,
	.dtr		= cri_dtr,
	.map		= cri_map,
	.status		= cri_status,
	.message	= cri_message,
	.postsuspend	= cri_postsuspend,
	.preresume	= cri_preresume,
	.iterate_devices = cri_iterate_devices,
	.io_hints	= cri_io_hints,
};

static int __init cri_init(void)
{
	int err;

	cri_target.name = cri_flavour.name;
	memcpy(cri_target.version, cri_flavour.version,
	       sizeof(cri_target.version));
	err = cri_keyring_init();
	if (err)
		return err;
	err = cri_io_global_init();
	if (err)
		goto err_keyring;
	err = dm_register_target(&cri_target);
	if (err)
		goto err_io;
	return 0;

err_io:
	cri_io_global_exit();
err_keyring:
	cri_keyring_exit();
	return err;
}

static void __exit cri_exit(void)
{
	dm_unregister_target(&cri_target);
	cri_io_global_exit();
	cri_keyring_exit();
}

module_init(cri_init);
module_exit(cri_exit);

MODULE_DESCRIPTION(DM_NAME " " CRI_MODULE_DESCRIPTION);
MODULE_LICENSE("GPL");
