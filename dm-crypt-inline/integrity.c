// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: integrity tables, dm-crypt's authenticated encryption over
 * dm-integrity.  "integrity:<n>:aead" makes the cipher an AEAD whose tag,
 * with a random IV if the IV mode is "random", goes into the n bytes of
 * metadata that dm-integrity keeps beside each sector; "random" alone
 * stores only the IV there.  The layout of a sector's metadata tuple and of
 * the AEAD's input are dm-crypt's, so that either reads what the other
 * wrote (see cri.h and cri_aead_sector() in crypt.c).  Here: the checks made
 * at table load, and the tag pool.
 */

#include <linux/slab.h>
#include <crypto/authenc.h>
#include <crypto/hash.h>
#include <linux/rtnetlink.h>

#include "cri.h"
#include "cri_dmcrypt.h"

/* Tag buffers that always exist: a page each, bios split to fit. */
#define CRI_TAG_POOL_MIN	16

/*
 * The MAC key's size (dm-ima reports it for every table, as dm-crypt):
 * for authenc(<mac>,<cipher>), integrity_key_size if the
 * table gives it, else the MAC's digest size, which dm-crypt learns by
 * allocating the MAC named up to the first comma.  With it, the buffer in
 * which authenc()'s key is assembled at every key change, taken now so
 * that a key wipe cannot fail for memory.
 */
int cri_mac_key_init(struct cri_dev *cd, char **error)
{
	struct cri_integrity *ig = &cd->integ;
	struct crypto_ahash *mac;
	const char *api, *comma;
	char *name;

	ig->key_mac_size = cd->cfg.integrity_key_size;
	if (!cd->cfg.aead)
		return 0;
	/* The table parser took AEADs only in the capi: format. */
	api = cd->cfg.cipher_string + strlen("capi:");
	if (strncmp(api, "authenc(", 8)) {
		/* dm-crypt would take it and then fail or oops at setkey. */
		if (ig->key_mac_size) {
			*error = "integrity_key_size applies to authenc() ciphers only";
			return -EINVAL;
		}
		return 0;
	}
	comma = strchr(api, ',');
	if (!comma || comma < api + 8) {
		*error = "Invalid AEAD cipher spec";
		return -EINVAL;
	}
	name = kmemdup_nul(api + 8, comma - (api + 8), GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	mac = crypto_alloc_ahash(name, 0, CRYPTO_ALG_ALLOCATES_MEMORY);
	kfree(name);
	if (IS_ERR(mac)) {
		*error = "Invalid AEAD cipher spec";
		return PTR_ERR(mac);
	}
	if (!ig->key_mac_size)
		ig->key_mac_size = crypto_ahash_digestsize(mac);
	crypto_free_ahash(mac);

	ig->authenc_key_size = RTA_SPACE(sizeof(struct crypto_authenc_key_param)) +
			       cd->cfg.key_size;
	ig->authenc_key = kmalloc(ig->authenc_key_size, GFP_KERNEL);
	return ig->authenc_key ? 0 : -ENOMEM;
}

/*
 * An AEAD's key.  authenc() takes both of its keys in one blob: an rtattr
 * holding the cipher key's length, then the MAC key, then the cipher key;
 * the table's key is the cipher key followed by the MAC key, as dm-crypt
 * has it.  The blob is wiped once the tfm has taken it.
 */
int cri_aead_setkey(struct cri_dev *cd, const u8 *key, unsigned int size)
{
	struct cri_integrity *ig = &cd->integ;
	unsigned int mac = ig->key_mac_size;
	struct crypto_authenc_key_param *param;
	struct rtattr *rta;
	u8 *p;
	int err;

	if (!ig->authenc_key)
		return crypto_aead_setkey(cd->aead, key, size);
	if (size < mac)
		return -EINVAL;
	rta = (struct rtattr *)ig->authenc_key;
	rta->rta_type = CRYPTO_AUTHENC_KEYA_PARAM;
	rta->rta_len = RTA_LENGTH(sizeof(*param));
	param = RTA_DATA(rta);
	param->enckeylen = cpu_to_be32(size - mac);
	p = ig->authenc_key + RTA_SPACE(sizeof(*param));
	memcpy(p, key + size - mac, mac);
	memcpy(p + mac, key, size - mac);
	err = crypto_aead_setkey(cd->aead, ig->authenc_key,
				 RTA_SPACE(sizeof(*param)) + size);
	memzero_explicit(ig->authenc_key, ig->authenc_key_size);
	return err;
}

/*
 * Once the device is open and the IV mode known: as dm-crypt, metadata is
 * used only by an AEAD or a stored (random) IV, and then the device must
 * offer it, with dm-crypt's checks and reasons for this kernel.  The AEAD's
 * tag takes what the table's bytes leave after the IV.
 */
int cri_integrity_init(struct cri_dev *cd, char **error)
{
	struct cri_integrity *ig = &cd->integ;
	unsigned int used = cd->cfg.tag_size, per_page;
	const char *why;
	bool exact;

	if (!cd->aead && !ig->iv_size)
		return 0;
	why = cri_integrity_profile(cd->dev->bdev, used, cd->cfg.sector_size,
				    &ig->tuple_size, &exact);
	if (why) {
		*error = (char *)why;
		return -EINVAL;
	}
	if (cd->aead) {
		if (used < ig->iv_size ||
		    crypto_aead_setauthsize(cd->aead, used - ig->iv_size)) {
			*error = "Integrity AEAD auth tag size is not supported.";
			return -EINVAL;
		}
		ig->auth_size = used - ig->iv_size;
	}
	used = ig->auth_size + ig->iv_size;
	if (exact ? used != ig->tuple_size : used > ig->tuple_size) {
		*error = "Not enough space for integrity tag in the profile.";
		return -EINVAL;
	}

	per_page = PAGE_SIZE / ig->tuple_size;
	ig->max_sectors = per_page << cd->sector_shift;
	if (mempool_init_kmalloc_pool(&ig->tag_pool, CRI_TAG_POOL_MIN,
				      per_page * ig->tuple_size)) {
		*error = "Cannot allocate integrity tags mempool";
		return -ENOMEM;
	}
	return 0;
}

void cri_integrity_exit(struct cri_dev *cd)
{
	struct cri_integrity *ig = &cd->integ;

	mempool_exit(&ig->tag_pool);
	kfree_sensitive(ig->authenc_key);
	ig->authenc_key = NULL;
}
