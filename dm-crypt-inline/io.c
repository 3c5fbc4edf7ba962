// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the bio paths: map(), where each bio's crypto runs, how it
 * is cut, its completion, and each device's IO set-up.  The crypto of a bio
 * is in crypt.c, its pages in pages.c, its integrity metadata in tags.c,
 * and what runs later elsewhere (hard-IRQ reads, the write thread) in
 * defer.c.
 *
 * Writes are encrypted from the caller's bio into pages of our own (the
 * caller's data must stay plaintext) and the clone goes to the backing
 * device.  Reads go to the backing device in dm's own clone of the caller's
 * bio, whose completion is hooked, and are decrypted in place when they
 * complete: unlike in-tree dm-crypt, which clones every read a second time,
 * a read costs no bio allocation here.
 *
 * Where the crypto runs is the point of this target:
 *  - inline (force_inline, or no_write_workqueue / no_read_workqueue for one
 *    direction): writes in map(), the submitter's context; reads in the
 *    completion context, except that a completion in hard-IRQ context or
 *    with IRQs disabled is deferred to BH work (softirq), never to the
 *    workqueue: the crypto API must not be called there; under
 *    no_read_workqueue without force_inline, large reads go to the
 *    workqueue anyway, to use every CPU, and so do large writes under
 *    no_write_workqueue (cri_spreads());
 *  - queued: on the device's workqueue, as in-tree dm-crypt does by default,
 *    with writes then submitted in sector order by one thread.
 *
 * Reads and writes are split at max_read_size/max_write_size, as in-tree
 * dm-crypt splits them since 6.11: a read is decrypted in one piece, so its
 * size bounds the time spent in softirq.  On 6.1, as its dm-crypt, writes
 * are cut only at one clone (1 MiB); reads, which that dm-crypt does not
 * cut, at 128 KiB where they are decrypted inline and at 1 MiB on the
 * workqueue (cri_read_bound()).
 */

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "cri.h"
#include "cri_compat.h"
#include "cri_dmcrypt.h"
#include "io.h"

#define CRI_MIN_IOS		64
#define CRI_DEFAULT_MAX_IO	(128 * 1024)

/*
 * dm-crypt's parameters of the same names (6.11+), with its meaning: 0 is
 * the default of 128 KiB (before 6.11, one clone for writes, as that
 * dm-crypt, and for reads decrypted in a worker: cri_read_bound()), and a
 * value can lower the bound, not raise it.
 */
static unsigned int max_read_size;
module_param(max_read_size, uint, 0644);
MODULE_PARM_DESC(max_read_size, "Maximum size of a read request");
static unsigned int max_write_size;
module_param(max_write_size, uint, 0644);
MODULE_PARM_DESC(max_write_size, "Maximum size of a write request");
/*
 * Ours: see cri_spreads().  128 sectors of 512 bytes; a 1 MiB write or
 * read, split at 128 KiB from 6.11, is done by eight work items (one before:
 * cri_write_bound(), cri_read_bound()).
 */
static unsigned int read_spread_min = 64 * 1024;
module_param(read_spread_min, uint, 0644);
MODULE_PARM_DESC(read_spread_min,
		 "Reads this large (bytes) under no_read_workqueue are decrypted on the workqueue; 0: never");
static unsigned int write_spread_min = 64 * 1024;
module_param(write_spread_min, uint, 0644);
MODULE_PARM_DESC(write_spread_min,
		 "Writes this large (bytes) under no_write_workqueue are encrypted on the workqueue; 0: never");

/* Whether the flags word puts this direction's crypto inline. */
static bool cri_inline(unsigned long flags, bool write)
{
	return flags & (BIT(CRI_FORCE_INLINE) |
			BIT(write ? CRI_NO_WRITE_WORKQUEUE : CRI_NO_READ_WORKQUEUE));
}

static void cri_end_base(struct cri_io *io)
{
	if (io->status)
		this_cpu_inc(io->cd->stats->errors);
	if (!io->write && io->clone) {
		cri_free_pages(io->cd, io->clone);
		bio_put(io->clone);
	} else if (!io->write) {
		io->base->bi_end_io = io->base_end_io;
	}
	if (io->tags)
		cri_put_tags(io);
	io->base->bi_status = io->status;
	bio_endio(io->base);
}

void cri_write_endio(struct bio *clone)
{
	struct cri_io *io = clone->bi_private;

	if (!io->status)
		io->status = clone->bi_status;
	cri_free_pages(io->cd, clone);
	bio_put(clone);
	cri_end_base(io);
}

/* The crypto of a bio is finished: send the write, or end the read. */
void cri_crypt_done(struct cri_io *io)
{
	if (!io->write) {
		cri_end_base(io);
		return;
	}
	if (io->status) {
		cri_write_endio(io->clone);
		return;
	}
	io->clone->bi_iter.bi_sector = io->base->bi_iter.bi_sector;
	/* Never in a crypto callback: those hand over to the workqueue. */
	if (io->queued && !test_bit(CRI_SUBMIT_FROM_CRYPT_CPUS, &io->cd->cfg.flags))
		cri_queue_write(io);
	else
		dm_submit_bio_remap(io->base, io->clone);
}

/* A read came back from the device: decrypt it where the path says. */
static void cri_read_done(struct cri_io *io, blk_status_t status)
{
	struct cri_dev *cd = io->cd;

	if (status) {
		io->status = status;
		cri_crypt_done(io);
		return;
	}
	/*
	 * The path was chosen at map time: a runtime switch spares bios in
	 * flight.  A read in a clone of ours holds pages of the pool that
	 * writes on crypt_wq may be waiting for, so it must never queue
	 * behind them: it goes to cont_wq, whose work never allocates.
	 */
	if (io->queued) {
		INIT_WORK(&io->work, cri_read_work);
		queue_work(io->clone ? cd->cont_wq : cd->crypt_wq, &io->work);
		return;
	}
	/*
	 * A large read that no_read_workqueue put inline: spread over the
	 * CPUs through cont_wq (unbound, never allocating), whatever the
	 * context.  Queueing work is allowed in hard IRQ.
	 */
	if (io->spread) {
		INIT_WORK(&io->work, cri_read_work);
		queue_work(cd->cont_wq, &io->work);
		return;
	}
	if (in_hardirq() || irqs_disabled()) {
		this_cpu_inc(cd->stats->deferred_bios);
		cri_defer_read(io);
		return;
	}
	cri_start_crypt(io, false);
}

static void cri_read_endio(struct bio *bio)
{
	cri_read_done(bio->bi_private, bio->bi_status);
}

static void cri_clone_read_endio(struct bio *clone)
{
	cri_read_done(clone->bi_private, clone->bi_status);
}

/*
 * Reads of an integrity table go down in a clone of our own, with the
 * metadata, and are decrypted from its pages into the caller's.  A tag is
 * then checked against data nobody else can change meanwhile (in place, a
 * caller rewriting its buffer during an O_DIRECT read could fail an
 * authentic sector; dm-crypt then reads it again into pages of its own),
 * and a sector that fails leaves zeroes, not the cipher's output.
 */
static void cri_submit_clone_read(struct cri_io *io)
{
	io->clone = cri_alloc_clone(io);
	io->clone->bi_end_io = cri_clone_read_endio;
	if (io->status) {
		cri_end_base(io);
		return;
	}
	io->in = io->clone;
	io->out = io->base;
	io->iter_out = io->iter_in;
	io->iter_in = io->clone->bi_iter;
	dm_submit_bio_remap(io->base, io->clone);
}

/*
 * Reads: dm's clone goes down as it is, its completion hooked as dm-verity
 * does, and cri_end_base() gives it back to dm.  io->iter_in was saved at
 * map time: the device below may advance the bio's iterator on completion.
 */
static void cri_submit_read(struct cri_io *io)
{
	struct bio *bio = io->base;

	if (io->tags) {
		cri_submit_clone_read(io);
		return;
	}
	io->base_end_io = bio->bi_end_io;
	bio->bi_end_io = cri_read_endio;
	bio->bi_private = io;
	bio_set_dev(bio, io->cd->dev->bdev);
	dm_submit_bio_remap(bio, NULL);
}

/*
 * The default bound of a read.  A read decrypted inline runs whole in
 * softirq, and 128 KiB bounds the time spent there.  One decrypted in a
 * worker (queued or spread) is cut as in-tree dm-crypt cuts it from 6.11,
 * at 128 KiB; before 6.11 dm-crypt cuts no reads, and we cut those only at
 * one clone's size (BIO_MAX_VECS pages), matching its one completion and
 * one work item per read (eight of each for a 1 MiB read cost about 7% of
 * its throughput under emulated NVMe).  cri_choose_path() spreads what was
 * cut for a worker.
 */
static unsigned int cri_read_bound(const struct bio *bio, unsigned long flags)
{
	unsigned int whole = min_t(unsigned int, bio->bi_iter.bi_size,
				   BIO_MAX_VECS << PAGE_SHIFT);

	if (cri_dmcrypt_has_max_io_size())
		return CRI_DEFAULT_MAX_IO;
	if (cri_inline(flags, false) &&
	    !cri_spreads(flags, false, whole, READ_ONCE(read_spread_min),
			 num_online_cpus()))
		return CRI_DEFAULT_MAX_IO;
	return BIO_MAX_VECS << PAGE_SHIFT;
}

/* A write's default bound: dm-crypt's on the running kernel. */
static unsigned int cri_write_bound(void)
{
	if (cri_dmcrypt_has_max_io_size())
		return CRI_DEFAULT_MAX_IO;
	return BIO_MAX_VECS << PAGE_SHIFT;
}

/*
 * The largest bio mapped in one piece, as dm-crypt computes it: the
 * parameter for its direction (lowering, never raising, the default bound;
 * a write's is cri_write_bound()'s, a read's cri_read_bound()'s, neither
 * more than one clone of BIO_MAX_VECS pages), rounded down to whole logical
 * blocks and encryption sectors.
 * Writes to a zoned device (the dm device is zoned: a table mapping only
 * conventional zones makes it not) are never split on 6.10+ (see
 * cri_zoned_writes_unsplit()) and on 6.1 only at one clone, as its
 * dm-crypt: io_hints keeps zone appends within one clone, so an emulated
 * append is never cut, which dm core would fail after map().
 */
static unsigned int cri_max_sectors(const struct cri_dev *cd,
				    const struct bio *bio, unsigned long flags)
{
	bool write = bio_data_dir(bio) == WRITE;
	unsigned int max, align;

	if (write && bdev_is_zoned(bio->bi_bdev)) {
		if (cri_zoned_writes_unsplit())
			return UINT_MAX;
		max = BIO_MAX_VECS << PAGE_SHIFT;
	} else if (write) {
		max = min_not_zero(READ_ONCE(max_write_size), cri_write_bound());
	} else {
		max = min_not_zero(READ_ONCE(max_read_size),
				   cri_read_bound(bio, flags));
	}
	align = max(bdev_logical_block_size(cd->dev->bdev), cd->cfg.sector_size);
	max = round_down(max, align);
	return max_t(unsigned int, max, align) >> SECTOR_SHIFT;
}

/*
 * Queued, inline or spread (inline, but on the workqueue: cri_spreads()),
 * from one look at the flags (cri_map()'s), which the "inline" message may
 * change: a switch never gives a bio queued and spread at once.
 */
static void cri_choose_path(struct cri_io *io, unsigned long flags)
{
	struct cri_dev *cd = io->cd;
	unsigned int spread_min;

	io->queued = !cri_inline(flags, io->write);
	if (io->queued) {
		this_cpu_inc(cd->stats->queued_bios);
		return;
	}
	this_cpu_inc(cd->stats->inline_bios);
	spread_min = io->write ? READ_ONCE(write_spread_min) :
				 READ_ONCE(read_spread_min);
	/*
	 * A read over the inline bound was cut for a worker (cri_read_bound())
	 * and goes to one, whatever read_spread_min or the CPUs say now.
	 */
	io->spread = cri_spreads(flags, io->write, io->base->bi_iter.bi_size,
				 spread_min, num_online_cpus()) ||
		     (!io->write && io->base->bi_iter.bi_size > CRI_DEFAULT_MAX_IO);
	/* A spread write is submitted by a worker, after map() returned. */
	if (io->write && cd->zoned && cri_zoned_writes_in_map())
		io->spread = false;
	if (!io->spread)
		return;
	this_cpu_inc(cd->stats->spread_bios);
	if (io->write)
		this_cpu_inc(cd->stats->spread_writes);
}

/*
 * A queued write is submitted by the write thread, a spread one by the
 * worker that encrypted it, as no_write_workqueue asks (cri_crypt_done()).
 */
static void cri_queue_crypt_write(struct cri_io *io)
{
	INIT_WORK(&io->work, cri_write_work);
	queue_work(io->cd->crypt_wq, &io->work);
}

/*
 * A zoned write on a kernel that wants it submitted from map()
 * (cri_zoned_writes_in_map()) waits here for an asynchronous tfm.
 */
static void cri_inline_crypt_write(struct cri_io *io)
{
	struct completion answer;

	/* Read by the tfm's callback only, so never after the last sector. */
	if (io->cd->zoned && cri_zoned_writes_in_map()) {
		init_completion(&answer);
		io->wait = &answer;
	}
	io->clone = cri_alloc_clone(io);
	cri_start_crypt(io, false);
}

/*
 * The target's map: data bios are cut to their bound, given their path
 * and handed on (a write's crypto may run here, in the submitter's
 * context); the rest is passed through or killed.
 */
int cri_map(struct dm_target *ti, struct bio *bio)
{
	struct cri_dev *cd = ti->private;
	unsigned int sector_mask = (cd->cfg.sector_size >> SECTOR_SHIFT) - 1;
	unsigned int max_sectors;
	unsigned long flags;
	struct cri_io *io;

	/*
	 * Flushes, empty bios (a bare FUA), discards and zone operations
	 * carry no data to transform: pass them on (a zone operation names
	 * its zone by its sector).
	 */
	if (unlikely(bio->bi_opf & REQ_PREFLUSH || !bio_sectors(bio) ||
		     bio_op(bio) == REQ_OP_DISCARD ||
		     op_is_zone_mgmt(bio_op(bio)))) {
		bio_set_dev(bio, cd->dev->bdev);
		if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
			bio->bi_iter.bi_sector = cd->cfg.start +
				dm_target_offset(ti, bio->bi_iter.bi_sector);
		return DM_MAPIO_REMAPPED;
	}
	/*
	 * Nothing else without data is asked of us (no write-zeroes or
	 * secure-erase bios), and dm core turns zone appends into writes:
	 * an append's IV would not be its sector's.
	 */
	if (unlikely(!bio_has_data(bio) || bio_op(bio) == REQ_OP_ZONE_APPEND))
		return DM_MAPIO_KILL;

	flags = READ_ONCE(cd->cfg.flags);
	max_sectors = cri_max_sectors(cd, bio, flags);
	if (bio_sectors(bio) > max_sectors) {
		dm_accept_partial_bio(bio, max_sectors);
		this_cpu_inc(cd->stats->split_bios);
	}

	if (unlikely((bio->bi_iter.bi_sector & sector_mask) ||
		     (bio->bi_iter.bi_size & (cd->cfg.sector_size - 1))))
		return DM_MAPIO_KILL;
	if (unlikely(!cd->key_valid))
		return DM_MAPIO_KILL;

	io = dm_per_bio_data(bio, cd->per_bio_size);
	io->cd = cd;
	io->base = bio;
	io->clone = NULL;
	io->status = BLK_STS_OK;
	io->crypt_err = 0;
	io->wait = NULL;
	io->write = bio_data_dir(bio) == WRITE;
	io->queued = false;
	io->spread = false;
	io->tags = NULL;
	io->tag_index = 0;
	io->tags_from_pool = false;
	if (cd->integ.tuple_size)
		cri_get_tags(io);
	io->iter_in = bio->bi_iter;
	io->iv_sector = dm_target_offset(ti, bio->bi_iter.bi_sector) +
			cd->cfg.iv_offset;
	bio->bi_iter.bi_sector = cd->cfg.start +
				 dm_target_offset(ti, bio->bi_iter.bi_sector);

	cri_choose_path(io, flags);
	if (!io->write)
		cri_submit_read(io);
	else if (io->queued || io->spread)
		cri_queue_crypt_write(io);
	else
		cri_inline_crypt_write(io);
	return DM_MAPIO_SUBMITTED;
}

/*
 * What follows struct cri_io: the tfm's request context, or the IV mode's;
 * for an AEAD, an aead_request with its context in the skcipher_request's
 * place.
 */
static unsigned int cri_req_extra(const struct cri_dev *cd)
{
	if (cd->aead)
		return sizeof(struct aead_request) + crypto_aead_reqsize(cd->aead);
	return max(crypto_skcipher_reqsize(cd->tfms[0]), cri_iv_reqsize(cd));
}

/* The ids in the workqueues' names (cri_wq_name()), as dm-crypt's. */
static DEFINE_IDA(cri_wq_ida);

/* A workqueue of @cd named as the running kernel's dm-crypt names it. */
static struct workqueue_struct *cri_alloc_wq(struct cri_dev *cd,
					     struct dm_target *ti,
					     const char *base,
					     unsigned int flags,
					     int max_active)
{
	char name[32];

	cri_wq_name(name, sizeof(name), base, cri_flavour.name_suffix,
		    dm_table_device_name(ti->table), cd->wq_id);
	return alloc_workqueue("%s", flags | CRI_WQ_SYSFS, max_active, name);
}

/*
 * A device's IO state: per-bio data size, bioset, pages, the workqueues
 * and the write thread, named as the running kernel's dm-crypt names them.
 * On failure everything taken is given back and *@error says what failed.
 */
int cri_io_init(struct cri_dev *cd, struct dm_target *ti, char **error)
{
	unsigned int wq_flags = WQ_MEM_RECLAIM;
	int max_active, err;

	/*
	 * As dm-crypt: the request context may be handed to DMA.  The IV
	 * modes' requests use the same memory between sectors.
	 */
	cd->per_bio_size = ALIGN(sizeof(struct cri_io) + cri_req_extra(cd),
				 ARCH_DMA_MINALIGN);
	ti->per_io_data_size = cd->per_bio_size;

	err = bioset_init(&cd->bs, CRI_MIN_IOS, 0, BIOSET_NEED_BVECS);
	if (err) {
		*error = "Cannot allocate crypt bioset";
		return err;
	}
	if (cd->integ.tuple_size) {
		err = bioset_integrity_create(&cd->bs, CRI_MIN_IOS);
		if (err) {
			*error = "Cannot allocate crypt bioset";
			goto err_bs;
		}
	}
	err = cri_pages_init(cd, error);
	if (err)
		goto err_bs;
	/*
	 * As dm-crypt: unbound unless same_cpu_crypt asks for the submitter's
	 * CPU; high priority (workqueue and write thread) only when asked; as
	 * many works at once as CPUs (one per CPU when bound), so that IOs
	 * finish in the order they came instead of all late together.
	 */
	if (test_bit(CRI_SAME_CPU_CRYPT, &cd->cfg.flags)) {
		wq_flags |= WQ_CPU_INTENSIVE;
		max_active = 1;
	} else {
		wq_flags |= WQ_UNBOUND;
		max_active = num_online_cpus();
	}
	if (test_bit(CRI_HIGH_PRIORITY, &cd->cfg.flags))
		wq_flags |= WQ_HIGHPRI;
	cd->wq_id = ida_alloc_min(&cri_wq_ida, 1, GFP_KERNEL);
	if (cd->wq_id < 0) {
		*error = "Couldn't get workqueue id";
		err = cd->wq_id;
		goto err_pool;
	}
	/*
	 * Named as dm-crypt's crypt and IO queues: the second holds what
	 * follows asynchronous crypto.
	 */
	cd->crypt_wq = cri_alloc_wq(cd, ti, "kcryptd", wq_flags, max_active);
	if (!cd->crypt_wq) {
		*error = "Couldn't create kcryptd queue";
		err = -ENOMEM;
		goto err_id;
	}
	cd->cont_wq = cri_alloc_wq(cd, ti, "kcryptd_io",
				   wq_flags & ~WQ_CPU_INTENSIVE, max_active);
	if (!cd->cont_wq) {
		*error = "Couldn't create kcryptd io queue";
		err = -ENOMEM;
		goto err_wq;
	}
	spin_lock_init(&cd->write_lock);
	cd->write_tree = RB_ROOT;
	cd->write_thread = kthread_run(cri_write_thread, cd, "dmcrypt_write%s/%s",
				       cri_flavour.name_suffix,
				       dm_table_device_name(ti->table));
	if (IS_ERR(cd->write_thread)) {
		err = PTR_ERR(cd->write_thread);
		cd->write_thread = NULL;
		*error = "Couldn't spawn write thread";
		goto err_cont;
	}
	if (test_bit(CRI_HIGH_PRIORITY, &cd->cfg.flags))
		set_user_nice(cd->write_thread, MIN_NICE);
	cri_devs_add(1);
	return 0;

err_cont:
	destroy_workqueue(cd->cont_wq);
	cd->cont_wq = NULL;
err_wq:
	destroy_workqueue(cd->crypt_wq);
	cd->crypt_wq = NULL;
err_id:
	ida_free(&cri_wq_ida, cd->wq_id);
err_pool:
	cri_pages_exit(cd);
err_bs:
	bioset_exit(&cd->bs);
	return err;
}

/* A no-op unless cri_io_init() succeeded: on failure it undid itself. */
void cri_io_exit(struct cri_dev *cd)
{
	if (!cd->write_thread)
		return;
	cri_devs_add(-1);
	kthread_stop(cd->write_thread);
	destroy_workqueue(cd->crypt_wq);
	destroy_workqueue(cd->cont_wq);
	ida_free(&cri_wq_ida, cd->wq_id);
	cri_pages_exit(cd);
	bioset_exit(&cd->bs);
}

/* Module init: the page stash and the per-CPU deferral of hard-IRQ reads. */
int cri_io_global_init(void)
{
	int err;

	err = cri_stash_init();
	if (err)
		return err;
	cri_defer_init();
	return 0;
}

void cri_io_global_exit(void)
{
	cri_defer_exit();
	cri_stash_exit();
}
