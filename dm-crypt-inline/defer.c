// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: what the bio paths hand on to run later, elsewhere: reads
 * completed in hard-IRQ context, decrypted by BH work, and queued writes,
 * submitted in sector order by one thread per device.
 */

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "cri.h"
#include "cri_compat.h"
#include "io.h"

/*
 * The queued path hands encrypted writes to one thread that submits them in
 * sector order, as in-tree dm-crypt does unless submit_from_crypt_cpus:
 * crypto workers finish out of order, the disk prefers ascending sectors.
 */
void cri_queue_write(struct cri_io *io)
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

int cri_write_thread(void *data)
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
 * pending); one that added while the run was pending is seen by it or by
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

void cri_defer_read(struct cri_io *io)
{
	struct cri_defer *defer = this_cpu_ptr(&cri_defer);

	llist_add(&io->defer_node, &defer->list);
	cri_bh_schedule(&defer->bh);
}

void cri_defer_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cri_defer *defer = per_cpu_ptr(&cri_defer, cpu);

		init_llist_head(&defer->list);
		defer->held = NULL;
		cri_bh_init(&defer->bh, cri_defer_run);
	}
}

/* Module exit: no device is left, so no read waits. */
void cri_defer_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		cri_bh_kill(&per_cpu_ptr(&cri_defer, cpu)->bh);
}
