// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the device-mapper target.  Registration, constructor and
 * destructor, status and messages; the table grammar is in table.c, keys in
 * key.c, IVs in iv.c and the bio paths in io.c.
 *
 * The constructor builds in one direction and the error path unwinds in the
 * other, so a refused table leaves nothing allocated.
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "cri.h"

static void cri_dtr(struct dm_target *ti)
{
	struct cri_dev *cd = ti->private;

	if (!cd)
		return;
	cri_io_exit(cd);
	cri_put_key(cd);
	if (cd->tfm)
		crypto_free_skcipher(cd->tfm);
	if (cd->dev)
		dm_put_device(ti, cd->dev);
	free_percpu(cd->stats);
	cri_config_free(&cd->cfg);
	kfree_sensitive(cd);
	ti->private = NULL;
}

static int cri_alloc_tfm(struct cri_dev *cd, char **error)
{
	/* Synchronous or not, both work; dm-crypt asks the same of the API. */
	cd->tfm = crypto_alloc_skcipher(cd->cfg.crypto_name, 0, 0);
	if (IS_ERR(cd->tfm)) {
		int err = PTR_ERR(cd->tfm);

		cd->tfm = NULL;
		*error = "Error allocating crypto tfm (unknown cipher, chain mode or hash?)";
		return err;
	}
	return 0;
}

static int cri_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct cri_dev *cd;
	int err;

	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd) {
		ti->error = "Cannot allocate crypt-inline context";
		return -ENOMEM;
	}
	ti->private = cd;

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
	err = cri_alloc_tfm(cd, &ti->error);
	if (err)
		goto bad;
	err = cri_iv_check(cd, &ti->error);
	if (err)
		goto bad;
	err = cri_load_key(cd, &ti->error);
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
	return 0;

bad:
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
		cri_emit_table(&cd->cfg, cd->dev->name, result, maxlen);
		break;
	default:
		break;
	}
}

/*
 * "inline on|off|read|write": switch paths at runtime, with no reload.
 * Bios already mapped keep the path they started on; the table line shows
 * the new mode, so a later reload keeps it.
 */
static int cri_message_inline(struct cri_dev *cd, const char *mode)
{
	static DEFINE_MUTEX(lock);
	unsigned long flags;
	int err;

	mutex_lock(&lock);
	flags = cd->cfg.flags;
	err = cri_inline_flags(mode, &flags);
	if (!err)
		WRITE_ONCE(cd->cfg.flags, flags);
	mutex_unlock(&lock);
	if (err)
		DMWARN("inline: mode must be on, off, read or write");
	return err;
}

/*
 * "key wipe" and "key set <key>", only while suspended: what cryptsetup
 * luksSuspend and luksResume send, as to dm-crypt.
 */
static int cri_message_key(struct dm_target *ti, unsigned int argc,
			   char **argv)
{
	struct cri_dev *cd = ti->private;
	char *error = NULL;
	int err;

	if (!dm_suspended(ti)) {
		DMWARN("not suspended during key manipulation");
		return -EINVAL;
	}
	if (argc == 2 && !strcasecmp(argv[1], "wipe")) {
		cri_wipe_key(cd);
		return 0;
	}
	if (argc == 3 && !strcasecmp(argv[1], "set")) {
		err = cri_set_key(cd, argv[2], &error);
		if (err)
			DMWARN("key set refused: %s", error ?: "out of memory");
		return err;
	}
	DMWARN("key: expected \"key wipe\" or \"key set <key>\"");
	return -EINVAL;
}

static int cri_message(struct dm_target *ti, unsigned int argc, char **argv,
		       char *result, unsigned int maxlen)
{
	if (argc == 2 && !strcasecmp(argv[0], "inline"))
		return cri_message_inline(ti->private, argv[1]);
	if (argc >= 2 && !strcasecmp(argv[0], "key"))
		return cri_message_key(ti, argc, argv);
	DMWARN("unrecognised message: expected inline or key");
	return -EINVAL;
}

/* As dm-crypt: a device whose key was wiped does not resume. */
static int cri_preresume(struct dm_target *ti)
{
	struct cri_dev *cd = ti->private;

	if (!cd->key_valid) {
		DMERR("aborting resume - crypt key is not set");
		return -EAGAIN;
	}
	return 0;
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
}

static struct target_type cri_target = {
	.name		= "crypt-inline",
	.version	= {0, 1, 0},
	.module		= THIS_MODULE,
	.ctr		= cri_ctr,
	.dtr		= cri_dtr,
	.map		= cri_map,
	.status		= cri_status,
	.message	= cri_message,
	.preresume	= cri_preresume,
	.iterate_devices = cri_iterate_devices,
	.io_hints	= cri_io_hints,
};

static int __init cri_init(void)
{
	int err;

	err = cri_keyring_init();
	if (err)
		return err;
	cri_io_global_init();
	err = dm_register_target(&cri_target);
	if (err) {
		cri_io_global_exit();
		cri_keyring_exit();
	}
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

MODULE_DESCRIPTION(DM_NAME " target reading dm-crypt's table, with crypto inline on the IO path");
MODULE_LICENSE("GPL");
