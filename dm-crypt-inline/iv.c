// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: IV generators.  Each matches dm-crypt's byte for byte, since
 * the IV decides the ciphertext on disk.  essiv is not computed here: like
 * dm-crypt since 5.4, the crypto API's essiv() template wraps the cipher and
 * is handed the plain64 IV.
 */

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "cri.h"
#include "cri_compat.h"

int cri_iv_check(struct cri_dev *cd, char **error)
{
	unsigned int ivsize = crypto_skcipher_ivsize(cd->tfm);
	unsigned int bs = crypto_skcipher_blocksize(cd->tfm);

	if (!ivsize) {
		if (cd->cfg.iv_mode != CRI_IV_NONE)
			DMWARN("Selected cipher does not support IVs; IV mode ignored");
		cd->cfg.iv_mode = CRI_IV_NONE;
		cd->iv_size = 0;
		return 0;
	}
	switch (cd->cfg.iv_mode) {
	case CRI_IV_NONE:
		*error = "IV mechanism required";
		return -EINVAL;
	case CRI_IV_INVALID:
		*error = "Invalid IV mode";
		return -EINVAL;
	case CRI_IV_UNSUPPORTED:
		*error = "Unsupported IV mode (lmk, tcw, random, eboiv, elephant)";
		return -EINVAL;
	default:
		break;
	}
	/* As dm-crypt: room for at least a 64-bit sector number. */
	cd->iv_size = max(ivsize, (unsigned int)sizeof(u64));
	if (cd->iv_size > CRI_MAX_IV_SIZE) {
		*error = "IV size too large";
		return -EINVAL;
	}
	if (cd->cfg.iv_mode == CRI_IV_BENBI) {
		if (!is_power_of_2(bs)) {
			*error = "cypher blocksize is not a power of 2";
			return -EINVAL;
		}
		if (bs > 512) {
			*error = "cypher blocksize is > 512";
			return -EINVAL;
		}
		cd->benbi_shift = 9 - ilog2(bs);
	}
	return 0;
}

/*
 * Fill iv (cd->iv_size bytes) for the data sector that starts at 512-byte
 * sector @sector (iv_offset included).  As dm-crypt, the IV counts 512-byte
 * units unless iv_large_sectors asks for units of sector_size.
 */
void cri_iv_gen(const struct cri_dev *cd, u8 *iv, u64 sector)
{
	unsigned int n = cd->iv_size;

	if (test_bit(CRI_IV_LARGE_SECTORS, &cd->cfg.flags))
		sector >>= cd->sector_shift;
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
	case CRI_IV_NULL:
	case CRI_IV_NONE:
	case CRI_IV_INVALID:
	case CRI_IV_UNSUPPORTED:
		break;
	}
}
