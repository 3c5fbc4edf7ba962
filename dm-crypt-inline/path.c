// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: where a bio's crypto runs, as pure functions of the flags
 * word (force_inline and dm-crypt's no_read_workqueue/no_write_workqueue)
 * that the "inline" message sets and io.c reads once per bio.
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "cri.h"

/* The runtime "inline on|off|read|write|auto" message, applied to flags. */
int cri_inline_flags(const char *mode, unsigned long *flags)
{
	const struct {
		const char *mode;
		unsigned long bits;
	} modes[] = {
		{ "on", cri_flavour.inline_on },
		{ "off", 0 },
		{ "read", BIT(CRI_NO_READ_WORKQUEUE) },
		{ "write", BIT(CRI_NO_WRITE_WORKQUEUE) },
		{ "auto", BIT(CRI_NO_READ_WORKQUEUE) |
			  BIT(CRI_NO_WRITE_WORKQUEUE) },
	};
	const unsigned long mask = BIT(CRI_FORCE_INLINE) |
				   BIT(CRI_NO_READ_WORKQUEUE) |
				   BIT(CRI_NO_WRITE_WORKQUEUE);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		if (!strcasecmp(mode, modes[i].mode)) {
			*flags = (*flags & ~mask) | modes[i].bits;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Whether an inline read or write of @bytes is done on the workqueue.
 * Inline crypto wins for small IO (no hop) but runs on one CPU: the one
 * that takes the completions of a stream of large reads, or the one
 * submitter of a stream of large writes, does all of it while the others
 * idle.  Pieces of spread_min bytes or more therefore go to the unbound
 * workqueue under no_read_workqueue (reads) or no_write_workqueue
 * (writes); in-tree dm-crypt's default path spreads everything the same
 * way.  force_inline means no hop at all and never spreads (the drop-in
 * has no force_inline of its own: its flag is dm-crypt's two), nor does
 * same_cpu_crypt, nor a single CPU.
 */
bool cri_spreads(unsigned long flags, bool write, unsigned int bytes,
		 unsigned int spread_min, unsigned int cpus)
{
	unsigned int noq = write ? CRI_NO_WRITE_WORKQUEUE : CRI_NO_READ_WORKQUEUE;

	if (!(flags & BIT(noq)) ||
	    flags & (BIT(CRI_FORCE_INLINE) | BIT(CRI_SAME_CPU_CRYPT)))
		return false;
	return spread_min && bytes >= spread_min && cpus > 1;
}
