// SPDX-License-Identifier: GPL-2.0-only
/* KUnit: the <key> field of a table, and the "key wipe" and "key set" messages. */

#include <linux/slab.h>
#include <linux/string.h>

#include "cri_compat.h"
#include "cri_test.h"

/* ---- the <key> field ---- */

static void test_key_hex_bytes(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "aes-xts-plain64 " K64 " 0 /dev/x 0");
	unsigned int i;

	KUNIT_EXPECT_EQ(test, cfg->key_type, CRI_KEY_HEX);
	KUNIT_ASSERT_EQ(test, cfg->key_size, 64U);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, cfg->key[i], (u8)i);
	KUNIT_EXPECT_NULL(test, cfg->key_desc);
}

static void test_key_hex_uppercase(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-cbc-plain 00112233445566778899AABBCCDDEEFF 0 /dev/x 0");
	static const u8 want[16] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};

	KUNIT_ASSERT_EQ(test, cfg->key_size, 16U);
	KUNIT_EXPECT_MEMEQ(test, cfg->key, want, sizeof(want));
}

/* As dm-crypt: a trailing odd digit is ignored, not an error. */
static void test_key_hex_odd_digit(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "aes-xts-plain64 " K64 "f 0 /dev/x 0");

	KUNIT_EXPECT_EQ(test, cfg->key_size, 64U);
	KUNIT_EXPECT_EQ(test, cfg->key[63], 0x3f);
}

/* As dm-crypt: no upper bound (loop-AES v3 takes 65 keys of 32 bytes). */
static void test_key_hex_limits(struct kunit *test)
{
	const unsigned int size = 65 * 32;
	struct cri_config *cfg;
	char *line, *error;
	int err;

	line = kunit_kzalloc(test, 2 * size + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, line);
	strscpy(line, "aes:64-cbc-lmk ", 2 * size + 64);
	memset(line + strlen(line), 'a', 2 * size);
	strcat(line, " 0 /dev/x 0");
	cfg = parse_ok(test, line);
	KUNIT_EXPECT_EQ(test, cfg->key_size, size);
	KUNIT_EXPECT_EQ(test, cfg->key_count, 64U);
	KUNIT_EXPECT_EQ(test, cfg->key[size - 1], 0xaa);

	err = parse_line(test, "aes-xts-plain64 a 0 /dev/x 0", &cfg, &error);
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_STREQ(test, error,
			   CRI_ERR_KEY "key shorter than one byte");
}

/* A refused hex key leaves no key bytes behind in the config. */
static void test_key_bad_hex_wiped(struct kunit *test)
{
	static const char line[] = "aes-xts-plain64 0102030405060708090a0b0c0d0e0fzz 0 /dev/x 0";
	struct cri_config *cfg;
	char *error;

	KUNIT_EXPECT_EQ(test, -EINVAL, parse_line(test, line, &cfg, &error));
	KUNIT_EXPECT_NULL(test, cfg->key);
}

/* As dm-crypt: the hex digits do not stay behind in dm core's argv copy. */
static void test_key_hex_wiped_from_args(struct kunit *test)
{
	struct cri_config *cfg;
	char **argv, *error = NULL;
	int argc;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	argv = argv_split(GFP_KERNEL, "aes-xts-plain64 " K32 "a 0 /dev/x 0", &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_argv, argv));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_config, cfg));
	KUNIT_ASSERT_EQ(test, 0, cri_parse_table(cfg, argc, argv, &error));
	KUNIT_EXPECT_EQ(test, strspn(argv[1], "0"), strlen(K32) + 1);
	KUNIT_EXPECT_EQ(test, cfg->key[31], 0x1f);
	/* Keyring references and the other fields are left as they were. */
	KUNIT_EXPECT_STREQ(test, argv[3], "/dev/x");
}

static void test_key_none(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "cipher_null-ecb - 0 /dev/x 0");

	KUNIT_EXPECT_EQ(test, cfg->key_type, CRI_KEY_NONE);
	KUNIT_EXPECT_EQ(test, cfg->key_size, 0U);
}

/*
 * A keyring reference with a blank in it is refused, as dm-crypt refuses
 * it: the table line could not give it back.  Only a raw table-load ioctl
 * can send one (dm core unescapes "\ " into the argument; dmsetup's
 * backslash reaches the kernel escaped), hence a test here rather than in
 * a guest.
 */
static void test_key_whitespace(struct kunit *test)
{
	static const char * const refs[] = {
		":64:logon:cri vol1", ":64:logon:cri\tvol1", ":64: logon:cri",
	};
	struct cri_config *cfg;
	char arg[32], *error;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, cfg);
		strscpy(arg, refs[i], sizeof(arg));
		error = NULL;
		KUNIT_EXPECT_EQ(test, -EINVAL, cri_parse_key(cfg, arg, &error));
		KUNIT_EXPECT_STREQ(test, error,
				   CRI_ERR_KEY "whitespace chars not allowed in key string");
		KUNIT_EXPECT_NULL(test, cfg->key_desc);
	}
}

static void test_key_logon(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-xts-plain64 :64:logon:cryptsetup:3f06-d0 0 /dev/x 0");

	KUNIT_EXPECT_EQ(test, cfg->key_type, CRI_KEY_LOGON);
	KUNIT_EXPECT_EQ(test, cfg->key_size, 64U);
	/* The description keeps its own colons. */
	KUNIT_EXPECT_STREQ(test, cfg->key_desc, "cryptsetup:3f06-d0");
}

static void test_key_user(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-cbc-essiv:sha256 :32:user:vol 0 /dev/x 0");

	KUNIT_EXPECT_EQ(test, cfg->key_type, CRI_KEY_USER);
	KUNIT_EXPECT_EQ(test, cfg->key_size, 32U);
	KUNIT_EXPECT_STREQ(test, cfg->key_desc, "vol");
}

/* Encrypted keys: built into the debug kernel, as into Debian's. */
static void test_key_encrypted(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-xts-plain64 :64:encrypted:vol:e 0 /dev/x 0");

	KUNIT_EXPECT_EQ(test, cfg->key_type, CRI_KEY_ENCRYPTED);
	KUNIT_EXPECT_EQ(test, cfg->key_size, 64U);
	KUNIT_EXPECT_STREQ(test, cfg->key_desc, "vol:e");
}

/* Trusted keys: taken where the kernel has them, refused by name elsewhere. */
static void test_key_trusted(struct kunit *test)
{
	static const char line[] = "aes-xts-plain64 :32:trusted:t 0 /dev/x 0";
	struct cri_config *cfg;
	char *error = NULL;
	int err;

	err = parse_line(test, line, &cfg, &error);
	if (IS_REACHABLE(CONFIG_TRUSTED_KEYS)) {
		KUNIT_EXPECT_EQ(test, err, 0);
		KUNIT_EXPECT_EQ(test, cfg->key_type, CRI_KEY_TRUSTED);
	} else {
		KUNIT_EXPECT_EQ(test, err, -EINVAL);
		KUNIT_EXPECT_STREQ(test, error, CRI_ERR_KEY
				   "keyring key type trusted not available in this kernel");
	}
}

/* ---- the "key" messages ---- */

/* key_message CD "ARGS": send a key message, as dm core splits it. */
static int key_message(struct kunit *test, struct cri_dev *cd,
		       const char *line, char ***argvp, char **error)
{
	char **argv;
	int argc;

	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_argv, argv));
	*argvp = argv;
	*error = NULL;
	return cri_key_message(cd, argc, argv, error);
}

static struct cri_dev *key_dev(struct kunit *test)
{
	struct cri_dev *cd = kunit_kzalloc(test, sizeof(*cd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cd);
	cd->cfg.key_type = CRI_KEY_LOGON;
	cd->cfg.key_size = 32;
	cd->key_valid = true;
	return cd;
}

/*
 * Refused while not suspended (dm core's flag may still say suspended
 * while bios flow), and the hex key is wiped from dm core's copy anyway.
 */
static void test_key_message_not_suspended(struct kunit *test)
{
	struct cri_dev *cd = key_dev(test);
	char **argv, *error;

	KUNIT_EXPECT_EQ(test, -EINVAL, key_message(test, cd, "key set " K32, &argv, &error));
	KUNIT_EXPECT_STREQ(test, error, "not suspended during key manipulation.");
	KUNIT_EXPECT_EQ(test, strspn(argv[2], "0"), strlen(K32));
	KUNIT_EXPECT_TRUE(test, cd->key_valid);
	KUNIT_EXPECT_EQ(test, -EINVAL, key_message(test, cd, "key wipe", &argv, &error));
	KUNIT_EXPECT_TRUE(test, cd->key_valid);
}

/* Hex of the table's key size that is not hex. */
#define NOT_HEX32 "0z0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

/*
 * As dm-crypt: other messages, a key of another size than the table's and
 * a keyring reference that is malformed or names no key change nothing;
 * hex of the table's size that is not hex leaves no valid key.  Every key
 * argument is wiped from dm core's copy.
 */
static void test_key_message_refused_set(struct kunit *test)
{
	static const char * const keep[] = {
		"key set " K64, "key set 00" K32, "key set -",
		"key set :32:logon", "key set :32:frob:x", "key set :16:logon:x",
		"key set :32:logon:cri-kunit-no-such-key", "key frob " K32,
	};
	struct cri_dev *cd = key_dev(test);
	char **argv, *error;
	unsigned int i;

	cd->suspended = true;
	for (i = 0; i < ARRAY_SIZE(keep); i++) {
		KUNIT_EXPECT_NE_MSG(test, 0, key_message(test, cd, keep[i], &argv, &error),
				    keep[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, error, keep[i]);
		if (argv[2])
			KUNIT_EXPECT_EQ_MSG(test, strspn(argv[2], "0"), strlen(argv[2]), keep[i]);
		KUNIT_EXPECT_TRUE_MSG(test, cd->key_valid, keep[i]);
	}
	KUNIT_EXPECT_EQ(test, -EINVAL, key_message(test, cd, "key wipe now", &argv, &error));
	KUNIT_EXPECT_TRUE(test, cd->key_valid);
	KUNIT_EXPECT_EQ(test, -EINVAL, key_message(test, cd, "key set " NOT_HEX32, &argv, &error));
	KUNIT_EXPECT_STREQ(test, error, CRI_ERR_KEY "key not hex");
	KUNIT_EXPECT_EQ(test, strspn(argv[2], "0"), strlen(argv[2]));
	KUNIT_EXPECT_FALSE(test, cd->key_valid);
}

/* "key wipe" on a real tfm: the key is gone, the answer is setkey's. */
static void test_key_message_wipe(struct kunit *test)
{
	struct cri_dev *cd = key_dev(test);
	char **argv, *error;

	struct crypto_skcipher *tfm = crypto_alloc_skcipher("xts(aes)", 0, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	cd->tfms = &tfm;
	cd->cfg.key_count = 1;
	cd->cfg.key_size = 64;
	cd->wipe_key = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cd->wipe_key);
	cd->suspended = true;
	KUNIT_EXPECT_EQ(test, 0, key_message(test, cd, "key wipe", &argv, &error));
	KUNIT_EXPECT_FALSE(test, cd->key_valid);
	KUNIT_EXPECT_NULL(test, cd->owned_key);
	crypto_free_skcipher(tfm);
}

static struct kunit_case cri_key_cases[] = {
	KUNIT_CASE(test_key_hex_bytes),
	KUNIT_CASE(test_key_hex_uppercase),
	KUNIT_CASE(test_key_hex_odd_digit),
	KUNIT_CASE(test_key_hex_limits),
	KUNIT_CASE(test_key_bad_hex_wiped),
	KUNIT_CASE(test_key_hex_wiped_from_args),
	KUNIT_CASE(test_key_none),
	KUNIT_CASE(test_key_whitespace),
	KUNIT_CASE(test_key_logon),
	KUNIT_CASE(test_key_user),
	KUNIT_CASE(test_key_encrypted),
	KUNIT_CASE(test_key_trusted),
	KUNIT_CASE(test_key_message_not_suspended),
	KUNIT_CASE(test_key_message_refused_set),
	KUNIT_CASE(test_key_message_wipe),
	{}
};

static struct kunit_suite cri_key_suite = {
	.name = "crypt-inline-key",
	.test_cases = cri_key_cases,
};

kunit_test_suite(cri_key_suite);
