// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the table's <key> field, as dm-crypt reads it: hex digits,
 * "-" for a cipher without a key, or ":<size>:<type>:<description>" naming
 * a key in the kernel keyring: its grammar (table.c reads the field with
 * it, key.c the argument of "key set") and the key types it names; loading
 * the key is key.c's.
 */

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/key.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <keys/user-type.h>

#include "cri.h"
#include "cri_compat.h"

/*
 * Keyring key types a table may name, spelled as dm-crypt spells them.  A
 * hex key is printed as the logon key it is stored under.
 */
static const char * const cri_key_type_names[] = {
	[CRI_KEY_HEX] = "logon",
	[CRI_KEY_LOGON] = "logon",
	[CRI_KEY_USER] = "user",
	[CRI_KEY_ENCRYPTED] = "encrypted",
	[CRI_KEY_TRUSTED] = "trusted",
};

const char *cri_key_type_name(enum cri_key_type type)
{
	return cri_key_type_names[type];
}

/* The kernel's key type, or NULL where this kernel lacks it. */
struct key_type *cri_key_type(enum cri_key_type type)
{
	switch (type) {
	case CRI_KEY_USER:
		return &key_type_user;
	case CRI_KEY_ENCRYPTED:
		return cri_key_type_encrypted();
	case CRI_KEY_TRUSTED:
		return cri_key_type_trusted();
	default:
		return &key_type_logon;
	}
}

static int cri_parse_keyring_ref(struct cri_config *cfg, const char *arg,
				 char **error)
{
	const char *type, *desc;
	unsigned int size, t;
	size_t len;
	int n = 0;

	/*
	 * As dm-crypt: no whitespace, which the table line could not give
	 * back (dm core escapes none in status output).
	 */
	for (desc = arg; *desc; desc++) {
		if (isspace(*desc)) {
			*error = CRI_ERR_KEY "whitespace chars not allowed in key string";
			return -EINVAL;
		}
	}
	/* ":<size>:<type>:<description>" */
	if (sscanf(arg, ":%u:%n", &size, &n) != 1 || !n) {
		*error = "Cannot parse key size: :<size>:<type>:<description> expected";
		return -EINVAL;
	}
	type = arg + n;
	desc = strchr(type, ':');
	if (!desc || !desc[1]) {
		*error = CRI_ERR_KEY "keyring key description missing";
		return -EINVAL;
	}
	desc++;
	if (!size) {
		*error = CRI_ERR_KEY "key size 0";
		return -EINVAL;
	}
	for (t = CRI_KEY_LOGON; t < ARRAY_SIZE(cri_key_type_names); t++) {
		len = strlen(cri_key_type_names[t]);
		if (!strncmp(type, cri_key_type_names[t], len) && type[len] == ':')
			break;
	}
	if (t == ARRAY_SIZE(cri_key_type_names)) {
		*error = CRI_ERR_KEY "keyring key type logon, user, encrypted or trusted expected";
		return -EINVAL;
	}
	if (!cri_key_type(t)) {
		*error = t == CRI_KEY_ENCRYPTED ?
			 CRI_ERR_KEY "keyring key type encrypted not available in this kernel" :
			 CRI_ERR_KEY "keyring key type trusted not available in this kernel";
		return -EINVAL;
	}
	cfg->key_type = t;
	cfg->key_size = size;
	cfg->key_desc = kstrdup(desc, GFP_KERNEL);
	return cfg->key_desc ? 0 : -ENOMEM;
}

/*
 * The <key> field @arg into @cfg: its type and size, a hex key's bytes
 * (wiped from @arg whatever the outcome) or a keyring key's description.
 */
int cri_parse_key(struct cri_config *cfg, char *arg, char **error)
{
	size_t len = strlen(arg);
	int err;

	if (!strcmp(arg, "-")) {
		cfg->key_type = CRI_KEY_NONE;
		return 0;
	}
	if (arg[0] == ':')
		return cri_parse_keyring_ref(cfg, arg, error);

	/*
	 * As dm-crypt: an odd trailing hex digit is ignored, and the key is
	 * as long as the table makes it (lmk's 65 keys take over 2 KiB).
	 */
	if (len < 2) {
		memset(arg, '0', len);
		*error = CRI_ERR_KEY "key shorter than one byte";
		return -EINVAL;
	}
	cfg->key_type = CRI_KEY_HEX;
	cfg->key_size = len / 2;
	cfg->key = kmalloc(cfg->key_size, GFP_KERNEL);
	err = cfg->key ? hex2bin(cfg->key, arg, cfg->key_size) : -ENOMEM;
	/* As dm-crypt: no copy of the digits stays in the argument buffer. */
	memset(arg, '0', len);
	if (err) {
		kfree_sensitive(cfg->key);
		cfg->key = NULL;
		if (err == -ENOMEM)
			return err;
		*error = CRI_ERR_KEY "key not hex";
		return -EINVAL;
	}
	return 0;
}

/* The key size an argument of "key set" gives, as dm-crypt reads it. */
int cri_key_arg_size(const char *arg)
{
	unsigned int size;
	char c;

	if (arg[0] != ':')
		return strlen(arg) / 2;
	if (sscanf(arg + 1, "%u%c", &size, &c) != 2 || c != ':' || size > INT_MAX)
		return -EINVAL;
	return size;
}
