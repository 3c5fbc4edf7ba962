// SPDX-License-Identifier: GPL-2.0-only
/* KUnit: integrity tables' MAC key and authenc()'s key blob. */

#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/aead.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/skcipher.h>

#include "cri_compat.h"
#include "cri_test.h"

static struct cri_dev *aead_dev(struct kunit *test, const char *cipher,
				unsigned int key_size, unsigned int mac_size)
{
	struct cri_dev *cd = kunit_kzalloc(test, sizeof(*cd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cd);
	cd->cfg.aead = true;
	cd->cfg.cipher_string = (char *)cipher;
	cd->cfg.key_size = key_size;
	cd->cfg.key_count = 1;
	cd->cfg.integrity_key_size = mac_size;
	return cd;
}

static void free_integrity(void *cd)
{
	cri_integrity_exit(cd);
}

static void test_mac_key_size(struct kunit *test)
{
	struct cri_dev *cd;
	char *error = NULL;

	/* authenc(): the MAC's digest size, unless the table gives one. */
	cd = aead_dev(test, "capi:authenc(hmac(sha256),xts(aes))-random", 96, 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_integrity, cd));
	KUNIT_EXPECT_EQ(test, 0, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.key_mac_size, 32U);
	KUNIT_EXPECT_NOT_NULL(test, cd->integ.authenc_key);
	cd = aead_dev(test, "capi:authenc(hmac(sha1),cbc(aes))-random", 52, 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_integrity, cd));
	KUNIT_EXPECT_EQ(test, 0, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.key_mac_size, 20U);
	cd = aead_dev(test, "capi:authenc(hmac(sha256),xts(aes))-random", 80, 16);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_integrity, cd));
	KUNIT_EXPECT_EQ(test, 0, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.key_mac_size, 16U);

	/* gcm(aes) has one key; no MAC key size applies. */
	cd = aead_dev(test, "capi:gcm(aes)-random", 16, 0);
	KUNIT_EXPECT_EQ(test, 0, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.key_mac_size, 0U);
	KUNIT_EXPECT_NULL(test, cd->integ.authenc_key);
	cd = aead_dev(test, "capi:gcm(aes)-random", 16, 16);
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, "integrity_key_size applies to authenc() ciphers only");

	/* Without the comma there is no MAC to name; an unknown one fails. */
	cd = aead_dev(test, "capi:authenc(hmac(sha256))-random", 64, 0);
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, "Invalid AEAD cipher spec");
	cd = aead_dev(test, "capi:authenc(hmac(nosuchhash),xts(aes))-random", 64, 0);
	KUNIT_EXPECT_NE(test, 0, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_STREQ(test, error, "Invalid AEAD cipher spec");

	/* Not an AEAD: the table's integrity_key_size is only reported. */
	cd = aead_dev(test, "aes-xts-plain64", 64, 20);
	cd->cfg.aead = false;
	KUNIT_EXPECT_EQ(test, 0, cri_mac_key_init(cd, &error));
	KUNIT_EXPECT_EQ(test, cd->integ.key_mac_size, 20U);
}

static void free_aead(void *tfm)
{
	crypto_free_aead(tfm);
}

/*
 * The table's key for authenc(hmac(sha256),xts(aes)) is the XTS key then
 * the MAC key (dm-crypt's order): what the AEAD makes of a sector with our
 * key blob must be XTS under the first 64 bytes and HMAC-SHA256 under the
 * last 32 over associated data and ciphertext, computed here from those
 * primitives; and the blob must be wiped afterwards.
 */
static void test_authenc_key_layout(struct kunit *test)
{
	struct crypto_skcipher *xts;
	struct crypto_shash *hmac;
	struct skcipher_request *sreq;
	struct aead_request *req;
	struct scatterlist sg;
	DECLARE_CRYPTO_WAIT(wait);
	u8 key[96], iv[16], ivc[16], mac[32];
	u8 *buf, *ref;
	struct cri_dev *cd;
	char *error = NULL;
	unsigned int i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = i * 7 + 1;
	memset(iv, 0x5c, sizeof(iv));
	buf = kunit_kzalloc(test, 24 + 512 + 32, GFP_KERNEL);
	ref = kunit_kzalloc(test, 24 + 512, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, buf && ref);
	for (i = 0; i < 24 + 512; i++)
		buf[i] = i;
	memcpy(ref, buf, 24 + 512);

	cd = aead_dev(test, "capi:authenc(hmac(sha256),xts(aes))-random", 96, 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_integrity, cd));
	KUNIT_ASSERT_EQ(test, 0, cri_mac_key_init(cd, &error));
	cd->aead = crypto_alloc_aead("authenc(hmac(sha256),xts(aes))", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cd->aead));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_aead, cd->aead));
	KUNIT_ASSERT_EQ(test, 0, crypto_aead_setauthsize(cd->aead, 32));
	KUNIT_ASSERT_EQ(test, 0, cri_aead_setkey(cd, key, sizeof(key)));
	KUNIT_EXPECT_NULL(test, memchr_inv(cd->integ.authenc_key, 0,
					   cd->integ.authenc_key_size));

	req = aead_request_alloc(cd->aead, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	sg_init_one(&sg, buf, 24 + 512 + 32);
	memcpy(ivc, iv, sizeof(iv));
	aead_request_set_callback(req, 0, crypto_req_done, &wait);
	aead_request_set_ad(req, 24);
	aead_request_set_crypt(req, &sg, &sg, 512, ivc);
	KUNIT_EXPECT_EQ(test, 0, crypto_wait_req(crypto_aead_encrypt(req), &wait));
	aead_request_free(req);

	xts = crypto_alloc_skcipher("xts(aes)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(xts));
	KUNIT_EXPECT_EQ(test, 0, crypto_skcipher_setkey(xts, key, 64));
	sreq = skcipher_request_alloc(xts, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sreq);
	sg_init_one(&sg, ref + 24, 512);
	memcpy(ivc, iv, sizeof(iv));
	skcipher_request_set_callback(sreq, 0, crypto_req_done, &wait);
	skcipher_request_set_crypt(sreq, &sg, &sg, 512, ivc);
	KUNIT_EXPECT_EQ(test, 0, crypto_wait_req(crypto_skcipher_encrypt(sreq), &wait));
	skcipher_request_free(sreq);
	crypto_free_skcipher(xts);

	hmac = crypto_alloc_shash("hmac(sha256)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hmac));
	KUNIT_EXPECT_EQ(test, 0, crypto_shash_setkey(hmac, key + 64, 32));
	KUNIT_EXPECT_EQ(test, 0, crypto_shash_tfm_digest(hmac, ref, 24 + 512, mac));
	crypto_free_shash(hmac);

	KUNIT_EXPECT_MEMEQ(test, buf, ref, 24 + 512);
	KUNIT_EXPECT_MEMEQ(test, buf + 24 + 512, mac, 32);
}

static struct kunit_case cri_integrity_cases[] = {
	KUNIT_CASE(test_mac_key_size),
	KUNIT_CASE(test_authenc_key_layout),
	{}
};

static struct kunit_suite cri_integrity_suite = {
	.name = "crypt-inline-integrity",
	.test_cases = cri_integrity_cases,
};

kunit_test_suite(cri_integrity_suite);
