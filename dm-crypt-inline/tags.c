// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the per-sector metadata of an integrity table's bio
 * (struct cri_integrity), taken per bio and handed to dm-integrity beneath.
 */

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/mempool.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cri.h"
#include "cri_compat.h"
#include "io.h"

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
void cri_get_tags(struct cri_io *io)
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

void cri_put_tags(struct cri_io *io)
{
	if (io->tags_from_pool)
		mempool_free(io->tags, &io->cd->integ.tag_pool);
	else
		kfree(io->tags);
	io->tags = NULL;
}

/*
 * Hand the bio's metadata tuples to the clone, for dm-integrity beneath to
 * write or to fill.
 */
blk_status_t cri_attach_tags(struct cri_io *io, struct bio *clone)
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
