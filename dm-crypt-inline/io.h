/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crypt-inline: what the files of the bio paths share (io.c, crypt.c,
 * pages.c, tags.c, defer.c): the per-bio state and their entry points.
 */
#ifndef DM_CRYPT_INLINE_IO_H
#define DM_CRYPT_INLINE_IO_H

#include <linux/bio.h>
#include <linux/llist.h>
#include <linux/rbtree.h>
#include <linux/scatterlist.h>
#include <linux/workqueue.h>

#include "cri.h"

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

/* The metadata tuple of the sector at the iterators. */
static inline u8 *cri_tuple(struct cri_io *io)
{
	return io->tags + io->tag_index * io->cd->integ.tuple_size;
}

/* io.c: a bio's end */
void cri_write_endio(struct bio *clone);
void cri_crypt_done(struct cri_io *io);

/* crypt.c: the crypto of a bio */
void cri_start_crypt(struct cri_io *io, bool may_sleep);
void cri_write_work(struct work_struct *work);
void cri_read_work(struct work_struct *work);

/* pages.c: ciphertext pages */
void cri_devs_add(int n);
int cri_pages_init(struct cri_dev *cd, char **error);
void cri_pages_exit(struct cri_dev *cd);
void cri_free_pages(struct cri_dev *cd, struct bio *clone);
struct bio *cri_alloc_clone(struct cri_io *io);
int cri_stash_init(void);
void cri_stash_exit(void);

/* tags.c: integrity metadata */
void cri_get_tags(struct cri_io *io);
void cri_put_tags(struct cri_io *io);
blk_status_t cri_attach_tags(struct cri_io *io, struct bio *clone);

/* defer.c: hard-IRQ reads and the write thread */
void cri_defer_read(struct cri_io *io);
void cri_queue_write(struct cri_io *io);
int cri_write_thread(void *data);
void cri_defer_init(void);
void cri_defer_exit(void);

#endif /* DM_CRYPT_INLINE_IO_H */
