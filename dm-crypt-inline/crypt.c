// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the crypto of one bio, a sector at a time.
 *
 * All per-bio state, including the skcipher request, lives in dm's per-bio
 * data.  Sectors are processed one at a time; an asynchronous tfm returns
 * -EINPROGRESS/-EBUSY and its completion callback hands the rest of the bio
 * to the workqueue (the callback may run in any context, and calling the
 * tfm again from it would keep every later sector on the async path), so
 * sync and async tfms share one path and nothing blocks waiting for crypto
 * (but a zoned write on 6.1, which map() must submit itself: it waits
 * there, as 6.1's dm-crypt does; cri_zoned_writes_in_map()).
 */

#include <linux/bio.h>
#include <linux/completion.h>
#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/workqueue.h>
#include <crypto/aead.h>
#include <crypto/skcipher.h>

#include "cri.h"
#include "cri_compat.h"
#include "io.h"

static void cri_crypt_resume(struct cri_io *io, bool may_sleep);

static struct aead_request *cri_aead_req(struct cri_io *io)
{
	return (struct aead_request *)&io->req;
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
 * Writes fill the clone's pages from the caller's; reads decrypt the
 * caller's pages in place, or (integrity tables) from the clone into them.
 */
void cri_start_crypt(struct cri_io *io, bool may_sleep)
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

void cri_write_work(struct work_struct *work)
{
	struct cri_io *io = container_of(work, struct cri_io, work);

	io->clone = cri_alloc_clone(io);
	cri_start_crypt(io, true);
}

void cri_read_work(struct work_struct *work)
{
	cri_start_crypt(container_of(work, struct cri_io, work), true);
}
