// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the table line, parsed into a struct cri_config and printed
 * back.  The grammar is dm-crypt's (Documentation/admin-guide/device-mapper/
 * dm-crypt.rst) so that existing LUKS and plain volumes open unchanged:
 *
 *   <cipher> <key> <iv_offset> <device> <offset> [<#opt> <opt>...]
 *
 * Parsing allocates only strings owned by the config and touches no device
 * or crypto state; the constructor does that afterwards.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cri.h"
#include "cri_dmcrypt.h"

struct cri_iv_name {
	const char *name;
	enum cri_iv_mode mode;
};

static const struct cri_iv_name cri_iv_names[] = {
	{ "null", CRI_IV_NULL },
	{ "plain", CRI_IV_PLAIN },
	{ "plain64", CRI_IV_PLAIN64 },
	{ "plain64be", CRI_IV_PLAIN64BE },
	{ "essiv", CRI_IV_ESSIV },
	{ "benbi", CRI_IV_BENBI },
	{ "lmk", CRI_IV_LMK },
	{ "tcw", CRI_IV_TCW },
	{ "eboiv", CRI_IV_EBOIV },
	{ "elephant", CRI_IV_ELEPHANT },
	{ "random", CRI_IV_RANDOM },
};

/*
 * Look the IV mode up (NULL: none given).  As dm-crypt, options after the
 * mode are used by the modes that take them (essiv) and ignored by the
 * others, and a mode that is unknown is refused only once the tfm shows
 * that the cipher takes an IV (cri_iv_init()).
 */
static int cri_parse_ivmode(struct cri_config *cfg, const char *ivmode,
			    const char *opts, char **error)
{
	unsigned int i;

	if (!ivmode) {
		cfg->iv_mode = CRI_IV_NONE;
		return 0;
	}
	cfg->iv_mode = CRI_IV_INVALID;
	for (i = 0; i < ARRAY_SIZE(cri_iv_names); i++)
		if (!strcmp(ivmode, cri_iv_names[i].name))
			cfg->iv_mode = cri_iv_names[i].mode;
	if (cfg->iv_mode != CRI_IV_ESSIV)
		return 0;
	if (!opts || !*opts) {
		*error = "Digest algorithm missing for ESSIV mode";
		return -EINVAL;
	}
	cfg->iv_opts = kstrdup(opts, GFP_KERNEL);
	return cfg->iv_opts ? 0 : -ENOMEM;
}

/* The crypto API name, wrapping the cipher in essiv() where asked for. */
static int cri_set_crypto_name(struct cri_config *cfg, const char *spec,
			       char **error)
{
	if (cfg->iv_mode == CRI_IV_ESSIV)
		cfg->crypto_name = kasprintf(GFP_KERNEL, "essiv(%s,%s)", spec,
					     cfg->iv_opts);
	else
		cfg->crypto_name = kstrdup(spec, GFP_KERNEL);
	if (!cfg->crypto_name)
		return -ENOMEM;
	if (strlen(cfg->crypto_name) >= CRYPTO_MAX_ALG_NAME) {
		*error = "Cannot allocate cipher strings: name too long";
		return -EINVAL;
	}
	return 0;
}

/*
 * "capi:<crypto API spec>[-<ivmode>[:<ivopts>]]", split as dm-crypt splits
 * it: the options after the last colon (a hash driver name may contain
 * dashes), the IV mode after the last dash before them.  With no IV mode
 * the cipher must take no IV (checked once the tfm exists).
 */
static int cri_parse_capi(struct cri_config *cfg, char *spec, char **error)
{
	char *opts, *ivmode;
	int err;

	opts = strrchr(spec, ':');
	if (opts)
		*opts++ = '\0';
	ivmode = strrchr(spec, '-');
	if (ivmode)
		*ivmode++ = '\0';
	if (!*spec) {
		*error = CRI_ERR_TFM "capi:<spec>-<ivmode> expected";
		return -EINVAL;
	}
	err = cri_parse_ivmode(cfg, ivmode, opts, error);
	if (err)
		return err;
	/* As dm-crypt: capi: has no keycount; lmk means loop-AES's 64 keys. */
	if (cfg->iv_mode == CRI_IV_LMK)
		cfg->key_count = 64;
	return cri_set_crypto_name(cfg, spec, error);
}

/*
 * "cipher[:keycount]-chainmode-ivmode[:ivopts]", split as dm-crypt splits
 * it: everything after the second dash up to a colon is the IV mode, the
 * rest its options (so "essiv:sha256-generic" names a hash driver).
 */
static int cri_parse_old(struct cri_config *cfg, char *spec, char **error)
{
	char *cipher, *chainmode, *ivmode, *keycount, *api;
	unsigned int count;
	char dummy;
	int err;

	if (strchr(spec, '(')) {
		*error = "Bad cipher specification";
		return -EINVAL;
	}
	keycount = strsep(&spec, "-");
	cipher = strsep(&keycount, ":");
	chainmode = strsep(&spec, "-");
	ivmode = strsep(&spec, ":");
	if (!*cipher) {
		*error = CRI_ERR_TFM "empty cipher";
		return -EINVAL;
	}
	if (keycount && (sscanf(keycount, "%u%c", &count, &dummy) != 1 ||
			 !is_power_of_2(count))) {
		*error = "Bad cipher key count specification";
		return -EINVAL;
	}
	if (keycount)
		cfg->key_count = count;

	/* As dm-crypt: "aes" and "aes-plain" are legacy names of aes-cbc-plain. */
	if (!chainmode || (!strcmp(chainmode, "plain") && !ivmode)) {
		chainmode = "cbc";
		ivmode = "plain";
	}
	if (strcmp(chainmode, "ecb") && !ivmode) {
		*error = "IV mechanism required";
		return -EINVAL;
	}
	err = cri_parse_ivmode(cfg, ivmode, spec, error);
	if (err)
		return err;

	api = kasprintf(GFP_KERNEL, "%s(%s)", chainmode, cipher);
	if (!api)
		return -ENOMEM;
	err = cri_set_crypto_name(cfg, api, error);
	kfree(api);
	return err;
}

static int cri_parse_cipher(struct cri_config *cfg, const char *arg,
			    char **error)
{
	char *spec;
	int err;

	cfg->cipher_string = kstrdup(arg, GFP_KERNEL);
	spec = kstrdup(arg, GFP_KERNEL);
	if (!cfg->cipher_string || !spec) {
		kfree(spec);
		return -ENOMEM;
	}
	if (!strncmp(spec, "capi:", 5))
		err = cri_parse_capi(cfg, spec + 5, error);
	else
		err = cri_parse_old(cfg, spec, error);
	kfree(spec);
	return err;
}

static int cri_parse_sector(const char *arg, u64 *out)
{
	unsigned long long v;
	char dummy;

	if (sscanf(arg, "%llu%c", &v, &dummy) != 1)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * "integrity:<bytes>:aead|none": metadata per sector in dm-integrity
 * beneath (checked against its profile at load), used by an AEAD for its
 * tag, and by random IVs.  As dm-crypt, the profile name is matched
 * without regard to case and printed back as given; where dm-crypt would
 * follow a missing second colon into a NULL pointer, this refuses.
 */
static int cri_parse_integrity(struct cri_config *cfg, const char *arg,
			       unsigned int size, char **error)
{
	const char *profile = strchr(arg + strlen("integrity:"), ':');

	if (!size || size > CRI_MAX_TAG_SIZE || !profile) {
		*error = "Invalid integrity arguments";
		return -EINVAL;
	}
	profile++;
	if (strcasecmp(profile, "aead") && strcasecmp(profile, "none")) {
		*error = "Unknown integrity profile";
		return -EINVAL;
	}
	kfree(cfg->integrity_profile);
	cfg->integrity_profile = kstrdup(profile, GFP_KERNEL);
	if (!cfg->integrity_profile)
		return -ENOMEM;
	cfg->tag_size = size;
	/* As dm-crypt: once a table says aead, a later "none" does not undo it. */
	cfg->aead |= !strcasecmp(profile, "aead");
	return 0;
}

static int cri_parse_feature(struct cri_config *cfg, const char *arg,
			     char **error)
{
	static const char * const names[] = {
		[CRI_ALLOW_DISCARDS]		= "allow_discards",
		[CRI_SAME_CPU_CRYPT]		= "same_cpu_crypt",
		[CRI_SUBMIT_FROM_CRYPT_CPUS]	= "submit_from_crypt_cpus",
		[CRI_NO_READ_WORKQUEUE]		= "no_read_workqueue",
		[CRI_NO_WRITE_WORKQUEUE]	= "no_write_workqueue",
		[CRI_FORCE_INLINE]		= "force_inline",
		[CRI_IV_LARGE_SECTORS]		= "iv_large_sectors",
		[CRI_HIGH_PRIORITY]		= "high_priority",
	};
	unsigned int i, size;
	char dummy;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (strcasecmp(arg, names[i]))
			continue;
		if (i == CRI_FORCE_INLINE)
			cfg->flags |= cri_flavour.inline_on;
		else
			__set_bit(i, &cfg->flags);
		return 0;
	}
	if (sscanf(arg, "sector_size:%u%c", &size, &dummy) == 1) {
		if (size < 512 || size > 4096 || !is_power_of_2(size)) {
			*error = "Invalid feature value for sector_size";
			return -EINVAL;
		}
		cfg->sector_size = size;
		return 0;
	}
	/* The size of an authenc() cipher's MAC key, as dm-crypt (6.11+). */
	if (cri_has_integrity_key_size() &&
	    sscanf(arg, "integrity_key_size:%u%c", &size, &dummy) == 1) {
		if (!size) {
			*error = "Invalid integrity_key_size argument";
			return -EINVAL;
		}
		cfg->integrity_key_size = size;
		return 0;
	}
	if (sscanf(arg, "integrity:%u:", &size) == 1)
		return cri_parse_integrity(cfg, arg, size, error);
	*error = "Invalid feature arguments";
	return -EINVAL;
}

/*
 * At most one of each: the flags above, sector_size, integrity_key_size
 * and dm-crypt's integrity.  dm-crypt's own bound is lower (8 on 6.1, 9
 * on 6.12); ours admits every flag at once, force_inline included.
 */
#define CRI_MAX_FEATURES	(CRI_HIGH_PRIORITY + 1 + 3)

static int cri_parse_features(struct cri_config *cfg, struct dm_arg_set *as,
			      char **error)
{
	static const struct dm_arg feature_count = {
		0, CRI_MAX_FEATURES, "Invalid number of feature args",
	};
	unsigned int n;
	int err;

	if (!as->argc)
		return 0;
	err = dm_read_arg_group(&feature_count, as, &n, error);
	if (err)
		return err;
	while (n--) {
		err = cri_parse_feature(cfg, dm_shift_arg(as), error);
		if (err)
			return err;
	}
	if (as->argc) {
		*error = "Invalid number of feature args";
		return -EINVAL;
	}
	return 0;
}

/*
 * What dm-crypt refuses of an AEAD cipher once it knows the table asks for
 * one (it reads the options first): the old cipher format, and lmk.
 */
static int cri_check_aead(const struct cri_config *cfg, char **error)
{
	if (!cfg->aead)
		return 0;
	if (strncmp(cfg->cipher_string, "capi:", 5)) {
		*error = "Bad cipher specification";
		return -EINVAL;
	}
	if (cfg->iv_mode == CRI_IV_LMK) {
		*error = "AEAD transforms not supported for LMK";
		return -EINVAL;
	}
	return 0;
}

/*
 * The constructor's arguments into @cfg, checked as dm-crypt checks them;
 * on failure *@error says why and @cfg holds what cri_config_free() frees.
 * Hex key digits are wiped from @argv.
 */
int cri_parse_table(struct cri_config *cfg, unsigned int argc, char **argv,
		    char **error)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	int err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->sector_size = 512;
	cfg->key_count = 1;
	if (argc < 5) {
		*error = "Not enough arguments";
		return -EINVAL;
	}
	err = cri_parse_cipher(cfg, dm_shift_arg(&as), error);
	if (err)
		return err;
	/* Not dm_shift_arg(): the key parser wipes hex digits in place. */
	err = cri_parse_key(cfg, as.argv[0], error);
	dm_consume_args(&as, 1);
	if (err)
		return err;
	if (cri_parse_sector(dm_shift_arg(&as), &cfg->iv_offset)) {
		*error = "Invalid iv_offset sector";
		return -EINVAL;
	}
	cfg->dev_path = kstrdup(dm_shift_arg(&as), GFP_KERNEL);
	if (!cfg->dev_path)
		return -ENOMEM;
	if (cri_parse_sector(dm_shift_arg(&as), &cfg->start)) {
		*error = "Invalid device sector";
		return -EINVAL;
	}
	err = cri_parse_features(cfg, &as, error);
	if (err)
		return err;
	return cri_check_aead(cfg, error);
}

/*
 * Checks that need the target's length, as dm-crypt makes them.  The start
 * on the device is left, as dm-crypt leaves it, to dm core: it refuses a
 * start that is not a multiple of the logical block size the target
 * reports (sector_size), with its own message, for both targets alike.
 */
int cri_check_alignment(const struct cri_config *cfg, sector_t len,
			char **error)
{
	u64 mask = (cfg->sector_size >> SECTOR_SHIFT) - 1;

	if (len & mask) {
		*error = "Device size is not multiple of sector_size feature";
		return -EINVAL;
	}
	if (cfg->iv_offset & mask) {
		*error = "Invalid iv_offset sector";
		return -EINVAL;
	}
	return 0;
}

/* Frees what parsing allocated, the key's bytes wiped; @cfg is left zeroed. */
void cri_config_free(struct cri_config *cfg)
{
	kfree(cfg->cipher_string);
	kfree(cfg->crypto_name);
	kfree(cfg->iv_opts);
	kfree(cfg->key_desc);
	kfree(cfg->dev_path);
	kfree(cfg->integrity_profile);
	kfree_sensitive(cfg->key);
	memset(cfg, 0, sizeof(*cfg));
}

static unsigned int cri_feature_count(const struct cri_config *cfg)
{
	return hweight_long(cfg->flags) + (cfg->sector_size != 512) +
	       !!cfg->integrity_key_size + !!cfg->tag_size;
}

/*
 * The table line.  With @hex_key NULL it holds no key material: hex keys
 * appear as the keyring reference they were stored under (see key.c).
 * The drop-in passes the key's bytes, printed in hex as dm-crypt prints
 * them (see cri_emit_table_keyed()).
 */
unsigned int cri_emit_table(const struct cri_config *cfg, const u8 *hex_key,
			    const char *dev_name, char *result,
			    unsigned int maxlen)
{
	unsigned int sz = 0, i;

	DMEMIT("%s ", cfg->cipher_string);
	if (hex_key) {
		for (i = 0; i < cfg->key_size; i++)
			DMEMIT("%02x", hex_key[i]);
	} else if (cfg->key_type == CRI_KEY_NONE || !cfg->key_desc) {
		/* No description: a "key set" failed half-way. */
		DMEMIT("-");
	} else {
		DMEMIT(":%u:%s:%s", cfg->key_size,
		       cri_key_type_name(cfg->key_type), cfg->key_desc);
	}
	DMEMIT(" %llu %s %llu", cfg->iv_offset, dev_name, cfg->start);

	if (!cri_feature_count(cfg))
		return sz;
	DMEMIT(" %u", cri_feature_count(cfg));
	if (test_bit(CRI_ALLOW_DISCARDS, &cfg->flags))
		DMEMIT(" allow_discards");
	if (test_bit(CRI_SAME_CPU_CRYPT, &cfg->flags))
		DMEMIT(" same_cpu_crypt");
	if (test_bit(CRI_HIGH_PRIORITY, &cfg->flags))
		DMEMIT(" high_priority");
	if (test_bit(CRI_SUBMIT_FROM_CRYPT_CPUS, &cfg->flags))
		DMEMIT(" submit_from_crypt_cpus");
	if (test_bit(CRI_NO_READ_WORKQUEUE, &cfg->flags))
		DMEMIT(" no_read_workqueue");
	if (test_bit(CRI_NO_WRITE_WORKQUEUE, &cfg->flags))
		DMEMIT(" no_write_workqueue");
	if (test_bit(CRI_FORCE_INLINE, &cfg->flags))
		DMEMIT(" force_inline");
	if (cfg->tag_size)
		DMEMIT(" integrity:%u:%s", cfg->tag_size, cfg->integrity_profile);
	if (cfg->sector_size != 512)
		DMEMIT(" sector_size:%u", cfg->sector_size);
	if (test_bit(CRI_IV_LARGE_SECTORS, &cfg->flags))
		DMEMIT(" iv_large_sectors");
	if (cfg->integrity_key_size)
		DMEMIT(" integrity_key_size:%u", cfg->integrity_key_size);
	return sz;
}
