// SPDX-License-Identifier: GPL-2.0-only
/* KUnit: the table line, parsed, refused and printed back. */

#include <linux/slab.h>
#include <linux/string.h>

#include "cri_compat.h"
#include "cri_test.h"

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

kunit_test_suite(cri_table_suite);
