// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the bio paths.
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
 * All per-bio state, including the skcipher request, lives in dm's per-bio
 * data.  Sectors are processed one at a time; an asynchronous tfm returns
 * -EINPROGRESS/-EBUSY and its completion callback hands the rest of the bio
 * to the workqueue (the callback may run in any context, and calling the
 * tfm again from it would keep every later sector on the async path), so
 * sync and async tfms share one path and nothing blocks waiting for crypto
 * (but a zoned write on 6.1, which map() must submit itself: it waits
 * there, as 6.1's dm-crypt does; cri_zoned_writes_in_map()).
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
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/moduleparam.h>
#include <linux/rbtree.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>

#include "cri.h"
#include "cri_compat.h"

#define CRI_MIN_IOS		64
#define CRI_STASH_PAGES		16
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

struct cri_io {
	struct cri_dev *cd;
	struct bio *base;
	/*
	 * Our own bio with pages of our own: the ciphertext of a write, or
	 * what a read of an integrity table reads, with the metadata.
	 */
	struct bio *clone;
	struct bio *in;			/* the crypto's source: base or clone */
	struct bio *out;		/* its destination: clone or base */
	bio_end_io_t *base_end_io;	/* reads in place: dm's completion */
	struct bvec_iter iter_in;	/* unprocessed part of the source */
	struct bvec_iter iter_out;	/* matching part of the destination */
	u64 iv_sector;
	u8 *tags;			/* integrity: a tuple per sector */
	unsigned int tag_index;		/* tuple of the sector at the iterators */
	blk_status_t status;
	int crypt_err;			/* an asynchronous tfm's answer */
	struct completion *wait;	/* set: map() waits for that answer */
	bool write;
	bool queued;			/* crypto runs on the workqueue */
	bool spread;			/* inline IO sent there (cri_spreads) */
	bool tags_from_pool;
	union {
		struct work_struct work;
		struct llist_node defer_node;	/* waiting for the BH work */
		struct rb_node rb_node;		/* in the write thread's tree */
	};
	/* An AEAD's input: sector, IV, data, tag (dm-crypt's layout). */
	struct scatterlist sg_in[4];
	struct scatterlist sg_out[4];
	__le64 ad_sector;
	u8 org_iv[CRI_MAX_IV_SIZE] __aligned(sizeof(u64));
	u8 iv[CRI_MAX_IV_SIZE] __aligned(sizeof(u64));
	u8 scratch[CRI_ELEPHANT_MAX_KEY] __aligned(sizeof(u64));
	/* Followed by the tfm's request context; an aead_request for AEADs. */
	struct skcipher_request req;
};

static void cri_crypt_resume(struct cri_io *io, bool may_sleep);

/*
 * As in-tree dm-crypt bounds its devices' ciphertext pages (the same
 * figures since 4.x, still in 6.12): all devices of this module together
 * take at most 2% of RAM from the page allocator, shared equally, and never
 * less than CRI_MIN_PAGES_PER_DEV each.  A device at its share gets no
 * further page from the allocator on the first, non-blocking try
 * (mempool_alloc() always asks with __GFP_NORETRY; the reserve is filled
 * without it): its writes then take pages from the mempool's reserve and,
 * when that is empty, wait in cri_alloc_clone() for pages that writes
 * ending give back.  Slower, never failing.  pages_held counts a device's
 * pages from the allocator, in clones and in the reserve; a page in the
 * per-CPU stash below belongs to no device.
 */
#define CRI_MEMORY_PERCENT	2
#define CRI_MIN_PAGES_PER_DEV	(BIO_MAX_VECS * 16)

static DEFINE_SPINLOCK(cri_devs_lock);
static unsigned int cri_devs;		/* devices of this module */
static unsigned long cri_pages_per_dev = CRI_MIN_PAGES_PER_DEV;

/* A device comes (1) or goes (-1): each one's share of the bound. */
static void cri_devs_add(int n)
{
	unsigned long pages;

	spin_lock(&cri_devs_lock);
	cri_devs += n;
	pages = (totalram_pages() - totalhigh_pages()) * CRI_MEMORY_PERCENT / 100;
	pages /= max(cri_devs, 1U);
	WRITE_ONCE(cri_pages_per_dev, max_t(unsigned long, pages, CRI_MIN_PAGES_PER_DEV));
	spin_unlock(&cri_devs_lock);
}

/*
 * Whether the device holds its share.  The counter is read without summing
 * the CPUs' parts, as dm-crypt reads it: off by at most a batch per CPU.
 */
static bool cri_at_share(struct cri_dev *cd)
{
	return percpu_counter_read_positive(&cd->pages_held) >=
	       READ_ONCE(cri_pages_per_dev);
}

/* The page pool's allocator. */
static void *cri_pool_alloc(gfp_t gfp, void *data)
{
	struct cri_dev *cd = data;
	struct page *page;

	if (unlikely(cri_at_share(cd)) && (gfp & __GFP_NORETRY))
		return NULL;
	page = alloc_page(gfp);
	if (page)
		percpu_counter_inc(&cd->pages_held);
	return page;
}

static void cri_pool_free(void *page, void *data)
{
	struct cri_dev *cd = data;

	__free_page(page);
	percpu_counter_dec(&cd->pages_held);
}

/*
 * Ciphertext pages are reused through a small per-CPU stash, shared by all
 * devices, before they go back to the page allocator.  Kernels with
 * init_on_alloc (Debian's among them) zero every page they hand out: one
 * 4 KiB memset per written page, overwritten by the encryption at once.
 * In-tree dm-crypt takes each page from the allocator and gives it back.
 * A page freed while its device's mempool reserve is short refills the
 * reserve first, so the mempool's guarantee of progress is untouched.  At
 * most CRI_STASH_PAGES pages per CPU are held; module exit frees them.
 * Interrupts are off only around the array, so this works from any
 * completion context and on PREEMPT_RT; the allocator runs outside.  A
 * device at its share takes nothing from the stash, which would carry
 * other devices' pages past the bound; once the stash is full, what they
 * free goes back to the allocator.
 */
struct cri_stash {
	unsigned int nr;
	struct page *pages[CRI_STASH_PAGES];
};

static DEFINE_PER_CPU(struct cri_stash, cri_stash);

static struct page *cri_page_get(struct cri_dev *cd, gfp_t gfp)
{
	struct cri_stash *stash;
	struct page *page = NULL;
	unsigned long flags;

	if (unlikely(cri_at_share(cd)))
		return mempool_alloc(&cd->page_pool, gfp);
	local_irq_save(flags);
	stash = this_cpu_ptr(&cri_stash);
	if (stash->nr)
		page = stash->pages[--stash->nr];
	local_irq_restore(flags);
	if (!page)
		return mempool_alloc(&cd->page_pool, gfp);
	percpu_counter_inc(&cd->pages_held);
	return page;
}

static void cri_page_put(struct cri_dev *cd, struct page *page)
{
	struct cri_stash *stash;
	unsigned long flags;

	/*
	 * The test mempool_free() makes, with its barrier: paired with the
	 * smp_wmb() in mempool_alloc(), the fill level read here is from
	 * after this page's allocation.  A page taken from the reserve
	 * therefore sees the reserve short and goes back to it, unless the
	 * reserve was refilled since; a waiter needs an empty reserve, so
	 * the frees of the reserve's own pages always wake it.
	 */
	smp_rmb();
	if (cri_mempool_is_saturated(&cd->page_pool)) {
		local_irq_save(flags);
		stash = this_cpu_ptr(&cri_stash);
		if (stash->nr < CRI_STASH_PAGES) {
			stash->pages[stash->nr++] = page;
			page = NULL;
		}
		local_irq_restore(flags);
		if (!page) {
			percpu_counter_dec(&cd->pages_held);
			return;
		}
	}
	mempool_free(page, &cd->page_pool);
}

/* Whether the flags word puts this direction's crypto inline. */
static bool cri_inline(unsigned long flags, bool write)
{
	return flags & (BIT(CRI_FORCE_INLINE) |
			BIT(write ? CRI_NO_WRITE_WORKQUEUE : CRI_NO_READ_WORKQUEUE));
}

static void cri_free_pages(struct cri_dev *cd, struct bio *clone)
{
	struct bio_vec *bv;
	struct bvec_iter_all iter;

	bio_for_each_segment_all(bv, clone, iter)
		cri_page_put(cd, bv->bv_page);
}

static struct aead_request *cri_aead_req(struct cri_io *io)
{
	return (struct aead_request *)&io->req;
}

/* Bytes of metadata for the bio: a tuple per encryption sector. */
static unsigned int cri_tags_len(const struct cri_io *io)
{
	return (bio_sectors(io->base) >> io->cd->sector_shift) *
	       io->cd->integ.tuple_size;
}

/*
 * The metadata buffer of an integrity table's bio, as dm-crypt takes it:
 * kmalloc without trying hard; failing that, a page from the pool, the bio
 * cut to what a page holds.  A write's tuples start zeroed (dm-crypt leaves
 * the bytes past tag and IV as kmalloc gave them).
 */
static void cri_get_tags(struct cri_io *io)
{
	struct cri_integrity *ig = &io->cd->integ;

	io->tags = kmalloc(cri_tags_len(io), GFP_NOIO | __GFP_NORETRY |
			   __GFP_NOMEMALLOC | __GFP_NOWARN);
	if (!io->tags) {
		if (bio_sectors(io->base) > ig->max_sectors) {
			dm_accept_partial_bio(io->base, ig->max_sectors);
			this_cpu_inc(io->cd->stats->split_bios);
		}
		io->tags = mempool_alloc(&ig->tag_pool, GFP_NOIO);
		io->tags_from_pool = true;
	}
	if (io->write)
		memset(io->tags, 0, cri_tags_len(io));
}

static void cri_put_tags(struct cri_io *io)
{
	if (io->tags_from_pool)
		mempool_free(io->tags, &io->cd->integ.tag_pool);
	else
		kfree(io->tags);
	io->tags = NULL;
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

static void cri_write_endio(struct bio *clone)
{
	struct cri_io *io = clone->bi_private;

	if (!io->status)
		io->status = clone->bi_status;
	cri_free_pages(io->cd, clone);
	bio_put(clone);
	cri_end_base(io);
}

/*
 * The queued path hands encrypted writes to one thread that submits them in
 * sector order, as in-tree dm-crypt does unless submit_from_crypt_cpus:
 * crypto workers finish out of order, the disk prefers ascending sectors.
 */
static void cri_queue_write(struct cri_io *io)
{
	struct cri_dev *cd = io->cd;
	struct rb_node **link, *parent = NULL;
	sector_t sector = io->clone->bi_iter.bi_sector;
	unsigned long flags;

	spin_lock_irqsave(&cd->write_lock, flags);
	if (RB_EMPTY_ROOT(&cd->write_tree))
		wake_up_process(cd->write_thread);
	link = &cd->write_tree.rb_node;
	while (*link) {
		parent = *link;
		if (sector < rb_entry(parent, struct cri_io, rb_node)->clone->bi_iter.bi_sector)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&io->rb_node, parent, link);
	rb_insert_color(&io->rb_node, &cd->write_tree);
	spin_unlock_irqrestore(&cd->write_lock, flags);
}

static int cri_write_thread(void *data)
{
	struct cri_dev *cd = data;
	struct rb_root batch;
	struct blk_plug plug;
	struct cri_io *io;

	for (;;) {
		spin_lock_irq(&cd->write_lock);
		while (RB_EMPTY_ROOT(&cd->write_tree)) {
			set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock_irq(&cd->write_lock);
			if (kthread_should_stop()) {
				set_current_state(TASK_RUNNING);
				return 0;
			}
			schedule();
			spin_lock_irq(&cd->write_lock);
		}
		batch = cd->write_tree;
		cd->write_tree = RB_ROOT;
		spin_unlock_irq(&cd->write_lock);

		blk_start_plug(&plug);
		while (!RB_EMPTY_ROOT(&batch)) {
			io = rb_entry(rb_first(&batch), struct cri_io, rb_node);
			rb_erase(&io->rb_node, &batch);
			dm_submit_bio_remap(io->base, io->clone);
		}
		blk_finish_plug(&plug);
	}
}

/* The crypto of a bio is finished: send the write, or end the read. */
static void cri_crypt_done(struct cri_io *io)
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

/* The metadata tuple of the sector at the iterators. */
static u8 *cri_tuple(struct cri_io *io)
{
	return io->tags + io->tag_index * io->cd->integ.tuple_size;
}

/* The sector at the iterators; false if it straddles two pages. */
static bool cri_sector_at(struct cri_io *io, struct cri_sector *s)
{
	struct cri_integrity *ig = &io->cd->integ;
	unsigned int len = io->cd->cfg.sector_size;
	struct bio_vec in = bio_iter_iovec(io->in, io->iter_in);
	struct bio_vec out = bio_iter_iovec(io->out, io->iter_out);

	s->in_page = in.bv_page;
	s->in_off = in.bv_offset;
	s->out_page = out.bv_page;
	s->out_off = out.bv_offset;
	s->sector = io->iv_sector;
	s->stored_iv = io->tags ? cri_tuple(io) + ig->auth_size : NULL;
	s->write = io->write;
	s->scratch = io->scratch;
	s->req = &io->req;
	/* Logical block size is sector_size, so a sector never straddles. */
	return in.bv_len >= len && out.bv_len >= len;
}

/*
 * The cipher finished the sector at the iterators: the IV mode's work
 * after it (lmk, tcw, elephant), then on to the next sector.
 */
static int cri_sector_done(struct cri_io *io)
{
	unsigned int len = io->cd->cfg.sector_size;
	struct cri_sector s;
	int err = 0;

	if (cri_iv_touches_data(io->cd)) {
		cri_sector_at(io, &s);
		err = cri_iv_post(io->cd, &s);
	}
	bio_advance_iter(io->in, &io->iter_in, len);
	bio_advance_iter(io->out, &io->iter_out, len);
	io->iv_sector += len >> SECTOR_SHIFT;
	io->tag_index++;
	return err;
}

/*
 * The sector at the iterators failed.  An AEAD's verdict that it is not
 * authentic is logged with the sector (dm-crypt's message and audit
 * record) and returned as dm-crypt returns it.  Whatever an AEAD read
 * failed with, what it left in the reader's sector is zeroed: some (gcm)
 * decrypt before they verify, and no unauthenticated plaintext may reach
 * the reader.
 */
static void cri_sector_failed(struct cri_io *io, int err)
{
	struct cri_dev *cd = io->cd;
	struct bio_vec out;

	io->status = BLK_STS_IOERR;
	if (err == -EBADMSG) {
		DMERR_LIMIT("%pg: INTEGRITY AEAD ERROR, sector %llu",
			    cd->dev->bdev, io->iv_sector - cd->cfg.iv_offset);
		cri_audit_aead(cd->dev->bdev, io->iv_sector - cd->cfg.iv_offset);
		io->status = BLK_STS_PROTECTION;
	}
	if (cd->aead && !io->write) {
		out = bio_iter_iovec(io->out, io->iter_out);
		memzero_page(out.bv_page, out.bv_offset, cd->cfg.sector_size);
	}
}

static void cri_crypt_continue(struct work_struct *work)
{
	struct cri_io *io = container_of(work, struct cri_io, work);

	if (io->crypt_err)
		cri_sector_failed(io, io->crypt_err);
	else if (cri_sector_done(io))
		io->status = BLK_STS_IOERR;
	cri_crypt_resume(io, true);
}

/*
 * An asynchronous tfm finished a sector, in whatever context its driver
 * completes (cryptd: a worker with BHs off; hardware: possibly hard IRQ).
 * The rest of the bio, and this sector's finishing touches, continue on a
 * workqueue of their own, never here, and not on crypt_wq: queued writes
 * there may wait for ciphertext pages that only come back once writes
 * being encrypted, these among them, finish.  A write whose map() waits
 * (io->wait) goes on there instead.
 */
static void cri_crypt_callback(CRI_CRYPTO_CB_ARG arg, int err)
{
	struct cri_io *io = cri_crypto_cb_data(arg);

	/* A backlogged request has only moved to the queue. */
	if (err == -EINPROGRESS)
		return;
	io->crypt_err = err;
	if (io->wait) {
		complete(io->wait);
		return;
	}
	INIT_WORK(&io->work, cri_crypt_continue);
	queue_work(io->cd->cont_wq, &io->work);
}

/*
 * One sector through the AEAD, with dm-crypt's request: associated data of
 * the sector number (512-byte units from the target's start, iv_offset
 * not included) and the IV, then the data, then the tag in the sector's
 * metadata tuple.  The AEAD gets a copy of the IV (it may change it).
 */
static int cri_aead_sector(struct cri_io *io, struct cri_sector *s, u32 flags)
{
	struct cri_dev *cd = io->cd;
	struct aead_request *req = cri_aead_req(io);
	unsigned int len = cd->cfg.sector_size;
	unsigned int auth = cd->integ.auth_size;
	u8 *tag = cri_tuple(io);
	bool in_place;
	int err;

	err = cri_iv_pre(cd, s, io->org_iv, &in_place);
	if (unlikely(err))
		return err;
	memcpy(io->iv, io->org_iv, cd->iv_size);
	io->ad_sector = cpu_to_le64(io->iv_sector - cd->cfg.iv_offset);

	sg_init_table(io->sg_in, 4);
	sg_set_buf(&io->sg_in[0], &io->ad_sector, sizeof(io->ad_sector));
	sg_set_buf(&io->sg_in[1], io->org_iv, cd->iv_size);
	sg_set_page(&io->sg_in[2], s->in_page, len, s->in_off);
	sg_set_buf(&io->sg_in[3], tag, auth);
	sg_init_table(io->sg_out, 4);
	sg_set_buf(&io->sg_out[0], &io->ad_sector, sizeof(io->ad_sector));
	sg_set_buf(&io->sg_out[1], io->org_iv, cd->iv_size);
	sg_set_page(&io->sg_out[2], s->out_page, len, s->out_off);
	sg_set_buf(&io->sg_out[3], tag, auth);

	aead_request_set_tfm(req, cd->aead);
	aead_request_set_callback(req, flags, cri_crypt_callback, io);
	aead_request_set_ad(req, sizeof(io->ad_sector) + cd->iv_size);
	if (io->write) {
		aead_request_set_crypt(req, io->sg_in, io->sg_out, len, io->iv);
		return crypto_aead_encrypt(req);
	}
	aead_request_set_crypt(req, io->sg_in, io->sg_out, len + auth, io->iv);
	return crypto_aead_decrypt(req);
}

/*
 * Start one sector; returns the crypto API's answer.  As dm-crypt, with
 * several keys sector n (512-byte units, iv_offset included) uses tfm
 * n mod keycount.
 */
static int cri_crypt_sector(struct cri_io *io, u32 flags)
{
	struct cri_dev *cd = io->cd;
	unsigned int len = cd->cfg.sector_size;
	unsigned int key = io->iv_sector & (cd->cfg.key_count - 1);
	struct cri_sector s;
	bool in_place;
	int err;

	if (unlikely(!cri_sector_at(io, &s)))
		return -EIO;
	if (cd->aead)
		return cri_aead_sector(io, &s, flags);
	err = cri_iv_pre(cd, &s, io->iv, &in_place);
	if (unlikely(err))
		return err;
	if (in_place) {
		s.in_page = s.out_page;
		s.in_off = s.out_off;
	}

	sg_init_table(io->sg_in, 1);
	sg_set_page(io->sg_in, s.in_page, len, s.in_off);
	sg_init_table(io->sg_out, 1);
	sg_set_page(io->sg_out, s.out_page, len, s.out_off);

	skcipher_request_set_tfm(&io->req, cd->tfms[key]);
	skcipher_request_set_callback(&io->req, flags, cri_crypt_callback, io);
	skcipher_request_set_crypt(&io->req, io->sg_in, io->sg_out, len,
				   io->iv);
	return io->write ? crypto_skcipher_encrypt(&io->req) :
			   crypto_skcipher_decrypt(&io->req);
}

/*
 * Run sectors until the bio is done or an asynchronous tfm takes one; its
 * callback comes back here through the workqueue, or, for a write that
 * map() must submit itself (io->wait), wakes map() to go on here.  Sleeps
 * only where the caller says it may (the workqueue) or io->wait asks: the
 * others include completion and softirq context, and map() on the inline
 * write path, where dm-crypt does not yield either.
 */
static void cri_crypt_resume(struct cri_io *io, bool may_sleep)
{
	int err;

	while (io->iter_in.bi_size && !io->status) {
		err = cri_crypt_sector(io, CRYPTO_TFM_REQ_MAY_BACKLOG);
		if (err == -EINPROGRESS || err == -EBUSY) {
			if (!io->wait)
				return;
			wait_for_completion(io->wait);
			reinit_completion(io->wait);
			err = io->crypt_err;
		}
		if (err) {
			cri_sector_failed(io, err);
			break;
		}
		if (cri_sector_done(io)) {
			io->status = BLK_STS_IOERR;
			break;
		}
		if (may_sleep)
			cond_resched();
	}
	cri_crypt_done(io);
}

/*
 * Fill the clone with pages for size bytes.  With a non-blocking gfp this
 * may fail and leaves the clone empty.
 */
static bool cri_add_pages(struct cri_dev *cd, struct bio *clone,
			  unsigned int size, gfp_t gfp)
{
	struct page *page;
	unsigned int len;

	while (size) {
		len = min_t(unsigned int, size, PAGE_SIZE);
		page = cri_page_get(cd, gfp);
		if (!page) {
			cri_free_pages(cd, clone);
			bio_reset(clone, cd->dev->bdev, clone->bi_opf);
			return false;
		}
		__bio_add_page(clone, page, len, 0);
		size -= len;
	}
	return true;
}

/*
 * Hand the bio's metadata tuples to the clone, for dm-integrity beneath to
 * write or to fill.
 */
static blk_status_t cri_attach_tags(struct cri_io *io, struct bio *clone)
{
	unsigned int len = cri_tags_len(io);
	struct bio_integrity_payload *bip;

	bip = bio_integrity_alloc(clone, GFP_NOIO, 1);
	if (IS_ERR(bip))
		return BLK_STS_RESOURCE;
	bip->bip_iter.bi_sector = io->base->bi_iter.bi_sector;
	if (!cri_bip_add_tags(clone, io->tags, len))
		return BLK_STS_RESOURCE;
	return BLK_STS_OK;
}

/*
 * A clone of io->base with fresh pages: for the ciphertext of a write, or
 * what a read of an integrity table reads.  As dm-crypt does: first
 * without blocking; failing that, one bio at a time may wait on the
 * mempool, whose reserve covers the largest bio, so two bios can never
 * each hold half of it and wait for the other.  With the metadata tuples
 * attached, if the table has them.
 */
static struct bio *cri_alloc_clone(struct cri_io *io)
{
	struct cri_dev *cd = io->cd;
	unsigned int size = io->base->bi_iter.bi_size;
	struct bio *clone;

	clone = bio_alloc_bioset(cd->dev->bdev, DIV_ROUND_UP(size, PAGE_SIZE),
				 io->base->bi_opf, GFP_NOIO, &cd->bs);
	if (!cri_add_pages(cd, clone, size, GFP_NOWAIT | __GFP_NOWARN)) {
		mutex_lock(&cd->page_alloc_lock);
		cri_add_pages(cd, clone, size, GFP_NOIO);
		mutex_unlock(&cd->page_alloc_lock);
	}
	clone->bi_private = io;
	clone->bi_end_io = cri_write_endio;
	clone->bi_ioprio = io->base->bi_ioprio;
	clone->bi_iter.bi_sector = io->base->bi_iter.bi_sector;
	/* As dm-crypt: a write that cannot take its tags is an IO error. */
	if (io->tags && cri_attach_tags(io, clone))
		io->status = io->write ? BLK_STS_IOERR : BLK_STS_RESOURCE;
	return clone;
}

/*
 * Writes fill the clone's pages from the caller's; reads decrypt the
 * caller's pages in place, or (integrity tables) from the clone into them.
 */
static void cri_start_crypt(struct cri_io *io, bool may_sleep)
{
	if (io->write) {
		io->in = io->base;
		io->out = io->clone;
		io->iter_out = io->clone->bi_iter;
	} else if (!io->clone) {
		io->in = io->base;
		io->out = io->base;
		io->iter_out = io->iter_in;
	}
	cri_crypt_resume(io, may_sleep);
}

static void cri_write_work(struct work_struct *work)
{
	struct cri_io *io = container_of(work, struct cri_io, work);

	io->clone = cri_alloc_clone(io);
	cri_start_crypt(io, true);
}

static void cri_read_work(struct work_struct *work)
{
	cri_start_crypt(container_of(work, struct cri_io, work), true);
}

/*
 * Reads completed in hard-IRQ context wait on a per-CPU list for this CPU's
 * BH work (a tasklet before 6.9; see cri_bh in cri_compat.h).  Its struct
 * lives here, not in the bio's data: the core touches it after the
 * callback returns, when the bio (and its data) may already be gone; that
 * is the use-after-free dm-crypt had with tasklets in its bios
 * (CVE-2024-26718).  One run decrypts at most CRI_DEFER_BUDGET reads and
 * schedules itself for the rest, so that the softirq core's own bounds
 * (tasklets: __do_softirq's restarts and time; BH work: bh_worker's 10
 * items or 2 ms) apply to a burst of completions and can hand the rest to
 * ksoftirqd.
 */
#define CRI_DEFER_BUDGET	16

struct cri_defer {
	struct llist_head list;		/* added to in hard IRQ */
	struct llist_node *held;	/* taken off it, oldest first */
	struct cri_bh bh;
};

static DEFINE_PER_CPU(struct cri_defer, cri_defer);

/*
 * Only ever one run of a given cri_defer at a time: held needs no lock.
 * A run ends in one of two ways: it found held and the list both empty,
 * or it scheduled itself again.  A completion that adds to the list after
 * the first has looked schedules a run of its own (this one is no longer
 * pending); one that added while this run was pending is seen by it or by
 * the run it schedules.  So nothing stays on the list with no run to come,
 * whatever the size of a burst.
 */
static void cri_defer_run(struct cri_bh *bh)
{
	struct cri_defer *defer = container_of(bh, struct cri_defer, bh);
	unsigned int budget = CRI_DEFER_BUDGET;
	struct cri_io *io;

	while (budget--) {
		if (!defer->held)
			defer->held = llist_reverse_order(llist_del_all(&defer->list));
		if (!defer->held)
			return;
		io = llist_entry(defer->held, struct cri_io, defer_node);
		defer->held = defer->held->next;	/* io may be gone after this */
		cri_start_crypt(io, false);
	}
	cri_bh_schedule(bh);
}

static void cri_defer_read(struct cri_io *io)
{
	struct cri_defer *defer = this_cpu_ptr(&cri_defer);

	llist_add(&io->defer_node, &defer->list);
	cri_bh_schedule(&defer->bh);
}

static void cri_stash_drain(unsigned int cpu)
{
	struct cri_stash *stash = per_cpu_ptr(&cri_stash, cpu);

	while (stash->nr)
		__free_page(stash->pages[--stash->nr]);
}

/*
 * A CPU went offline: nothing runs on it any more, so its stash is emptied
 * from here instead of holding pages until module exit.  Its deferred
 * reads, if any, have a run pending (cri_defer_run()), which a live CPU
 * takes over: the softirq core moves a dead CPU's tasklets, and the
 * workqueue core runs its BH work from another CPU until none is left
 * (workqueue_softirq_dead(), which takes back a run that schedules itself
 * again); the run finds its list through container_of().
 */
static int cri_cpu_dead(unsigned int cpu)
{
	cri_stash_drain(cpu);
	return 0;
}

/* debugfs "stash": pages held per CPU, "cpuN count" per line. */
static int cri_stash_show(struct seq_file *m, void *unused)
{
	int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "cpu%d %u\n", cpu,
			   READ_ONCE(per_cpu_ptr(&cri_stash, cpu)->nr));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cri_stash);

static int cri_cpuhp_state;
static struct dentry *cri_debugfs;

int cri_io_global_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cri_defer *defer = per_cpu_ptr(&cri_defer, cpu);

		init_llist_head(&defer->list);
		defer->held = NULL;
		cri_bh_init(&defer->bh, cri_defer_run);
	}
	cri_cpuhp_state = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
						    KBUILD_MODNAME ":dead",
						    NULL, cri_cpu_dead);
	if (cri_cpuhp_state < 0)
		return cri_cpuhp_state;
	cri_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stash", 0400, cri_debugfs, NULL, &cri_stash_fops);
	return 0;
}

/* Module exit: no device is left, so nothing races with the stash. */
void cri_io_global_exit(void)
{
	int cpu;

	debugfs_remove(cri_debugfs);
	cpuhp_remove_state_nocalls(cri_cpuhp_state);
	for_each_possible_cpu(cpu) {
		cri_bh_kill(&per_cpu_ptr(&cri_defer, cpu)->bh);
		cri_stash_drain(cpu);
	}
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
	err = percpu_counter_init(&cd->pages_held, 0, GFP_KERNEL);
	if (err) {
		*error = "Cannot allocate page counter";
		goto err_bs;
	}
	err = mempool_init(&cd->page_pool, BIO_MAX_VECS, cri_pool_alloc,
			   cri_pool_free, cd);
	if (err) {
		*error = "Cannot allocate page mempool";
		goto err_count;
	}
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
	mutex_init(&cd->page_alloc_lock);
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
	mempool_exit(&cd->page_pool);
err_count:
	percpu_counter_destroy(&cd->pages_held);
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
	mempool_exit(&cd->page_pool);
	/* As dm-crypt: every page given back, every count undone. */
	WARN_ON(percpu_counter_sum(&cd->pages_held));
	percpu_counter_destroy(&cd->pages_held);
	bioset_exit(&cd->bs);
}
