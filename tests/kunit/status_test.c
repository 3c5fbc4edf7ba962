// SPDX-License-Identifier: GPL-2.0-only
/* KUnit: the runtime inline switch, the spread decision and the counters. */

#include <linux/percpu.h>
#include <linux/string.h>

#include "cri_compat.h"
#include "cri_test.h"

static void test_inline_modes(struct kunit *test)
{
	const unsigned long keep = BIT(CRI_ALLOW_DISCARDS) | BIT(CRI_SAME_CPU_CRYPT) |
				   BIT(CRI_IV_LARGE_SECTORS);
	unsigned long flags = keep | BIT(CRI_NO_READ_WORKQUEUE);

	KUNIT_EXPECT_EQ(test, 0, cri_inline_flags("on", &flags));
	KUNIT_EXPECT_EQ(test, flags, keep | BIT(CRI_FORCE_INLINE));
	KUNIT_EXPECT_EQ(test, 0, cri_inline_flags("write", &flags));
	KUNIT_EXPECT_EQ(test, flags, keep | BIT(CRI_NO_WRITE_WORKQUEUE));
	KUNIT_EXPECT_EQ(test, 0, cri_inline_flags("READ", &flags));
	KUNIT_EXPECT_EQ(test, flags, keep | BIT(CRI_NO_READ_WORKQUEUE));
	KUNIT_EXPECT_EQ(test, 0, cri_inline_flags("auto", &flags));
	KUNIT_EXPECT_EQ(test, flags, keep | BIT(CRI_NO_READ_WORKQUEUE) |
				     BIT(CRI_NO_WRITE_WORKQUEUE));
	KUNIT_EXPECT_EQ(test, 0, cri_inline_flags("off", &flags));
	KUNIT_EXPECT_EQ(test, flags, keep);
}

static void test_inline_bad_mode(struct kunit *test)
{
	unsigned long flags = BIT(CRI_FORCE_INLINE);

	KUNIT_EXPECT_EQ(test, -EINVAL, cri_inline_flags("sideways", &flags));
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_inline_flags("", &flags));
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_inline_flags("onn", &flags));
	KUNIT_EXPECT_EQ(test, flags, BIT(CRI_FORCE_INLINE));
}

static void free_stats(void *stats)
{
	free_percpu((struct cri_stats __percpu *)stats);
}

static void test_stats_sum(struct kunit *test)
{
	struct cri_stats __percpu *stats = alloc_percpu(struct cri_stats);
	struct cri_stats sum, *s;
	u64 n = 0;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, (void __force *)stats);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, free_stats, (void __force *)stats));
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(stats, cpu);
		s->inline_bios = cpu + 1;
		s->queued_bios = 100 * (cpu + 1);
		s->deferred_bios = 1;
		s->errors = U32_MAX;
		n++;
	}
	cri_sum_stats(stats, &sum);
	KUNIT_EXPECT_EQ(test, sum.inline_bios, n * (n + 1) / 2);
	KUNIT_EXPECT_EQ(test, sum.queued_bios, 100 * n * (n + 1) / 2);
	KUNIT_EXPECT_EQ(test, sum.deferred_bios, n);
	/* 64-bit sums: no wrap at 32 bits. */
	KUNIT_EXPECT_EQ(test, sum.errors, n * U32_MAX);
}

static void test_status_line(struct kunit *test)
{
	struct cri_stats sum = {
		.inline_bios = 1, .queued_bios = 22, .deferred_bios = 333,
		.errors = 18446744073709551615ULL, .split_bios = 4,
		.spread_bios = 55, .spread_writes = 6,
	};
	char out[160];
	unsigned int n;

	n = cri_emit_status(&sum, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out,
			   "inline 1 queued 22 deferred 333 errors 18446744073709551615 split 4 spread 55 spread_writes 6");
	KUNIT_EXPECT_EQ(test, n, (unsigned int)strlen(out));
}

/* Which inline reads and writes go to the workqueue (*_spread_min). */
static void test_spreads(struct kunit *test)
{
	const unsigned long noq_r = BIT(CRI_NO_READ_WORKQUEUE);
	const unsigned long noq_w = BIT(CRI_NO_WRITE_WORKQUEUE);
	const unsigned int min = 65536;
	int w;

	/* Each direction by its own flag, never by the other's. */
	KUNIT_EXPECT_TRUE(test, cri_spreads(noq_r, false, min, min, 2));
	KUNIT_EXPECT_TRUE(test, cri_spreads(noq_w, true, min, min, 2));
	KUNIT_EXPECT_FALSE(test, cri_spreads(noq_w, false, 1 << 20, min, 2));
	KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r, true, 1 << 20, min, 2));
	KUNIT_EXPECT_FALSE(test, cri_spreads(0, false, 1 << 20, min, 2));
	KUNIT_EXPECT_FALSE(test, cri_spreads(0, true, 1 << 20, min, 2));
	for (w = 0; w < 2; w++) {
		KUNIT_EXPECT_TRUE(test, cri_spreads(noq_r | noq_w, w, 128 << 10,
						    min, 64));
		KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r | noq_w, w, min - 512,
						     min, 2));
		KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r | noq_w, w, 4096,
						     min, 2));
		/* 0 turns spreading off. */
		KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r | noq_w, w, 1 << 20,
						     0, 2));
		/* One CPU: nowhere to spread to. */
		KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r | noq_w, w, 1 << 20,
						     min, 1));
		/* force_inline is strictly inline, whatever else is set. */
		KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r | noq_w |
						     BIT(CRI_FORCE_INLINE), w,
						     1 << 20, min, 2));
		KUNIT_EXPECT_FALSE(test, cri_spreads(BIT(CRI_FORCE_INLINE), w,
						     1 << 20, min, 2));
		/* same_cpu_crypt keeps the work on the submitter's CPU. */
		KUNIT_EXPECT_FALSE(test, cri_spreads(noq_r | noq_w |
						     BIT(CRI_SAME_CPU_CRYPT), w,
						     1 << 20, min, 2));
	}
}

static struct kunit_case cri_status_cases[] = {
	KUNIT_CASE(test_inline_modes),
	KUNIT_CASE(test_inline_bad_mode),
	KUNIT_CASE(test_stats_sum),
	KUNIT_CASE(test_status_line),
	KUNIT_CASE(test_spreads),
	{}
};

static struct kunit_suite cri_status_suite = {
	.name = "crypt-inline-status",
	.test_cases = cri_status_cases,
};

kunit_test_suite(cri_status_suite);
