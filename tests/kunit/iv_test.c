// SPDX-License-Identifier: GPL-2.0-only
/* KUnit: the IV modes against fixed vectors and round trips. */

#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/aes.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <crypto/skcipher.h>

#include "cri_compat.h"
#include "cri_test.h"

static struct cri_dev *iv_dev(struct kunit *test, enum cri_iv_mode mode,
			      unsigned int iv_size)
{
	struct cri_dev *cd = kunit_kzalloc(test, sizeof(*cd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cd);
	cd->cfg.iv_mode = mode;
	cd->cfg.sector_size = 512;
	cd->iv_size = iv_size;
	return cd;
}

/* Generate into a buffer full of garbage: every byte must be written. */
static void iv_expect(struct kunit *test, const struct cri_dev *cd, u64 sector,
		      const u8 *want)
{
	u8 iv[CRI_MAX_IV_SIZE];

	memset(iv, 0xa5, sizeof(iv));
	cri_iv_gen(cd, iv, sector);
	KUNIT_EXPECT_MEMEQ(test, iv, want, cd->iv_size);
}

static void test_iv_plain(struct kunit *test)
{
	static const u8 want[16] = { 0x02, 0x00, 0x00, 0x80 };

	/* 32-bit little endian: the high half of the sector is dropped. */
	iv_expect(test, iv_dev(test, CRI_IV_PLAIN, 16), 0x1280000002ULL, want);
}

static void test_iv_plain64(struct kunit *test)
{
	static const u8 want[16] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };

	iv_expect(test, iv_dev(test, CRI_IV_PLAIN64, 16), 0x0102030405060708ULL, want);
}

static void test_iv_plain64be(struct kunit *test)
{
	static const u8 want[16] = {
		[8] = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};

	/* Big endian in the last 8 bytes of the IV. */
	iv_expect(test, iv_dev(test, CRI_IV_PLAIN64BE, 16), 0x0102030405060708ULL, want);
}

static void test_iv_benbi(struct kunit *test)
{
	struct cri_dev *cd = iv_dev(test, CRI_IV_BENBI, 16);
	static const u8 want0[16] = { [15] = 0x01 };
	/* (3 << 5) + 1 = 97: 16-byte blocks, 32 per 512-byte sector. */
	static const u8 want3[16] = { [15] = 0x61 };

	cd->benbi_shift = 5;
	iv_expect(test, cd, 0, want0);
	iv_expect(test, cd, 3, want3);
}

static void test_iv_null(struct kunit *test)
{
	static const u8 zero[16];

	iv_expect(test, iv_dev(test, CRI_IV_NULL, 16), 12345, zero);
}

/* essiv: the template encrypts the plain64 IV itself. */
static void test_iv_essiv_is_plain64(struct kunit *test)
{
	static const u8 want[16] = { 0x39, 0x30 };

	iv_expect(test, iv_dev(test, CRI_IV_ESSIV, 16), 12345, want);
}

static void test_iv_large_sectors(struct kunit *test)
{
	struct cri_dev *cd = iv_dev(test, CRI_IV_PLAIN64, 16);
	static const u8 small[16] = { 80 };
	static const u8 large[16] = { 10 };

	cd->cfg.sector_size = 4096;
	cd->sector_shift = 3;
	/* Without iv_large_sectors the IV counts 512-byte units. */
	iv_expect(test, cd, 80, small);
	__set_bit(CRI_IV_LARGE_SECTORS, &cd->cfg.flags);
	iv_expect(test, cd, 80, large);
}

static void free_tfm(void *tfm)
{
	crypto_free_skcipher(tfm);
}

static void free_iv(void *cd)
{
	cri_iv_exit(cd);
}

/* A device with one tfm of alg (key_count 1), key_size bytes of key. */
static struct cri_dev *check_dev(struct kunit *test, const char *alg,
				 enum cri_iv_mode mode)
{
	struct cri_dev *cd = iv_dev(test, mode, 0);

	cd->tfms = kunit_kzalloc(test, sizeof(*cd->tfms), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cd->tfms);
	cd->tfms[0] = crypto_alloc_skcipher(alg, 0, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cd->tfms[0]), "%s: %ld", alg,
			       PTR_ERR(cd->tfms[0]));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_tfm, cd->tfms[0]));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_iv, cd));
	cd->cfg.key_count = 1;
	cd->cfg.key_size = 32;
	cd->cfg.crypto_name = (char *)alg;
	return cd;
}

static void test_iv_check(struct kunit *test)
{
	struct cri_dev *cd;
	char *error = NULL;

	cd = check_dev(test, "cbc(aes)", CRI_IV_BENBI);
	KUNIT_EXPECT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->iv_size, 16U);
	KUNIT_EXPECT_EQ(test, cd->benbi_shift, 5U);

	/* A cipher without IV ignores the IV mode, as dm-crypt does. */
	cd = check_dev(test, "ecb(aes)", CRI_IV_PLAIN64);
	KUNIT_EXPECT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->iv_size, 0U);
	KUNIT_EXPECT_EQ(test, cd->cfg.iv_mode, CRI_IV_NONE);

	cd = check_dev(test, "cbc(aes)", CRI_IV_NONE);
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_iv_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, "IV mechanism required: the cipher takes an IV");

	/* Unknown and unsupported modes: refused where an IV is used. */
	cd = check_dev(test, "cbc(aes)", CRI_IV_INVALID);
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_iv_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, "Invalid IV mode");
	cd = check_dev(test, "ecb(aes)", CRI_IV_INVALID);
	KUNIT_EXPECT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->cfg.iv_mode, CRI_IV_NONE);

	/* random: all of the IV is stored in the metadata, unless unused. */
	cd = check_dev(test, "cbc(aes)", CRI_IV_RANDOM);
	KUNIT_EXPECT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.iv_size, 16U);
	cd = check_dev(test, "ecb(aes)", CRI_IV_RANDOM);
	KUNIT_EXPECT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.iv_size, 0U);
}

/*
 * ESSIV end to end: essiv(cbc(aes),sha256) with our IV must equal CBC with
 * IV = AES_{sha256(key)}(le64 sector), the definition dm-crypt's disk
 * format uses.
 */
static void test_iv_essiv_vector(struct kunit *test)
{
	static const u8 key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct crypto_aes_ctx *aes;
	struct cri_dev *cd;
	struct skcipher_request *req;
	struct scatterlist sg;
	DECLARE_CRYPTO_WAIT(wait);
	u8 salt[32], iv[16], iv2[16];
	u8 *a, *b;
	struct cri_dev *ref;
	char *error = NULL;

	a = kunit_kzalloc(test, 512, GFP_KERNEL);
	b = kunit_kzalloc(test, 512, GFP_KERNEL);
	aes = kunit_kzalloc(test, sizeof(*aes), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, a && b && aes);
	memset(a, 0x42, 512);
	memset(b, 0x42, 512);

	cd = check_dev(test, "essiv(cbc(aes),sha256)", CRI_IV_ESSIV);
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_ASSERT_EQ(test, 0, crypto_skcipher_setkey(cd->tfms[0], key, sizeof(key)));
	cri_iv_gen(cd, iv, 77);
	req = skcipher_request_alloc(cd->tfms[0], GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	sg_init_one(&sg, a, 512);
	skcipher_request_set_callback(req, 0, crypto_req_done, &wait);
	skcipher_request_set_crypt(req, &sg, &sg, 512, iv);
	KUNIT_EXPECT_EQ(test, 0, crypto_wait_req(crypto_skcipher_encrypt(req), &wait));
	skcipher_request_free(req);

	/* The reference, built from its definition. */
	sha256(key, sizeof(key), salt);
	KUNIT_ASSERT_EQ(test, 0, aes_expandkey(aes, salt, sizeof(salt)));
	memset(iv2, 0, sizeof(iv2));
	put_unaligned_le64(77, iv2);
	aes_encrypt(aes, iv2, iv2);
	ref = check_dev(test, "cbc(aes)", CRI_IV_PLAIN64);
	KUNIT_ASSERT_EQ(test, 0, crypto_skcipher_setkey(ref->tfms[0], key, sizeof(key)));
	req = skcipher_request_alloc(ref->tfms[0], GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	sg_init_one(&sg, b, 512);
	skcipher_request_set_callback(req, 0, crypto_req_done, &wait);
	skcipher_request_set_crypt(req, &sg, &sg, 512, iv2);
	KUNIT_EXPECT_EQ(test, 0, crypto_wait_req(crypto_skcipher_encrypt(req), &wait));
	skcipher_request_free(req);

	KUNIT_EXPECT_MEMEQ(test, a, b, 512);
	KUNIT_EXPECT_MEMNEQ(test, a + 480, "\x42\x42\x42\x42", 4);
}

/* How the key divides between tfms and IV modes, as dm-crypt divides it. */
static void test_iv_key_layout(struct kunit *test)
{
	struct cri_dev *cd;
	char *error = NULL;

	/* loop-AES v2: 64 keys, no seed; v3: a 65th part is the seed. */
	cd = check_dev(test, "cbc(aes)", CRI_IV_LMK);
	cd->cfg.key_count = 64;
	cd->cfg.key_size = 64 * 32;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->key_parts, 64U);
	KUNIT_EXPECT_EQ(test, cd->key_extra_size, 0U);
	KUNIT_EXPECT_EQ(test, cri_subkey_size(cd), 32U);
	KUNIT_EXPECT_NULL(test, cd->iv.seed);
	cd = check_dev(test, "cbc(aes)", CRI_IV_LMK);
	cd->cfg.key_count = 64;
	cd->cfg.key_size = 65 * 32;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->key_parts, 65U);
	KUNIT_EXPECT_EQ(test, cd->key_extra_size, 32U);
	KUNIT_EXPECT_EQ(test, cri_subkey_size(cd), 32U);
	KUNIT_EXPECT_NOT_NULL(test, cd->iv.seed);

	/* tcw: IV seed (the IV size) and 16 bytes of whitening at the tail. */
	cd = check_dev(test, "cbc(aes)", CRI_IV_TCW);
	cd->cfg.key_size = 64;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->key_parts, 3U);
	KUNIT_EXPECT_EQ(test, cd->key_extra_size, 32U);
	KUNIT_EXPECT_EQ(test, cri_subkey_size(cd), 32U);
	cd = check_dev(test, "cbc(aes)", CRI_IV_TCW);
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_iv_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, CRI_ERR_KEY "wrong key size for TCW");

	/* elephant: half the key is the sector-key AES key, at most 32 bytes. */
	cd = check_dev(test, "cbc(aes)", CRI_IV_ELEPHANT);
	cd->cfg.key_size = 64;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->key_extra_size, 32U);
	KUNIT_EXPECT_EQ(test, cri_subkey_size(cd), 32U);
	cd = check_dev(test, "cbc(aes)", CRI_IV_ELEPHANT);
	cd->cfg.key_size = 128;
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_iv_init(cd, &error));

	/* lmk and tcw work on 512-byte sectors only. */
	cd = check_dev(test, "cbc(aes)", CRI_IV_LMK);
	cd->cfg.sector_size = 4096;
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_iv_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, CRI_ERR_IV "unsupported sector size for LMK");
	cd = check_dev(test, "xts(aes)", CRI_IV_EBOIV);
	KUNIT_EXPECT_EQ(test, 0, cri_iv_init(cd, &error));
}

static void free_page_action(void *page)
{
	__free_page(page);
}

/* A sector of 512 bytes at the start of a fresh page, for pre and post. */
static void sector_on_page(struct kunit *test, const struct cri_dev *cd,
			   struct cri_sector *s, u64 sector, bool write)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_page_action, page));
	memset(s, 0, sizeof(*s));
	s->in_page = page;
	s->out_page = page;
	s->sector = sector;
	s->write = write;
	s->scratch = kunit_kzalloc(test, CRI_ELEPHANT_MAX_KEY, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->scratch);
	s->req = kunit_kzalloc(test, sizeof(*s->req) + cri_iv_reqsize(cd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->req);
}

static void fill_pattern(u8 *p, unsigned int len, u8 seed)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(seed + i * 7);
}

/* eboiv: the IV is AES_K(le64 byte offset), by its definition. */
static void test_iv_eboiv_vector(struct kunit *test)
{
	static const u8 key[32] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	struct crypto_aes_ctx *aes;
	struct cri_sector s;
	struct cri_dev *cd;
	u8 *iv, want[16] = { };
	char *error = NULL;
	bool in_place;

	aes = kunit_kzalloc(test, sizeof(*aes), GFP_KERNEL);
	iv = kunit_kzalloc(test, CRI_MAX_IV_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, aes && iv);
	cd = check_dev(test, "cbc(aes)", CRI_IV_EBOIV);
	cd->cfg.sector_size = 4096;
	cd->sector_shift = 3;
	__set_bit(CRI_IV_LARGE_SECTORS, &cd->cfg.flags);
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_ASSERT_EQ(test, 0, cri_iv_set_key(cd, key));
	sector_on_page(test, cd, &s, 8 * 1000, true);
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv, &in_place));
	KUNIT_EXPECT_FALSE(test, in_place);

	KUNIT_ASSERT_EQ(test, 0, aes_expandkey(aes, key, sizeof(key)));
	put_unaligned_le64(1000 * 4096, want);
	aes_encrypt(aes, want, want);
	KUNIT_EXPECT_MEMEQ(test, iv, want, 16);
}

/*
 * lmk: the IV of a write is what a read, decrypted with a zero IV, takes
 * out of its first block again; it depends on the data past that block,
 * on the sector and on the seed.
 */
static void test_iv_lmk_roundtrip(struct kunit *test)
{
	u8 *key, *iv, *iv2, *plain, *data;
	struct cri_sector s;
	struct cri_dev *cd;
	char *error = NULL;
	bool in_place;

	key = kunit_kzalloc(test, 65 * 32, GFP_KERNEL);
	iv = kunit_kzalloc(test, CRI_MAX_IV_SIZE, GFP_KERNEL);
	iv2 = kunit_kzalloc(test, CRI_MAX_IV_SIZE, GFP_KERNEL);
	plain = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, key && iv && iv2 && plain);
	fill_pattern(key, 65 * 32, 3);
	cd = check_dev(test, "cbc(aes)", CRI_IV_LMK);
	cd->cfg.key_count = 64;
	cd->cfg.key_size = 65 * 32;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_ASSERT_EQ(test, 0, cri_iv_set_key(cd, key));
	KUNIT_EXPECT_MEMEQ(test, cd->iv.seed, key + 64 * 32, 16);

	sector_on_page(test, cd, &s, 0x123456789aULL, true);
	data = page_address(s.in_page);
	fill_pattern(plain, 512, 11);
	memcpy(data, plain, 512);
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv, &in_place));
	KUNIT_EXPECT_MEMNEQ(test, iv, iv2, 16);
	crypto_xor(data, iv, 16);
	s.write = false;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv2, &in_place));
	KUNIT_EXPECT_TRUE(test, !memchr_inv(iv2, 0, 16));
	KUNIT_ASSERT_EQ(test, 0, cri_iv_post(cd, &s));
	KUNIT_EXPECT_MEMEQ(test, data, plain, 512);

	/* Another sector, or another byte past the first block: another IV. */
	s.write = true;
	s.sector++;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv2, &in_place));
	KUNIT_EXPECT_MEMNEQ(test, iv, iv2, 16);
	s.sector--;
	data[511] ^= 1;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv2, &in_place));
	KUNIT_EXPECT_MEMNEQ(test, iv, iv2, 16);
	data[511] ^= 1;
	cd->iv.seed[0] ^= 1;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv2, &in_place));
	KUNIT_EXPECT_MEMNEQ(test, iv, iv2, 16);
}

/*
 * tcw: IV = seed ^ sector in each 8-byte half; whitening is its own
 * inverse and changes every 8-byte word alike.  (These and the other
 * old-format tests check structure; byte equality with dm-crypt is
 * cri-legacy's, against the kernel's own dm-crypt.)
 */
static void test_iv_tcw(struct kunit *test)
{
	u8 key[64], *iv, *data, *copy;
	u8 want[16];
	struct cri_sector s;
	struct cri_dev *cd;
	char *error = NULL;
	unsigned int i;
	bool in_place;

	iv = kunit_kzalloc(test, CRI_MAX_IV_SIZE, GFP_KERNEL);
	copy = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, iv && copy);
	fill_pattern(key, sizeof(key), 5);
	cd = check_dev(test, "cbc(aes)", CRI_IV_TCW);
	cd->cfg.key_size = sizeof(key);
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_ASSERT_EQ(test, 0, cri_iv_set_key(cd, key));

	sector_on_page(test, cd, &s, 0x0102030405060708ULL, false);
	data = page_address(s.in_page);
	fill_pattern(data, 512, 1);
	memcpy(copy, data, 512);
	/* A read strips whitening before the IV is used. */
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv, &in_place));
	for (i = 0; i < 16; i++)
		want[i] = key[32 + i] ^ (u8)(0x08 - (i % 8));
	KUNIT_EXPECT_MEMEQ(test, iv, want, 16);
	KUNIT_EXPECT_MEMNEQ(test, data, copy, 8);
	for (i = 8; i < 512; i += 8) {
		u8 a[8], b[8];

		crypto_xor_cpy(a, data, copy, 8);
		crypto_xor_cpy(b, data + i, copy + i, 8);
		KUNIT_EXPECT_MEMEQ(test, a, b, 8);
	}
	s.write = true;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_post(cd, &s));
	KUNIT_EXPECT_MEMEQ(test, data, copy, 512);
}

/*
 * elephant: a write's preparation of the plaintext (sector key, diffusers)
 * is undone exactly by a read's finishing, and it diffuses: one bit in
 * changes most of the sector.
 */
static void test_iv_elephant_roundtrip(struct kunit *test)
{
	u8 key[64], *iv, *plain, *data, *first;
	struct cri_sector s;
	struct cri_dev *cd;
	char *error = NULL;
	unsigned int i, same = 0;
	bool in_place;

	iv = kunit_kzalloc(test, CRI_MAX_IV_SIZE, GFP_KERNEL);
	plain = kunit_kzalloc(test, 4096, GFP_KERNEL);
	first = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, iv && plain && first);
	fill_pattern(key, sizeof(key), 9);
	cd = check_dev(test, "cbc(aes)", CRI_IV_ELEPHANT);
	cd->cfg.key_size = sizeof(key);
	cd->cfg.sector_size = 4096;
	cd->sector_shift = 3;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_init(cd, &error));
	KUNIT_ASSERT_EQ(test, 0, cri_iv_set_key(cd, key));

	/* Plaintext on one page, the prepared sector on another. */
	sector_on_page(test, cd, &s, 64, true);
	fill_pattern(page_address(s.in_page), 4096, 2);
	memcpy(plain, page_address(s.in_page), 4096);
	s.out_page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s.out_page);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_page_action, s.out_page));
	data = page_address(s.out_page);
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv, &in_place));
	KUNIT_EXPECT_TRUE(test, in_place);
	KUNIT_EXPECT_MEMEQ(test, page_address(s.in_page), plain, 4096);
	memcpy(first, data, 4096);

	s.write = false;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_post(cd, &s));
	KUNIT_EXPECT_MEMEQ(test, data, plain, 4096);

	s.write = true;
	((u8 *)page_address(s.in_page))[100] ^= 1;
	KUNIT_ASSERT_EQ(test, 0, cri_iv_pre(cd, &s, iv, &in_place));
	for (i = 0; i < 4096; i++)
		same += data[i] == first[i];
	KUNIT_EXPECT_LT(test, same, 4096U / 8);
}

static struct kunit_case cri_iv_cases[] = {
	KUNIT_CASE(test_iv_plain),
	KUNIT_CASE(test_iv_plain64),
	KUNIT_CASE(test_iv_plain64be),
	KUNIT_CASE(test_iv_benbi),
	KUNIT_CASE(test_iv_null),
	KUNIT_CASE(test_iv_essiv_is_plain64),
	KUNIT_CASE(test_iv_large_sectors),
	KUNIT_CASE(test_iv_check),
	KUNIT_CASE(test_iv_essiv_vector),
	KUNIT_CASE(test_iv_key_layout),
	KUNIT_CASE(test_iv_eboiv_vector),
	KUNIT_CASE(test_iv_lmk_roundtrip),
	KUNIT_CASE(test_iv_tcw),
	KUNIT_CASE(test_iv_elephant_roundtrip),
	{}
};

static struct kunit_suite cri_iv_suite = {
	.name = "crypt-inline-iv",
	.test_cases = cri_iv_cases,
};

kunit_test_suite(cri_iv_suite);
