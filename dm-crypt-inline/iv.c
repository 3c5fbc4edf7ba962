// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: IV generators.  Each matches dm-crypt's byte for byte, since
 * the IV decides the ciphertext on disk.  essiv is not computed here: like
 * dm-crypt since 5.4, the crypto API's essiv() template wraps the cipher and
 * is handed the plain64 IV.
 *
 * Four modes of old on-disk formats do more than name an IV, and take part
 * of the key for it (dm-crypt's "key parts"):
 *  - lmk (loop-AES): the IV is an MD5 state over the sector's plaintext
 *    past its first block, so reads decrypt with a zero IV and then correct
 *    the first block; version 3 adds a seed, the key part after the 64 keys;
 *  - tcw (TrueCrypt before 4.1): IV seed and an 8-byte whitening, mixed
 *    with the sector number through CRC32, from the key's tail;
 *  - eboiv (BitLocker): the IV is the byte offset encrypted with the volume
 *    key, as one CBC block over zeroes with the offset as its IV;
 *  - elephant (BitLocker): eboiv plus a sector key from an AES key in the
 *    key's second half and two diffusers over the plaintext.
 * A fifth, random, takes no key: its IV is drawn for every write and kept
 * in the sector's integrity metadata, where reads find it.
 * The IV and whitening computations run in any context but hard IRQ (the
 * bio paths never call the crypto API there) and never sleep: the hashes
 * are synchronous shashes, and the ciphers for eboiv and elephant are
 * synchronous instances of their own, not the bulk tfm, which may be
 * asynchronous.
 */

#include <linux/kernel.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/md5.h>

#include "cri.h"
#include "cri_compat.h"

#define CRI_LMK_BYTES	512	/* lmk and tcw work on 512-byte sectors */

static struct crypto_skcipher *cri_any_tfm(const struct cri_dev *cd)
{
	return cd->tfms[0];
}

/* As dm-crypt: the key bytes left for each tfm, after the IV's parts. */
unsigned int cri_subkey_size(const struct cri_dev *cd)
{
	return (cd->cfg.key_size - cd->key_extra_size) >>
	       ilog2(cd->cfg.key_count);
}

/*
 * How the key divides, dm-crypt's rule for each mode: lmk takes a 65th
 * part (its seed) when the key does not divide into the tfms' parts; tcw
 * takes an IV seed and a whitening from the tail; elephant takes half.
 */
static int cri_iv_key_layout(struct cri_dev *cd, char **error)
{
	unsigned int size = cd->cfg.key_size;

	cd->key_parts = cd->cfg.key_count;
	cd->key_extra_size = 0;
	switch (cd->cfg.iv_mode) {
	case CRI_IV_LMK:
		if (size % cd->key_parts) {
			cd->key_parts++;
			cd->key_extra_size = size / cd->key_parts;
		}
		break;
	case CRI_IV_TCW:
		cd->key_parts += 2;
		cd->key_extra_size = cd->iv_size + CRI_TCW_WHITENING_SIZE;
		if (size <= cd->key_extra_size) {
			*error = CRI_ERR_KEY "wrong key size for TCW";
			return -EINVAL;
		}
		break;
	case CRI_IV_ELEPHANT:
		cd->key_parts = 2;
		cd->key_extra_size = size / 2;
		if (cd->key_extra_size > CRI_ELEPHANT_MAX_KEY) {
			*error = CRI_ERR_KEY "Elephant takes at most 32 bytes of AES key";
			return -EINVAL;
		}
		break;
	default:
		break;
	}
	return 0;
}

static int cri_iv_alloc_hash(struct cri_dev *cd, const char *name,
			     char **error)
{
	cd->iv.hash = crypto_alloc_shash(name, 0, CRYPTO_ALG_ALLOCATES_MEMORY);
	if (IS_ERR(cd->iv.hash)) {
		int err = PTR_ERR(cd->iv.hash);

		cd->iv.hash = NULL;
		*error = cd->cfg.iv_mode == CRI_IV_LMK ?
			 CRI_ERR_IV "LMK hash" :
			 CRI_ERR_IV "CRC32 for TCW";
		return err;
	}
	return 0;
}

/* A synchronous instance of @name, or NULL with *error said. */
static struct crypto_sync_skcipher *cri_iv_alloc_sync(const char *name,
						      int *err)
{
	struct crypto_sync_skcipher *tfm;

	tfm = crypto_alloc_sync_skcipher(name, 0, CRYPTO_ALG_ALLOCATES_MEMORY);
	if (IS_ERR(tfm)) {
		*err = PTR_ERR(tfm);
		return NULL;
	}
	return tfm;
}

/* lmk and tcw: dm-crypt's constraints, then their hash and key storage. */
static int cri_iv_init_hashed(struct cri_dev *cd, char **error)
{
	bool lmk = cd->cfg.iv_mode == CRI_IV_LMK;
	unsigned int seed_size;
	int err;

	if (cd->cfg.sector_size != CRI_LMK_BYTES) {
		*error = lmk ? CRI_ERR_IV "unsupported sector size for LMK" :
			       CRI_ERR_IV "unsupported sector size for TCW";
		return -EINVAL;
	}
	/* Both mix at most one MD5 digest or two 8-byte halves into the IV. */
	if (cd->iv_size > MD5_DIGEST_SIZE) {
		*error = CRI_ERR_IV "IV size too large for LMK or TCW";
		return -EINVAL;
	}
	/* The seed is the 65th part; its first 16 bytes are hashed. */
	if (lmk && cd->key_extra_size &&
	    cd->key_extra_size < MD5_DIGEST_SIZE) {
		*error = CRI_ERR_IV "LMK seed shorter than an MD5 digest";
		return -EINVAL;
	}
	err = cri_iv_alloc_hash(cd, lmk ? "md5" : "crc32", error);
	if (err)
		return err;
	/* The IV is MD5's exported state, read as this kernel lays it out. */
	if (lmk && crypto_shash_statesize(cd->iv.hash) > sizeof(struct md5_state)) {
		*error = CRI_ERR_IV "this kernel's MD5 state is not the one LMK expects";
		return -EINVAL;
	}
	if (lmk && !cd->key_extra_size)
		return 0;	/* version 2: no seed */
	seed_size = lmk ? CRI_LMK_SEED_SIZE :
			  cd->iv_size + CRI_TCW_WHITENING_SIZE;
	cd->iv.seed = kzalloc(seed_size, GFP_KERNEL);
	if (!cd->iv.seed) {
		*error = CRI_ERR_IV "no memory for the seed";
		return -ENOMEM;
	}
	return 0;
}

/*
 * eboiv and elephant: the IV is one block of the bulk cipher, made by a
 * synchronous instance of it (the bulk tfm may be asynchronous).
 */
static int cri_iv_init_eboiv(struct cri_dev *cd, char **error)
{
	int err = 0;

	if (crypto_skcipher_blocksize(cri_any_tfm(cd)) != cd->iv_size) {
		*error = CRI_ERR_IV "EBOIV cipher's block size is not the IV size";
		return -EINVAL;
	}
	cd->iv.ivtfm = cri_iv_alloc_sync(cd->cfg.crypto_name, &err);
	if (!cd->iv.ivtfm) {
		*error = CRI_ERR_IV "no synchronous implementation of the cipher for EBOIV";
		return err;
	}
	if (cd->cfg.iv_mode != CRI_IV_ELEPHANT)
		return 0;
	cd->iv.ecb = cri_iv_alloc_sync("ecb(aes)", &err);
	if (!cd->iv.ecb) {
		*error = CRI_ERR_IV "cannot allocate ecb(aes) for Elephant";
		return err;
	}
	return 0;
}

/*
 * Once the tfms exist: the IV size, the IV mode's checks and what it keeps.
 * A mode named but unusable is refused only if the cipher takes an IV; a
 * cipher without one ignores any IV mode (as dm-crypt, with its warning).
 * On error the caller frees what was allocated with cri_iv_exit().
 */
int cri_iv_init(struct cri_dev *cd, char **error)
{
	unsigned int ivsize, bs;
	int err;

	if (cd->aead) {
		ivsize = crypto_aead_ivsize(cd->aead);
		bs = crypto_aead_blocksize(cd->aead);
	} else {
		ivsize = crypto_skcipher_ivsize(cri_any_tfm(cd));
		bs = crypto_skcipher_blocksize(cri_any_tfm(cd));
	}

	if (!ivsize) {
		if (cd->cfg.iv_mode != CRI_IV_NONE)
			DMWARN("Selected cipher does not support IVs");
		cd->cfg.iv_mode = CRI_IV_NONE;
		cd->iv_size = 0;
		return cri_iv_key_layout(cd, error);
	}
	switch (cd->cfg.iv_mode) {
	case CRI_IV_NONE:
		*error = "IV mechanism required: the cipher takes an IV";
		return -EINVAL;
	case CRI_IV_INVALID:
		*error = "Invalid IV mode";
		return -EINVAL;
	case CRI_IV_TCW:
	case CRI_IV_EBOIV:
	case CRI_IV_ELEPHANT:
		/*
		 * dm-crypt takes these with an AEAD and then treats the AEAD
		 * as a skcipher; refused here rather than run that.
		 */
		if (cd->aead) {
			*error = CRI_ERR_IV "the IV mode takes a skcipher, not an AEAD";
			return -EINVAL;
		}
		break;
	default:
		break;
	}
	/* As dm-crypt: room for at least a 64-bit sector number. */
	cd->iv_size = max(ivsize, (unsigned int)sizeof(u64));
	if (cd->iv_size > CRI_MAX_IV_SIZE) {
		*error = CRI_ERR_IV "IV size too large";
		return -EINVAL;
	}
	err = cri_iv_key_layout(cd, error);
	if (err)
		return err;
	switch (cd->cfg.iv_mode) {
	case CRI_IV_BENBI:
		if (!is_power_of_2(bs)) {
			*error = CRI_ERR_IV "cypher blocksize is not a power of 2";
			return -EINVAL;
		}
		if (bs > 512) {
			*error = CRI_ERR_IV "cypher blocksize is > 512";
			return -EINVAL;
		}
		cd->benbi_shift = 9 - ilog2(bs);
		return 0;
	case CRI_IV_LMK:
	case CRI_IV_TCW:
		return cri_iv_init_hashed(cd, error);
	case CRI_IV_EBOIV:
	case CRI_IV_ELEPHANT:
		return cri_iv_init_eboiv(cd, error);
	case CRI_IV_RANDOM:
		/* As dm-crypt: stored in the integrity metadata, all of it. */
		cd->integ.iv_size = cd->iv_size;
		return 0;
	default:
		return 0;
	}
}

void cri_iv_exit(struct cri_dev *cd)
{
	if (cd->iv.hash)
		crypto_free_shash(cd->iv.hash);
	if (cd->iv.ivtfm)
		crypto_free_sync_skcipher(cd->iv.ivtfm);
	if (cd->iv.ecb)
		crypto_free_sync_skcipher(cd->iv.ecb);
	kfree_sensitive(cd->iv.seed);
	memset(&cd->iv, 0, sizeof(cd->iv));
}

/*
 * Take the IV mode's parts of a full key (the tfms have theirs): the lmk
 * seed after the 64 keys, tcw's tail, eboiv's copy of the first tfm's key,
 * elephant's AES key.  Called with the key and with the junk of a wipe.
 */
int cri_iv_set_key(struct cri_dev *cd, const u8 *key)
{
	unsigned int tail = cd->cfg.key_size - cd->key_extra_size;
	int err = 0, r;

	switch (cd->cfg.iv_mode) {
	case CRI_IV_LMK:
		/* As dm-crypt: 16 bytes of key, the rest of the seed zero. */
		if (cd->iv.seed)
			memcpy(cd->iv.seed,
			       key + cd->cfg.key_count * (cd->cfg.key_size / cd->key_parts),
			       crypto_shash_digestsize(cd->iv.hash));
		break;
	case CRI_IV_TCW:
		memcpy(cd->iv.seed, key + tail, cd->key_extra_size);
		break;
	case CRI_IV_ELEPHANT:
		err = crypto_sync_skcipher_setkey(cd->iv.ecb, key + tail,
						  cd->key_extra_size);
		fallthrough;
	case CRI_IV_EBOIV:
		r = crypto_sync_skcipher_setkey(cd->iv.ivtfm, key,
						cri_subkey_size(cd));
		err = err ?: r;
		break;
	default:
		break;
	}
	return err;
}

/* The sector number an IV is made of: units of sector_size if asked. */
static u64 cri_iv_sector(const struct cri_dev *cd, u64 sector)
{
	if (test_bit(CRI_IV_LARGE_SECTORS, &cd->cfg.flags))
		sector >>= cd->sector_shift;
	return sector;
}

/*
 * Fill iv (cd->iv_size bytes) for the data sector that starts at 512-byte
 * sector @sector (iv_offset included), for the modes made of the sector
 * number alone.  As dm-crypt, the IV counts 512-byte units unless
 * iv_large_sectors asks for units of sector_size.
 */
void cri_iv_gen(const struct cri_dev *cd, u8 *iv, u64 sector)
{
	unsigned int n = cd->iv_size, i;
	__le64 le;

	sector = cri_iv_sector(cd, sector);
	memset(iv, 0, n);
	switch (cd->cfg.iv_mode) {
	case CRI_IV_PLAIN:
		put_unaligned_le32(sector & 0xffffffff, iv);
		break;
	case CRI_IV_PLAIN64:
	case CRI_IV_ESSIV:
		put_unaligned_le64(sector, iv);
		break;
	case CRI_IV_PLAIN64BE:
		put_unaligned_be64(sector, iv + n - sizeof(u64));
		break;
	case CRI_IV_BENBI:
		/* Big-endian count of cipher blocks from 1 (LRW/narrow modes). */
		put_unaligned_be64((sector << cd->benbi_shift) + 1,
				   iv + n - sizeof(u64));
		break;
	case CRI_IV_TCW:
		/* The IV seed, each 8-byte half xored with the sector number. */
		le = cpu_to_le64(sector);
		for (i = 0; i < n; i++)
			iv[i] = cd->iv.seed[i] ^ ((u8 *)&le)[i % sizeof(le)];
		break;
	default:
		/* null, none; lmk and eboiv are made in cri_iv_pre(). */
		break;
	}
}

/*
 * lmk's IV for a plaintext sector: the MD5 state (no padding, no final)
 * after the seed (v3), bytes 16..511 of the sector and a 16-byte trailer
 * of the sector number cut to 56 bits; the state's words little-endian.
 */
static int cri_lmk_iv(const struct cri_dev *cd, u64 sector, const u8 *data,
		      u8 *iv)
{
	SHASH_DESC_ON_STACK(desc, cd->iv.hash);
	struct md5_state md5;
	__le32 trailer[4];
	int err, i;

	desc->tfm = cd->iv.hash;
	err = crypto_shash_init(desc);
	if (!err && cd->iv.seed)
		err = crypto_shash_update(desc, cd->iv.seed, CRI_LMK_SEED_SIZE);
	if (!err)
		err = crypto_shash_update(desc, data + MD5_DIGEST_SIZE,
					  CRI_LMK_BYTES - MD5_DIGEST_SIZE);
	trailer[0] = cpu_to_le32(lower_32_bits(sector));
	trailer[1] = cpu_to_le32((upper_32_bits(sector) & 0x00ffffff) |
				 0x80000000);
	trailer[2] = cpu_to_le32(4024);
	trailer[3] = 0;
	if (!err)
		err = crypto_shash_update(desc, (u8 *)trailer, sizeof(trailer));
	if (!err)
		err = crypto_shash_export(desc, &md5);
	shash_desc_zero(desc);
	if (err)
		return err;
	for (i = 0; i < MD5_HASH_WORDS; i++)
		__cpu_to_le32s(&md5.hash[i]);
	memcpy(iv, md5.hash, cd->iv_size);
	memzero_explicit(&md5, sizeof(md5));
	return 0;
}

/*
 * tcw's whitening of a 512-byte sector, applied to ciphertext (its own
 * inverse): the 16-byte whitening xored with the sector number, each
 * 32-bit word replaced by its CRC32, folded to 8 bytes, xored everywhere.
 */
static int cri_tcw_whiten(const struct cri_dev *cd, u64 sector, u8 *data)
{
	const u8 *whitening = cd->iv.seed + cd->iv_size;
	SHASH_DESC_ON_STACK(desc, cd->iv.hash);
	__le64 le = cpu_to_le64(sector);
	u8 buf[CRI_TCW_WHITENING_SIZE];
	int err = 0, i;

	crypto_xor_cpy(buf, whitening, (u8 *)&le, 8);
	crypto_xor_cpy(buf + 8, whitening + 8, (u8 *)&le, 8);
	desc->tfm = cd->iv.hash;
	for (i = 0; i < 4 && !err; i++)
		err = crypto_shash_digest(desc, buf + 4 * i, 4, buf + 4 * i);
	shash_desc_zero(desc);
	if (!err) {
		crypto_xor(buf, buf + 12, 4);
		crypto_xor(buf + 4, buf + 8, 4);
		for (i = 0; i < CRI_LMK_BYTES; i += 8)
			crypto_xor(data + i, buf, 8);
	}
	memzero_explicit(buf, sizeof(buf));
	return err;
}

/*
 * Room the IV modes' own cipher requests need.  They use the bulk
 * request's memory (cri_sector.req), free before and after each sector.
 */
unsigned int cri_iv_reqsize(const struct cri_dev *cd)
{
	unsigned int size = 0;

	if (cd->iv.ivtfm)
		size = crypto_skcipher_reqsize(&cd->iv.ivtfm->base);
	if (cd->iv.ecb)
		size = max(size, crypto_skcipher_reqsize(&cd->iv.ecb->base));
	return size;
}

/* One synchronous encryption in place, on the sector's spare request. */
static int cri_iv_encrypt(struct crypto_sync_skcipher *tfm,
			  struct skcipher_request *req, u8 *buf,
			  unsigned int len, u8 *iv)
{
	struct scatterlist sg;

	sg_init_one(&sg, buf, len);
	skcipher_request_set_sync_tfm(req, tfm);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, len, iv);
	return crypto_skcipher_encrypt(req);
}

/* eboiv: E(K, 0) in CBC with the sector's byte offset as the IV. */
static int cri_eboiv(const struct cri_dev *cd, u64 sector, u8 *iv,
		     struct skcipher_request *req)
{
	u8 offset[CRI_MAX_IV_SIZE] __aligned(sizeof(u64)) = { };

	put_unaligned_le64(sector * cd->cfg.sector_size, offset);
	memset(iv, 0, cd->iv_size);
	return cri_iv_encrypt(cd->iv.ivtfm, req, iv, cd->iv_size, offset);
}

/*
 * The Elephant diffusers of BitLocker's 2006 paper, on a sector as 32-bit
 * little-endian words d[0..n-1], indices modulo n.  A and B each run a
 * number of cycles of the step d[i] += d[i + a] ^ rol32(d[i + b], r[i % 4])
 * for i = 0..n-1 in order; the inverse runs the steps backwards with -=.
 * Decryption of the disk format runs B then A; encryption A^-1 then B^-1.
 */
struct cri_diffuser {
	int a, b;
	unsigned int cycles;
	u8 rot[4];
};

static const struct cri_diffuser cri_diffuser_a = { -2, -5, 5, { 9, 0, 13, 0 } };
static const struct cri_diffuser cri_diffuser_b = { 2, 5, 3, { 0, 10, 0, 25 } };

static u32 cri_diffuse_term(const u32 *d, unsigned int n, unsigned int i,
			    const struct cri_diffuser *df)
{
	return d[(i + n + df->a) % n] ^
	       rol32(d[(i + n + df->b) % n], df->rot[i % 4]);
}

static void cri_diffuse(u32 *d, unsigned int n, const struct cri_diffuser *df,
			bool inverse)
{
	unsigned int c, i, k;

	for (c = 0; c < df->cycles; c++) {
		for (k = 0; k < n; k++) {
			i = inverse ? n - 1 - k : k;
			if (inverse)
				d[i] -= cri_diffuse_term(d, n, i, df);
			else
				d[i] += cri_diffuse_term(d, n, i, df);
		}
	}
}

static void cri_words_le(u32 *d, unsigned int n, bool to_cpu)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		d[i] = to_cpu ? le32_to_cpu((__force __le32)d[i]) :
				(__force u32)cpu_to_le32(d[i]);
}

/*
 * Elephant on a sector of plaintext at data: for a write, sector key in,
 * then the inverse diffusers A and B; for a read (after decryption), the
 * diffusers B and A, then the sector key out.  The sector key is two AES
 * blocks of the byte offset, the second with its last byte 0x80.
 */
static int cri_elephant(const struct cri_dev *cd, const struct cri_sector *s,
			u64 sector, u8 *data)
{
	unsigned int n = cd->cfg.sector_size / sizeof(u32), i;
	bool write = s->write;
	u8 *ks = s->scratch;
	int err;

	memset(ks, 0, CRI_ELEPHANT_MAX_KEY);
	put_unaligned_le64(sector * cd->cfg.sector_size, ks);
	put_unaligned_le64(sector * cd->cfg.sector_size, ks + 16);
	ks[31] = 0x80;
	err = cri_iv_encrypt(cd->iv.ecb, s->req, ks, CRI_ELEPHANT_MAX_KEY, NULL);
	if (err)
		goto out;

	if (write) {
		for (i = 0; i < cd->cfg.sector_size; i += CRI_ELEPHANT_MAX_KEY)
			crypto_xor(data + i, ks, CRI_ELEPHANT_MAX_KEY);
	}
	cri_words_le((u32 *)data, n, true);
	if (write) {
		cri_diffuse((u32 *)data, n, &cri_diffuser_a, true);
		cri_diffuse((u32 *)data, n, &cri_diffuser_b, true);
	} else {
		cri_diffuse((u32 *)data, n, &cri_diffuser_b, false);
		cri_diffuse((u32 *)data, n, &cri_diffuser_a, false);
	}
	cri_words_le((u32 *)data, n, false);
	if (!write) {
		for (i = 0; i < cd->cfg.sector_size; i += CRI_ELEPHANT_MAX_KEY)
			crypto_xor(data + i, ks, CRI_ELEPHANT_MAX_KEY);
	}
out:
	memzero_explicit(ks, CRI_ELEPHANT_MAX_KEY);
	return err;
}

/*
 * Before the cipher runs on a sector: its IV, and what the mode does to
 * the data first (tcw strips whitening from ciphertext read; elephant
 * copies written plaintext to the output and diffuses it there, and the
 * cipher then runs in place on the output: *in_place).
 */
int cri_iv_pre(const struct cri_dev *cd, const struct cri_sector *s, u8 *iv,
	       bool *in_place)
{
	u64 sector = cri_iv_sector(cd, s->sector);
	u8 *in, *out;
	int err = 0;

	*in_place = false;
	switch (cd->cfg.iv_mode) {
	case CRI_IV_LMK:
		if (!s->write) {
			memset(iv, 0, cd->iv_size);
			return 0;
		}
		in = kmap_local_page(s->in_page);
		err = cri_lmk_iv(cd, sector, in + s->in_off, iv);
		kunmap_local(in);
		return err;
	case CRI_IV_TCW:
		if (!s->write) {
			in = kmap_local_page(s->in_page);
			err = cri_tcw_whiten(cd, sector, in + s->in_off);
			kunmap_local(in);
		}
		cri_iv_gen(cd, iv, s->sector);
		return err;
	case CRI_IV_ELEPHANT:
		if (s->write) {
			out = kmap_local_page(s->out_page);
			memcpy_from_page(out + s->out_off, s->in_page, s->in_off,
					 cd->cfg.sector_size);
			err = cri_elephant(cd, s, sector, out + s->out_off);
			kunmap_local(out);
			if (err)
				return err;
			*in_place = true;
		}
		fallthrough;
	case CRI_IV_EBOIV:
		return cri_eboiv(cd, sector, iv, s->req);
	case CRI_IV_RANDOM:
		/* Fresh for every write, kept in the sector's metadata. */
		if (s->write) {
			get_random_bytes(iv, cd->iv_size);
			memcpy(s->stored_iv, iv, cd->iv_size);
		} else {
			memcpy(iv, s->stored_iv, cd->iv_size);
		}
		return 0;
	default:
		cri_iv_gen(cd, iv, s->sector);
		return 0;
	}
}

/*
 * After the cipher ran on a sector: lmk corrects a read's first block,
 * tcw whitens written ciphertext, elephant undoes its diffusion on reads.
 */
int cri_iv_post(const struct cri_dev *cd, const struct cri_sector *s)
{
	u64 sector = cri_iv_sector(cd, s->sector);
	u8 iv[MD5_DIGEST_SIZE];
	u8 *out;
	int err;

	switch (cd->cfg.iv_mode) {
	case CRI_IV_LMK:
		if (s->write)
			return 0;
		out = kmap_local_page(s->out_page);
		err = cri_lmk_iv(cd, sector, out + s->out_off, iv);
		if (!err)
			crypto_xor(out + s->out_off, iv, cd->iv_size);
		kunmap_local(out);
		memzero_explicit(iv, sizeof(iv));
		return err;
	case CRI_IV_TCW:
		if (!s->write)
			return 0;
		out = kmap_local_page(s->out_page);
		err = cri_tcw_whiten(cd, sector, out + s->out_off);
		kunmap_local(out);
		return err;
	case CRI_IV_ELEPHANT:
		if (s->write)
			return 0;
		out = kmap_local_page(s->out_page);
		err = cri_elephant(cd, s, sector, out + s->out_off);
		kunmap_local(out);
		return err;
	default:
		return 0;
	}
}
