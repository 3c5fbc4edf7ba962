// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for crypt-inline's plain logic: table parsing and printing,
 * key parsing, IV generation, alignment checks, the runtime inline switch
 * and the counters.  The functions under test are the target's own (see
 * Kbuild); the expected values are dm-crypt's documented behaviour and
 * fixed byte vectors, never a second copy of our code.
 */

#include <kunit/test.h>
#include <linux/percpu.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <crypto/aead.h>
#include <crypto/aes.h>
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <crypto/skcipher.h>

#include "cri.h"
#include "cri_compat.h"

/* A 32-byte key 00 01 .. 1f and a 64-byte key 00 .. 3f, in hex. */
#define K32 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define K64 K32 "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
/* A good table line to append optional arguments to. */
#define XTS "aes-xts-plain64 " K32 " 0 /dev/x 0"
#define AEAD "capi:authenc(hmac(sha256),xts(aes))-random " K64 " 0 /dev/x 0"

static void free_argv(void *argv)
{
	argv_free(argv);
}

static void free_config(void *cfg)
{
	cri_config_free(cfg);
}

/* Parse a table line (without "start length target") into a fresh config. */
static int parse_line(struct kunit *test, const char *line,
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

static struct cri_config *parse_ok(struct kunit *test, const char *line)
{
	struct cri_config *cfg;
	char *error;
	int err;

	err = parse_line(test, line, &cfg, &error);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "'%s' refused: %s", line, error);
	return cfg;
}

/* ---- cipher specifications ---- */

struct cipher_case {
	const char *line;
	const char *crypto_name;
	enum cri_iv_mode iv_mode;
	const char *iv_opts;
};

static const struct cipher_case cipher_cases[] = {
	{ "aes-xts-plain64 " K64 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN64 },
	{ "aes-xts-plain " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN },
	{ "aes-xts-plain64be " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN64BE },
	{ "aes-cbc-essiv:sha256 " K32 " 0 /dev/ram0 0",
	  "essiv(cbc(aes),sha256)", CRI_IV_ESSIV, "sha256" },
	{ "aes-lrw-benbi " K32 " 0 /dev/ram0 0", "lrw(aes)", CRI_IV_BENBI },
	{ "aes-cbc-null " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_NULL },
	{ "aes-ecb " K32 " 0 /dev/ram0 0", "ecb(aes)", CRI_IV_NONE },
	{ "aes:1-xts-plain64 " K64 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN64 },
	{ "serpent-xts-plain64 " K64 " 0 /dev/ram0 0", "xts(serpent)", CRI_IV_PLAIN64 },
	/* Legacy forms, as dm-crypt: "aes" and "aes-plain" mean aes-cbc-plain. */
	{ "aes " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_PLAIN },
	{ "aes-plain " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_PLAIN },
	{ "capi:xts(aes)-plain64 " K64 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN64 },
	/* A driver name with dashes: only the last dash starts the IV mode. */
	{ "capi:xts-aes-xtsproxy-plain64 " K64 " 0 /dev/ram0 0",
	  "xts-aes-xtsproxy", CRI_IV_PLAIN64 },
	{ "capi:cbc(aes)-essiv:sha256 " K32 " 0 /dev/ram0 0",
	  "essiv(cbc(aes),sha256)", CRI_IV_ESSIV, "sha256" },
	{ "capi:ecb(cipher_null)-null - 0 /dev/ram0 0", "ecb(cipher_null)", CRI_IV_NULL },
	/*
	 * As dm-crypt: options after an IV mode that takes none are ignored;
	 * the options of essiv run to the end, dashes included (a hash
	 * driver name); capi: with no IV mode is parsed (the tfm decides).
	 */
	{ "aes-xts-plain64:sha256 " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN64 },
	{ "aes-cbc-essiv:sha256-generic " K32 " 0 /dev/ram0 0",
	  "essiv(cbc(aes),sha256-generic)", CRI_IV_ESSIV, "sha256-generic" },
	{ "capi:cbc(aes)-essiv:sha256-generic " K32 " 0 /dev/ram0 0",
	  "essiv(cbc(aes),sha256-generic)", CRI_IV_ESSIV, "sha256-generic" },
	{ "capi:ecb(aes) " K32 " 0 /dev/ram0 0", "ecb(aes)", CRI_IV_NONE },
	{ "capi:xts(aes) " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_NONE },
	/*
	 * Modes that are unknown or not supported here are kept for the tfm
	 * to decide: a cipher without IV ignores them, as in dm-crypt.
	 */
	{ "aes-xts-bogus " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_INVALID },
	{ "aes-xts-plain64-extra " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_INVALID },
	{ "aes-ecb- " K32 " 0 /dev/ram0 0", "ecb(aes)", CRI_IV_INVALID },
	{ "capi:ecb(aes)- " K32 " 0 /dev/ram0 0", "ecb(aes)", CRI_IV_INVALID },
	{ "aes-cbc-lmk " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_LMK },
	{ "aes-cbc-tcw " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_TCW },
	{ "aes-cbc-random " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_RANDOM },
	{ "aes-cbc-eboiv " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_EBOIV },
	{ "aes-cbc-elephant:sha256 " K32 " 0 /dev/ram0 0", "cbc(aes)", CRI_IV_ELEPHANT },
	{ "aes:01-xts-plain64 " K32 " 0 /dev/ram0 0", "xts(aes)", CRI_IV_PLAIN64 },
};

static void cipher_case_desc(const struct cipher_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%.*s", (int)strcspn(c->line, " "),
		 c->line);
}

KUNIT_ARRAY_PARAM(cipher_forms, cipher_cases, cipher_case_desc);

static void test_cipher_forms(struct kunit *test)
{
	const struct cipher_case *c = test->param_value;
	struct cri_config *cfg = parse_ok(test, c->line);

	KUNIT_EXPECT_STREQ(test, cfg->crypto_name, c->crypto_name);
	KUNIT_EXPECT_EQ(test, cfg->iv_mode, c->iv_mode);
	if (c->iv_opts)
		KUNIT_EXPECT_STREQ(test, cfg->iv_opts, c->iv_opts);
	else
		KUNIT_EXPECT_NULL(test, cfg->iv_opts);
	/* The table prints the cipher as given, not as the API name. */
	KUNIT_EXPECT_EQ(test, 0, strncmp(cfg->cipher_string, c->line,
					 strlen(cfg->cipher_string)));
}

/* ---- the numeric and device fields ---- */

/* keycount: as dm-crypt, from the legacy form; capi:...-lmk means 64. */
static void test_keycount(struct kunit *test)
{
	static const struct {
		const char *cipher;
		unsigned int count;
	} cases[] = {
		{ "aes-xts-plain64", 1 },
		{ "aes:2-xts-plain64", 2 },
		{ "aes:64-cbc-lmk", 64 },
		{ "capi:cbc(aes)-lmk", 64 },
		{ "capi:cbc(aes)-tcw", 1 },
	};
	char line[200];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(line, sizeof(line), "%s " K64 " 0 /dev/x 0", cases[i].cipher);
		KUNIT_EXPECT_EQ_MSG(test, parse_ok(test, line)->key_count, cases[i].count,
				    "%s", cases[i].cipher);
	}
}

static void test_fields(struct kunit *test)
{
	struct cri_config *cfg =
		parse_ok(test, "aes-xts-plain64 " K32 " 123456789012 253:7 4096");

	KUNIT_EXPECT_EQ(test, cfg->iv_offset, 123456789012ULL);
	KUNIT_EXPECT_STREQ(test, cfg->dev_path, "253:7");
	KUNIT_EXPECT_EQ(test, cfg->start, 4096ULL);
	KUNIT_EXPECT_EQ(test, cfg->sector_size, 512U);
	KUNIT_EXPECT_EQ(test, cfg->flags, 0UL);
}

static void test_fields_u64_max(struct kunit *test)
{
	struct cri_config *cfg =
		parse_ok(test, "aes-xts-plain64 " K32 " 18446744073709551615 /dev/x 0");

	KUNIT_EXPECT_EQ(test, cfg->iv_offset, U64_MAX);
}

/* ---- optional arguments ---- */

struct feature_case {
	const char *name;
	int bit;
};

static const struct feature_case feature_cases[] = {
	{ "allow_discards", CRI_ALLOW_DISCARDS },
	{ "same_cpu_crypt", CRI_SAME_CPU_CRYPT },
	{ "submit_from_crypt_cpus", CRI_SUBMIT_FROM_CRYPT_CPUS },
	{ "no_read_workqueue", CRI_NO_READ_WORKQUEUE },
	{ "no_write_workqueue", CRI_NO_WRITE_WORKQUEUE },
	{ "force_inline", CRI_FORCE_INLINE },
	{ "FORCE_INLINE", CRI_FORCE_INLINE },	/* dm-crypt compares without case */
	{ "high_priority", CRI_HIGH_PRIORITY },
};

static void feature_case_desc(const struct feature_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(features, feature_cases, feature_case_desc);

static void test_feature_each(struct kunit *test)
{
	const struct feature_case *c = test->param_value;
	struct cri_config *cfg;
	char line[256];

	snprintf(line, sizeof(line), XTS " 1 %s",
		 c->name);
	cfg = parse_ok(test, line);
	/* Exactly the one bit: a flag must never imply another. */
	KUNIT_EXPECT_EQ(test, cfg->flags, BIT(c->bit));
	KUNIT_EXPECT_EQ(test, cfg->sector_size, 512U);
}

static void test_features_all(struct kunit *test)
{
	struct cri_config *cfg;

	cfg = parse_ok(test,
		       "aes-xts-plain64 :32:logon:k 0 /dev/x 0 10 allow_discards same_cpu_crypt high_priority submit_from_crypt_cpus no_read_workqueue no_write_workqueue force_inline sector_size:4096 iv_large_sectors integrity_key_size:32");

	KUNIT_EXPECT_EQ(test, cfg->flags, BIT(CRI_ALLOW_DISCARDS) |
			BIT(CRI_SAME_CPU_CRYPT) | BIT(CRI_SUBMIT_FROM_CRYPT_CPUS) |
			BIT(CRI_NO_READ_WORKQUEUE) | BIT(CRI_NO_WRITE_WORKQUEUE) |
			BIT(CRI_FORCE_INLINE) | BIT(CRI_IV_LARGE_SECTORS) |
			BIT(CRI_HIGH_PRIORITY));
	KUNIT_EXPECT_EQ(test, cfg->sector_size, 4096U);
	KUNIT_EXPECT_EQ(test, cfg->integrity_key_size, 32U);
}

static void test_sector_sizes(struct kunit *test)
{
	static const unsigned int sizes[] = { 512, 1024, 2048, 4096 };
	struct cri_config *cfg;
	char line[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(line, sizeof(line),
			 XTS " 1 sector_size:%u",
			 sizes[i]);
		cfg = parse_ok(test, line);
		KUNIT_EXPECT_EQ(test, cfg->sector_size, sizes[i]);
		KUNIT_EXPECT_EQ(test, cfg->flags, 0UL);
	}
}

/* ---- refused tables: each with the reason dmsetup's user will read ---- */

struct bad_case {
	const char *line;
	const char *error;
};

static const struct bad_case bad_cases[] = {
	{ "", "Not enough arguments" },
	{ "aes-xts-plain64 " K32 " 0", "Not enough arguments" },
	{ "aes-xts-plain64 " K32 " 0 /dev/x", "Not enough arguments" },
	{ "aes-xts-plain64 00010203zz 0 /dev/x 0", CRI_ERR_KEY "key not hex" },
	{ "aes-xts-plain64 0 0 /dev/x 0",
	  CRI_ERR_KEY "key shorter than one byte" },
	{ "aes-cbc-essiv " K32 " 0 /dev/x 0", "Digest algorithm missing for ESSIV mode" },
	{ "aes-cbc-essiv: " K32 " 0 /dev/x 0", "Digest algorithm missing for ESSIV mode" },
	{ "aes:3-xts-plain64 " K64 " 0 /dev/x 0", "Bad cipher key count specification" },
	{ "aes:1x-xts-plain64 " K64 " 0 /dev/x 0", "Bad cipher key count specification" },
	{ "aes-cbc " K32 " 0 /dev/x 0", "IV mechanism required" },
	{ "cbc(aes)-essiv:sha256 " K32 " 0 /dev/x 0", "Bad cipher specification" },
	{ "-xts-plain64 " K32 " 0 /dev/x 0", CRI_ERR_TFM "empty cipher" },
	{ "capi:-plain64 " K32 " 0 /dev/x 0",
	  CRI_ERR_TFM "capi:<spec>-<ivmode> expected" },
	{ "aes-xts-plain64 " K32 " abc /dev/x 0", "Invalid iv_offset sector" },
	{ "aes-xts-plain64 " K32 " 12x /dev/x 0", "Invalid iv_offset sector" },
	{ "aes-xts-plain64 " K32 " 0 /dev/x -1", "Invalid device sector" },
	{ XTS " 1 frobnicate", "Invalid feature arguments" },
	{ XTS " 2 force_inline", "Invalid number of feature args" },
	{ XTS " 1 force_inline same_cpu_crypt",
	  "Invalid number of feature args" },
	{ XTS " x", "Invalid number of feature args" },
	{ XTS " 12 a b c d e f g h i j k l", "Invalid number of feature args" },
	{ XTS " 1 integrity_key_size:0", "Invalid integrity_key_size argument" },
	{ XTS " 1 sector_size:1000",
	  "Invalid feature value for sector_size" },
	{ XTS " 1 sector_size:8192",
	  "Invalid feature value for sector_size" },
	{ XTS " 1 sector_size:256",
	  "Invalid feature value for sector_size" },
	{ XTS " 1 sector_size:4096x", "Invalid feature arguments" },
	{ XTS " 1 integrity:28:aead", "Bad cipher specification" },
	{ "capi:authenc(hmac(sha256),xts(aes))-lmk " K64 " 0 /dev/x 0 1 integrity:32:aead",
	  "AEAD transforms not supported for LMK" },
	{ AEAD " 1 integrity:0:aead", "Invalid integrity arguments" },
	{ AEAD " 1 integrity:481:aead", "Invalid integrity arguments" },
	{ AEAD " 1 integrity:48", "Invalid integrity arguments" },
	{ AEAD " 1 integrity:48:hmac", "Unknown integrity profile" },
	{ AEAD " 1 integrity:x:aead", "Invalid feature arguments" },
	{ AEAD " 1 INTEGRITY:48:aead", "Invalid feature arguments" },
	{ "aes-xts-plain64 :64 0 /dev/x 0", "Cannot parse key size" },
	{ "aes-xts-plain64 :64:logon: 0 /dev/x 0",
	  CRI_ERR_KEY "keyring key description missing" },
	{ "aes-xts-plain64 :64:logon 0 /dev/x 0",
	  CRI_ERR_KEY "keyring key description missing" },
	{ "aes-xts-plain64 :0:logon:cri:vol1 0 /dev/x 0",
	  CRI_ERR_KEY "key size 0" },
	{ "aes-xts-plain64 :64:trusty:cri:vol1 0 /dev/x 0",
	  CRI_ERR_KEY "keyring key type logon, user, encrypted or trusted expected" },
	{ "aes-xts-plain64 :64:logonx:cri:vol1 0 /dev/x 0",
	  CRI_ERR_KEY "keyring key type logon, user, encrypted or trusted expected" },
};

static void bad_case_desc(const struct bad_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->error);
}

KUNIT_ARRAY_PARAM(bad_tables, bad_cases, bad_case_desc);

static void test_bad_tables(struct kunit *test)
{
	const struct bad_case *c = test->param_value;
	struct cri_config *cfg;
	char *error;
	int err;

	err = parse_line(test, c->line, &cfg, &error);
	KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "line: '%s'", c->line);
	KUNIT_ASSERT_NOT_NULL_MSG(test, error, "no reason for '%s'", c->line);
	KUNIT_EXPECT_EQ_MSG(test, 0, strncmp(error, c->error, strlen(c->error)),
			    "'%s': got '%s'", c->line, error);
}

/* A cipher name longer than the crypto API allows is refused, not truncated. */
static void test_bad_long_cipher(struct kunit *test)
{
	struct cri_config *cfg;
	char *line, *error;
	int err;

	line = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, line);
	memset(line, 'a', 300);
	strcat(line, "-xts-plain64 " K32 " 0 /dev/x 0");
	err = parse_line(test, line, &cfg, &error);
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_STREQ(test, error, "Cannot allocate cipher strings: name too long");

	/* Short enough to parse, too long once wrapped in essiv(). */
	memset(line, 0, 512);
	memset(line, 'a', CRYPTO_MAX_ALG_NAME - 8);
	strcat(line, "-cbc-essiv:sha256 " K32 " 0 /dev/x 0");
	err = parse_line(test, line, &cfg, &error);
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_STREQ(test, error, "Cannot allocate cipher strings: name too long");
}

/* ---- keys ---- */

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

static void test_config_free_wipes(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "aes-xts-plain64 " K64 " 0 /dev/x 0");

	cri_config_free(cfg);
	KUNIT_EXPECT_NULL(test, cfg->key);
	KUNIT_EXPECT_NULL(test, cfg->cipher_string);
	KUNIT_EXPECT_EQ(test, cfg->key_size, 0U);
}

/* ---- printing the table ---- */

static const char * const emit_lines[] = {
	"aes-xts-plain64 :64:logon:cryptsetup:x-d0 0 253:1 0",
	"aes-xts-plain64 :64:logon:cryptsetup:x-d0 0 253:1 32768 1 sector_size:4096",
	"aes-cbc-essiv:sha256 :32:user:v 7 253:1 8 2 allow_discards force_inline",
	"aes-xts-plain64 :64:encrypted:e 0 253:1 0",
	"capi:xts-aes-xtsproxy-plain64 :64:logon:k 0 253:1 0 3 no_read_workqueue no_write_workqueue sector_size:1024",
	"aes-xts-plain64 :32:logon:k 0 253:1 0 8 allow_discards same_cpu_crypt submit_from_crypt_cpus no_read_workqueue no_write_workqueue force_inline sector_size:4096 iv_large_sectors",
	"aes-xts-plain64 :32:logon:k 0 253:1 0 10 allow_discards same_cpu_crypt high_priority submit_from_crypt_cpus no_read_workqueue no_write_workqueue force_inline sector_size:4096 iv_large_sectors integrity_key_size:20",
	"aes-cbc-essiv:sha256-generic :32:user:v 0 253:1 0 1 high_priority",
	"cipher_null-ecb - 0 253:1 0",
	"capi:authenc(hmac(sha256),xts(aes))-random :96:logon:k 0 253:1 0 1 integrity:48:aead",
	"capi:gcm(aes)-random :16:logon:k 0 253:1 0 3 force_inline integrity:28:AEAD sector_size:4096",
	"capi:xts(aes)-random :64:logon:k 0 253:1 0 2 integrity:16:none integrity_key_size:32",
};

static void emit_line_desc(const char * const *line, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", *line);
}

KUNIT_ARRAY_PARAM(emit_roundtrip, emit_lines, emit_line_desc);

/* Lines in the order the target prints them come back unchanged. */
static void test_emit_roundtrip(struct kunit *test)
{
	const char *line = *(const char * const *)test->param_value;
	struct cri_config *cfg = parse_ok(test, line);
	char out[512];
	unsigned int n;

	n = cri_emit_table(cfg, NULL, cfg->dev_path, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, line);
	KUNIT_EXPECT_EQ(test, n, (unsigned int)strlen(line));
}

/* Features given in any order and case print in canonical form. */
static void test_emit_canonical(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-xts-plain64 :64:logon:k 0 253:1 0 3 iv_large_sectors Force_Inline sector_size:4096");
	char out[256];

	cri_emit_table(cfg, NULL, "253:1", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out,
			   "aes-xts-plain64 :64:logon:k 0 253:1 0 3 force_inline sector_size:4096 iv_large_sectors");
}

/* A hex key prints as the keyring reference it was stored under, never as hex. */
static void test_emit_hides_hex_key(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "aes-xts-plain64 " K64 " 0 /dev/x 0");
	char out[512];

	/* What key.c sets once the key is stored in the module's keyring. */
	cfg->key_desc = kstrdup("crypt-inline:0123456789abcdef", GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg->key_desc);
	cri_emit_table(cfg, NULL, "253:1", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out,
			   "aes-xts-plain64 :64:logon:crypt-inline:0123456789abcdef 0 253:1 0");
	KUNIT_EXPECT_NULL(test, strstr(out, "0001020304"));
}

/* A "key set" that failed half-way leaves no description: "-", not "(null)". */
static void test_emit_no_key_desc(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "aes-xts-plain64 " K64 " 0 /dev/x 0");
	char out[256];

	cri_emit_table(cfg, NULL, "253:1", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "aes-xts-plain64 - 0 253:1 0");
}

/* A short buffer truncates the line and never writes past maxlen. */
static void test_emit_short_buffer(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-xts-plain64 :64:logon:k 0 253:1 0 2 force_inline sector_size:4096");
	char out[40];

	memset(out, 0x5a, sizeof(out));
	cri_emit_table(cfg, NULL, "253:1", out, 20);
	KUNIT_EXPECT_EQ(test, strnlen(out, 20), 19U);
	KUNIT_EXPECT_EQ(test, out[20], 0x5a);
	KUNIT_EXPECT_EQ(test, out[39], 0x5a);
}

/* What dm-ima measures: dm-crypt's fields and order, no key material. */
static void test_emit_ima(struct kunit *test)
{
	static struct target_type tt = { .name = "crypt-inline", .version = {0, 1, 0} };
	struct cri_config *cfg = parse_ok(test,
		"aes-xts-plain64 :64:logon:secret-desc 0 253:1 0 4 allow_discards high_priority force_inline sector_size:4096");
	struct cri_dev *cd = kunit_kzalloc(test, sizeof(*cd), GFP_KERNEL);
	char out[512];

	KUNIT_ASSERT_NOT_NULL(test, cd);
	cd->cfg = *cfg;
	cd->key_parts = 1;
	cri_emit_ima(cd, &tt, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out,
			   "target_name=crypt-inline,target_version=0.1.0,allow_discards=y,same_cpu_crypt=n,high_priority=y,submit_from_crypt_cpus=n,no_read_workqueue=n,no_write_workqueue=n,iv_large_sectors=n,sector_size=4096,cipher_string=aes-xts-plain64,key_size=64,key_parts=1,key_extra_size=0,key_mac_size=0,force_inline=y;");
	KUNIT_EXPECT_NULL(test, strstr(out, "secret-desc"));
}

/* ---- alignment against the target length ---- */

static void test_alignment(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test,
		"aes-xts-plain64 " K32 " 8 /dev/x 16 1 sector_size:4096");
	char *error = NULL;

	KUNIT_EXPECT_EQ(test, 0, cri_check_alignment(cfg, 32768, &error));
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_check_alignment(cfg, 32764, &error));
	KUNIT_EXPECT_STREQ(test, error, "Device size is not multiple of sector_size feature");
	cfg->iv_offset = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, cri_check_alignment(cfg, 32768, &error));
	KUNIT_EXPECT_STREQ(test, error, "Invalid iv_offset sector");
	/* The start on the device is dm core's to check, as in dm-crypt. */
	cfg->iv_offset = 8;
	cfg->start = 5;
	KUNIT_EXPECT_EQ(test, 0, cri_check_alignment(cfg, 32768, &error));
}

static void test_alignment_512(struct kunit *test)
{
	struct cri_config *cfg = parse_ok(test, "aes-xts-plain64 " K32 " 3 /dev/x 5");
	char *error = NULL;

	/* 512-byte sectors: any length and offset is aligned. */
	KUNIT_EXPECT_EQ(test, 0, cri_check_alignment(cfg, 32767, &error));
	KUNIT_EXPECT_NULL(test, error);
}

static struct kunit_case cri_table_cases[] = {
	KUNIT_CASE_PARAM(test_cipher_forms, cipher_forms_gen_params),
	KUNIT_CASE(test_keycount),
	KUNIT_CASE(test_fields),
	KUNIT_CASE(test_fields_u64_max),
	KUNIT_CASE_PARAM(test_feature_each, features_gen_params),
	KUNIT_CASE(test_features_all),
	KUNIT_CASE(test_sector_sizes),
	KUNIT_CASE_PARAM(test_bad_tables, bad_tables_gen_params),
	KUNIT_CASE(test_bad_long_cipher),
	KUNIT_CASE(test_config_free_wipes),
	KUNIT_CASE_PARAM(test_emit_roundtrip, emit_roundtrip_gen_params),
	KUNIT_CASE(test_emit_canonical),
	KUNIT_CASE(test_emit_hides_hex_key),
	KUNIT_CASE(test_emit_no_key_desc),
	KUNIT_CASE(test_emit_short_buffer),
	KUNIT_CASE(test_emit_ima),
	KUNIT_CASE(test_alignment),
	KUNIT_CASE(test_alignment_512),
	{}
};

static struct kunit_suite cri_table_suite = {
	.name = "crypt-inline-table",
	.test_cases = cri_table_cases,
};

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

/* ---- IV generators ---- */

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

/* ---- integrity tables: the MAC key and authenc()'s key blob ---- */

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

/* ---- the runtime switch and the counters ---- */

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

	KUNIT_ASSERT_NOT_NULL(test, stats);
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

kunit_test_suites(&cri_table_suite, &cri_key_suite, &cri_iv_suite,
		  &cri_integrity_suite, &cri_status_suite);

MODULE_DESCRIPTION("KUnit tests of crypt-inline's table, key, IV and counter logic");
MODULE_LICENSE("GPL");
