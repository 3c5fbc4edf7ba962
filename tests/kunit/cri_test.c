// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for crypt-inline's plain logic, one file each: table parsing,
 * printing and alignment checks (table_test.c), the <key> field and the key
 * messages (key_test.c), IV generation (iv_test.c), integrity keys
 * (integrity_test.c), the runtime inline switch and the counters
 * (status_test.c).  The functions under test are the target's own (see
 * Kbuild); the expected values are dm-crypt's documented behaviour and fixed
 * byte vectors, never a second copy of our code.  This file holds what they
 * share.
 */

#include <linux/slab.h>
#include <linux/string.h>

#include "cri_test.h"

void free_argv(void *argv)
{
	argv_free(argv);
}

void free_config(void *cfg)
{
	cri_config_free(cfg);
}

/* Parse a table line (without "start length target") into a fresh config. */
int parse_line(struct kunit *test, const char *line,
	       struct cri_config **cfgp, char **error)
{
	struct cri_config *cfg;
	char **argv;
	int argc;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_argv, argv));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_config, cfg));
	*error = NULL;
	*cfgp = cfg;
	return cri_parse_table(cfg, argc, argv, error);
}

struct cri_config *parse_ok(struct kunit *test, const char *line)
{
	struct cri_config *cfg;
	char *error;
	int err;

	err = parse_line(test, line, &cfg, &error);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "'%s' refused: %s", line, error);
	return cfg;
}

MODULE_DESCRIPTION("KUnit tests of crypt-inline's table, key, IV and counter logic");
MODULE_LICENSE("GPL");
