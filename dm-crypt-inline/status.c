// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: what a device reports of itself besides its table line:
 * the status line's counters, summed over the CPUs, and the fields dm-ima
 * measures.
 */

#include <linux/device-mapper.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "cri.h"
#include "cri_dmcrypt.h"

static char cri_yn(const struct cri_config *cfg, int bit)
{
	return test_bit(bit, &cfg->flags) ? 'y' : 'n';
}

/*
 * What dm-ima measures for this target: the running kernel's dm-crypt's
 * fields in its order, then (crypt-inline) force_inline; sizes of the key,
 * never the key or its keyring description.
 */
unsigned int cri_emit_ima(const struct cri_dev *cd,
			  const struct target_type *tt, char *result,
			  unsigned int maxlen)
{
	const struct cri_config *cfg = &cd->cfg;
	unsigned int sz = 0;

	DMEMIT_TARGET_NAME_VERSION(tt);
	DMEMIT(",allow_discards=%c", cri_yn(cfg, CRI_ALLOW_DISCARDS));
	DMEMIT(",same_cpu_crypt=%c", cri_yn(cfg, CRI_SAME_CPU_CRYPT));
	if (cri_ima_has_high_priority())
		DMEMIT(",high_priority=%c", cri_yn(cfg, CRI_HIGH_PRIORITY));
	DMEMIT(",submit_from_crypt_cpus=%c",
	       cri_yn(cfg, CRI_SUBMIT_FROM_CRYPT_CPUS));
	DMEMIT(",no_read_workqueue=%c", cri_yn(cfg, CRI_NO_READ_WORKQUEUE));
	DMEMIT(",no_write_workqueue=%c", cri_yn(cfg, CRI_NO_WRITE_WORKQUEUE));
	DMEMIT(",iv_large_sectors=%c", cri_yn(cfg, CRI_IV_LARGE_SECTORS));
	if (cfg->tag_size)
		DMEMIT(",integrity_tag_size=%u,cipher_auth=%s", cfg->tag_size,
		       cfg->integrity_profile);
	if (cfg->sector_size != 512)
		DMEMIT(",sector_size=%u", cfg->sector_size);
	DMEMIT(",cipher_string=%s", cfg->cipher_string);
	DMEMIT(",key_size=%u,key_parts=%u,key_extra_size=%u", cfg->key_size,
	       cd->key_parts, cd->key_extra_size);
	DMEMIT(",key_mac_size=%u", cd->integ.key_mac_size);
	/* The drop-in's text is dm-crypt's: it has no force_inline. */
	if (cri_flavour.inline_on & BIT(CRI_FORCE_INLINE))
		DMEMIT(",force_inline=%c", cri_yn(cfg, CRI_FORCE_INLINE));
	DMEMIT(";");
	return sz;
}

void cri_sum_stats(const struct cri_stats __percpu *stats,
		   struct cri_stats *sum)
{
	const struct cri_stats *s;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(stats, cpu);
		sum->inline_bios += READ_ONCE(s->inline_bios);
		sum->queued_bios += READ_ONCE(s->queued_bios);
		sum->deferred_bios += READ_ONCE(s->deferred_bios);
		sum->errors += READ_ONCE(s->errors);
		sum->split_bios += READ_ONCE(s->split_bios);
		sum->spread_bios += READ_ONCE(s->spread_bios);
		sum->spread_writes += READ_ONCE(s->spread_writes);
	}
}

/*
 * The status line: "inline N queued N deferred N errors N split N spread N
 * spread_writes N".
 * Fields are only ever appended: readers may count positions.
 */
unsigned int cri_emit_status(const struct cri_stats *sum, char *result,
			     unsigned int maxlen)
{
	unsigned int sz = 0;

	DMEMIT("inline %llu queued %llu deferred %llu errors %llu split %llu",
	       sum->inline_bios, sum->queued_bios, sum->deferred_bios,
	       sum->errors, sum->split_bios);
	DMEMIT(" spread %llu spread_writes %llu",
	       sum->spread_bios, sum->spread_writes);
	return sz;
}
