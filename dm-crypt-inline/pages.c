// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: ciphertext pages: the bound on what all devices of the
 * module take from the page allocator, the per-CPU stash that recycles
 * them, and clones of a bio filled with them.
 */

#include <linux/bio.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>

#include "cri.h"
#include "cri_compat.h"
#include "io.h"

#define CRI_STASH_PAGES		16

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
void cri_devs_add(int n)
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
 * A device's pages: the counter of what it holds and the mempool whose
 * reserve covers its largest bio.
 */
int cri_pages_init(struct cri_dev *cd, char **error)
{
	int err;

	err = percpu_counter_init(&cd->pages_held, 0, GFP_KERNEL);
	if (err) {
		*error = "Cannot allocate page counter";
		return err;
	}
	err = mempool_init(&cd->page_pool, BIO_MAX_VECS, cri_pool_alloc,
			   cri_pool_free, cd);
	if (err) {
		*error = "Cannot allocate page mempool";
		percpu_counter_destroy(&cd->pages_held);
		return err;
	}
	mutex_init(&cd->page_alloc_lock);
	return 0;
}

void cri_pages_exit(struct cri_dev *cd)
{
	mempool_exit(&cd->page_pool);
	/* As dm-crypt: every page given back, every count undone. */
	WARN_ON(percpu_counter_sum(&cd->pages_held));
	percpu_counter_destroy(&cd->pages_held);
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

void cri_free_pages(struct cri_dev *cd, struct bio *clone)
{
	struct bio_vec *bv;
	struct bvec_iter_all iter;

	bio_for_each_segment_all(bv, clone, iter)
		cri_page_put(cd, bv->bv_page);
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
 * A clone of io->base with fresh pages: for the ciphertext of a write, or
 * what a read of an integrity table reads.  As dm-crypt does: first
 * without blocking; failing that, one bio at a time may wait on the
 * mempool, whose reserve covers the largest bio, so two bios can never
 * each hold half of it and wait for the other.  With the metadata tuples
 * attached, if the table has them.
 */
struct bio *cri_alloc_clone(struct cri_io *io)
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

int cri_stash_init(void)
{
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
void cri_stash_exit(void)
{
	int cpu;

	debugfs_remove(cri_debugfs);
	cpuhp_remove_state_nocalls(cri_cpuhp_state);
	for_each_possible_cpu(cpu)
		cri_stash_drain(cpu);
}
