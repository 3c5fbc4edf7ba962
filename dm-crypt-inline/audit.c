// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: dm-audit records, written where dm-crypt writes them on a
 * kernel with CONFIG_DM_AUDIT (both Debian kernels): a table built (with
 * ti->error when it was refused) and torn down, and each sector that an
 * AEAD finds not authentic.  The module named in them is the log prefix:
 * "crypt" for the drop-in, as for dm-crypt.
 */

#include <linux/audit.h>

#include "cri.h"
#include "cri_compat.h"

void cri_audit_ctr(struct dm_target *ti, bool built)
{
	cri_dm_audit_ti(AUDIT_DM_CTRL, DM_MSG_PREFIX, "ctr", ti, built);
}

void cri_audit_dtr(struct dm_target *ti)
{
	cri_dm_audit_ti(AUDIT_DM_CTRL, DM_MSG_PREFIX, "dtr", ti, 1);
}

/*
 * dm core's dm_audit_log_bio() allocates with GFP_KERNEL, and a sector
 * fails here where sleeping may not be allowed (an inline read finishes
 * in softirq); so this writes dm-audit's record itself, with its fields,
 * without sleeping and in no task's audit context.  @bdev is the device
 * read, below the target, as dm-crypt names it.
 */
void cri_audit_aead(struct block_device *bdev, sector_t sector)
{
	struct audit_buffer *ab;

	if (!IS_ENABLED(CONFIG_DM_AUDIT) || audit_enabled == AUDIT_OFF)
		return;
	ab = audit_log_start(NULL, GFP_ATOMIC, AUDIT_DM_EVENT);
	if (!ab)
		return;
	audit_log_format(ab, "module=%s op=integrity-aead dev=%d:%d sector=%llu res=0",
			 DM_MSG_PREFIX, MAJOR(bdev->bd_dev), MINOR(bdev->bd_dev),
			 (unsigned long long)sector);
	audit_log_end(ab);
}
