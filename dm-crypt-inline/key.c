// SPDX-License-Identifier: GPL-2.0-only
/*
 * crypt-inline: the volume key, loaded into the tfms, kept, wiped and
 * replaced.  A table names it as hex, as "-" for ciphers without a key, or
 * as ":<size>:<type>:<description>" in the kernel keyring, type logon,
 * user, encrypted or trusted (the last two where the kernel has them),
 * exactly as dm-crypt does (keyspec.c reads that field).  Past the parse of
 * hex digits, this file is the one place that copies and wipes key bytes.
 *
 * Keys never leave the kernel: dmsetup hides keys only for target type
 * "crypt", so a hex key would be printed by `dmsetup table`.  A hex key is
 * therefore stored as a logon key (unreadable from user space) in a keyring
 * this module owns, and the table names that key instead:
 * ":<size>:logon:crypt-inline:<random id>".  Such a line loads again while
 * any table uses the key; the last table to drop it revokes it, which frees
 * the payload with kfree_sensitive().
 */

#include <linux/cred.h>
#include <linux/kernel.h>
#include <linux/key.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <keys/user-type.h>

#include "cri.h"
#include "cri_compat.h"

#define CRI_KEY_PREFIX	"crypt-inline:"

static struct key *cri_keyring;

/* Owned keys and how many tables use each. */
struct cri_owned_key {
	struct list_head node;
	struct key *key;
	unsigned int users;
};

static LIST_HEAD(cri_owned_keys);
static DEFINE_MUTEX(cri_owned_lock);

static struct cri_owned_key *cri_find_owned(struct key *key)
{
	struct cri_owned_key *ok;

	list_for_each_entry(ok, &cri_owned_keys, node)
		if (ok->key == key)
			return ok;
	return NULL;
}

/* Count one more table using an owned key; takes a key reference. */
static int cri_hold_owned(struct key *key)
{
	struct cri_owned_key *ok;
	int err = 0;

	mutex_lock(&cri_owned_lock);
	ok = cri_find_owned(key);
	if (ok) {
		ok->users++;
	} else {
		ok = kzalloc(sizeof(*ok), GFP_KERNEL);
		if (ok) {
			ok->key = key;
			ok->users = 1;
			list_add(&ok->node, &cri_owned_keys);
		} else {
			err = -ENOMEM;
		}
	}
	if (!err)
		key_get(key);
	mutex_unlock(&cri_owned_lock);
	return err;
}

static void cri_release_owned(struct key *key)
{
	struct cri_owned_key *ok;

	mutex_lock(&cri_owned_lock);
	ok = cri_find_owned(key);
	if (ok && !--ok->users) {
		list_del(&ok->node);
		kfree(ok);
		key_revoke(key);
		key_unlink(cri_keyring, key);
	}
	mutex_unlock(&cri_owned_lock);
	key_put(key);
}

static bool cri_is_owned_desc(const struct cri_config *cfg)
{
	return cfg->key_type == CRI_KEY_LOGON &&
	       !strncmp(cfg->key_desc, CRI_KEY_PREFIX, strlen(CRI_KEY_PREFIX));
}

/*
 * Keyring keys that crypt-inline's live tables were loaded from, so that a
 * table can be reloaded unchanged after the key was unlinked: cryptsetup
 * unlinks a LUKS2 volume key from the keyring once the device is open, and
 * `dmsetup table --showkeys | dmsetup reload` would otherwise fail (it
 * does on in-tree dm-crypt, and on the drop-in, which keeps no such keys:
 * see cri_flavour.live_table_keys).  Only a table of the same mapped device,
 * naming the same key type, description and size, gets such a key, and
 * only while the key is valid (not revoked, invalidated or expired).
 * Each table holds its key until it is destroyed or its key wiped, so an
 * unlinked key stays in /proc/keys as long as a table of the device names
 * it; dm-crypt keeps the key's bytes as long as that anyway.
 */
static LIST_HEAD(cri_table_keys);
static DEFINE_MUTEX(cri_table_keys_lock);

static bool cri_same_key_ref(const struct cri_dev *live,
			     const struct cri_dev *cd,
			     const struct cri_config *cfg)
{
	return live->md == cd->md && live->cfg.key_type == cfg->key_type &&
	       live->cfg.key_size == cfg->key_size &&
	       !strcmp(live->cfg.key_desc, cfg->key_desc);
}

static struct key *cri_live_table_key(const struct cri_dev *cd,
				      const struct cri_config *cfg)
{
	struct key *key = ERR_PTR(-ENOKEY);
	struct cri_dev *live;

	mutex_lock(&cri_table_keys_lock);
	list_for_each_entry(live, &cri_table_keys, table_key_node) {
		if (cri_same_key_ref(live, cd, cfg) &&
		    !key_validate(live->table_key)) {
			key = key_get(live->table_key);
			break;
		}
	}
	mutex_unlock(&cri_table_keys_lock);
	return key;
}

static void cri_hold_table_key(struct cri_dev *cd, struct key *key)
{
	mutex_lock(&cri_table_keys_lock);
	cd->table_key = key_get(key);
	list_add(&cd->table_key_node, &cri_table_keys);
	mutex_unlock(&cri_table_keys_lock);
}

static void cri_release_table_key(struct cri_dev *cd)
{
	if (!cd->table_key)
		return;
	mutex_lock(&cri_table_keys_lock);
	list_del(&cd->table_key_node);
	mutex_unlock(&cri_table_keys_lock);
	key_put(cd->table_key);
	cd->table_key = NULL;
}

/*
 * The key @cfg names for a table of cd's device: our own keys are found in
 * our keyring, others as dm-crypt finds them, or else (crypt-inline only)
 * held by the live table of the same device.
 */
static struct key *cri_lookup_key(const struct cri_dev *cd,
				  const struct cri_config *cfg)
{
	struct key *key;
	key_ref_t ref;

	if (cri_is_owned_desc(cfg)) {
		ref = keyring_search(make_key_ref(cri_keyring, true),
				     &key_type_logon, cfg->key_desc, false);
		return IS_ERR(ref) ? ERR_CAST(ref) : key_ref_to_ptr(ref);
	}
	key = request_key(cri_key_type(cfg->key_type), cfg->key_desc, NULL);
	if (PTR_ERR_OR_ZERO(key) == -ENOKEY && cri_flavour.live_table_keys)
		key = cri_live_table_key(cd, cfg);
	return key;
}

/* The key bytes of a keyring key, key->sem held; NULL once revoked. */
static const u8 *cri_key_payload(const struct cri_config *cfg,
				 const struct key *key, unsigned int *len)
{
	const struct user_key_payload *ukp;

	switch (cfg->key_type) {
	case CRI_KEY_ENCRYPTED:
		return cri_encrypted_payload(key, len);
	case CRI_KEY_TRUSTED:
		return cri_trusted_payload(key, len);
	default:
		ukp = user_key_payload_locked(key);
		if (!ukp)
			return NULL;
		*len = ukp->datalen;
		return ukp->data;
	}
}

/*
 * Copy a keyring key's payload, which must be exactly the table's size,
 * into cfg->key.
 */
static int cri_read_keyring(struct cri_config *cfg, struct key *key,
			    char **error)
{
	const u8 *data;
	unsigned int len = 0;
	int err = 0;

	down_read(&key->sem);
	data = cri_key_payload(cfg, key, &len);
	if (!data) {
		*error = CRI_ERR_KEY "keyring key revoked";
		err = -EKEYREVOKED;
	} else if (len != cfg->key_size) {
		*error = CRI_ERR_KEY "keyring key size differs from the table's";
		err = -EINVAL;
	} else {
		cfg->key = kmemdup(data, len, GFP_KERNEL);
		if (!cfg->key)
			err = -ENOMEM;
	}
	up_read(&key->sem);
	return err;
}

/* Store a hex key as an owned logon key and name it in the config. */
static int cri_store_hex_key(struct cri_dev *cd, char **error)
{
	struct cri_config *cfg = &cd->cfg;
	key_ref_t ref;
	char *desc;
	int err;

	desc = kasprintf(GFP_KERNEL, CRI_KEY_PREFIX "%016llx",
			 get_random_u64());
	if (!desc)
		return -ENOMEM;
	ref = key_create_or_update(make_key_ref(cri_keyring, true), "logon",
				   desc, cfg->key, cfg->key_size,
				   KEY_POS_VIEW | KEY_POS_SEARCH | KEY_USR_VIEW,
				   KEY_ALLOC_NOT_IN_QUOTA);
	if (IS_ERR(ref)) {
		kfree(desc);
		*error = "Cannot store the key in the crypt-inline keyring";
		return PTR_ERR(ref);
	}
	err = cri_hold_owned(key_ref_to_ptr(ref));
	if (err) {
		key_revoke(key_ref_to_ptr(ref));
		key_unlink(cri_keyring, key_ref_to_ptr(ref));
	} else {
		cd->owned_key = key_ref_to_ptr(ref);
		cfg->key_type = CRI_KEY_LOGON;
		cfg->key_desc = desc;
		desc = NULL;
	}
	key_ref_put(ref);
	kfree(desc);
	return err;
}

/*
 * Look up the keyring key @cfg names and copy its bytes into cfg->key;
 * *keyp gets a reference to the key.
 */
static int cri_fetch_keyring_key(const struct cri_dev *cd,
				 struct cri_config *cfg, struct key **keyp,
				 char **error)
{
	struct key *key;
	int err;

	key = cri_lookup_key(cd, cfg);
	if (IS_ERR(key)) {
		*error = CRI_ERR_KEY "keyring key not found or not accessible";
		return PTR_ERR(key);
	}
	err = cri_read_keyring(cfg, key, error);
	if (err)
		key_put(key);
	else
		*keyp = key;
	return err;
}

/* Count the table among the users of the keyring key it now uses. */
static int cri_hold_keyring_key(struct cri_dev *cd, struct key *key,
				char **error)
{
	int err = 0;

	if (cri_is_owned_desc(&cd->cfg)) {
		err = cri_hold_owned(key);
		if (err)
			*error = "Cannot allocate key storage";
		else
			cd->owned_key = key;
	} else if (cri_flavour.live_table_keys) {
		cri_hold_table_key(cd, key);
	}
	return err;
}

/*
 * Give every tfm its part of @key and the IV mode its own, as dm-crypt
 * splits a key: tfm i takes the i-th subkey, the IV mode the tail.  All
 * are set even if one fails, so none keeps an older key.
 */
static int cri_apply_key(struct cri_dev *cd, const u8 *key)
{
	unsigned int sub = cri_subkey_size(cd), i;
	int err = 0, r;

	if (cd->aead)
		return cri_aead_setkey(cd, key, sub);
	for (i = 0; i < cd->cfg.key_count; i++) {
		r = crypto_skcipher_setkey(cd->tfms[i], key + i * sub, sub);
		if (r)
			err = r;
	}
	r = cri_iv_set_key(cd, key);
	return err ?: r;
}

/*
 * Give the tfms the key cd->cfg holds: its bytes in cfg->key, @key the
 * keyring key they came from (NULL for hex), whose reference this
 * consumes.  cfg->key is wiped and freed whatever happens; the key is
 * valid when this returns 0.
 */
static int cri_install_key(struct cri_dev *cd, struct key *key, char **error)
{
	struct cri_config *cfg = &cd->cfg;
	int err = 0;

	/* Taken now, so that a "key wipe" cannot fail for want of memory. */
	if (!cd->wipe_key) {
		cd->wipe_key = kzalloc(max(cfg->key_size, 1U), GFP_KERNEL);
		if (!cd->wipe_key) {
			*error = "Cannot allocate key storage";
			err = -ENOMEM;
		}
	}
	if (!err && key)
		err = cri_hold_keyring_key(cd, key, error);
	if (!err) {
		err = cri_apply_key(cd, cfg->key);
		if (err)
			*error = CRI_ERR_KEY "wrong size for the cipher?";
	}
	if (!err && cfg->key_type == CRI_KEY_HEX)
		err = cri_store_hex_key(cd, error);
	if (key)
		key_put(key);
	/* The tfms hold the key schedules; no other copy stays behind. */
	kfree_sensitive(cfg->key);
	cfg->key = NULL;
	/* A key that did not load is offered to no later table. */
	if (err)
		cri_release_table_key(cd);
	cd->key_valid = !err;
	return err;
}

/*
 * The constructor's key: a keyring key fetched and held, or a hex key
 * stored in our keyring, and either set into the tfms; cd->key_valid says
 * whether it loaded.  No copy of the bytes stays in @cd->cfg.
 */
int cri_load_key(struct cri_dev *cd, char **error)
{
	struct cri_config *cfg = &cd->cfg;
	struct key *key = NULL;
	int err = 0;

	if (cfg->key_type != CRI_KEY_HEX && cfg->key_type != CRI_KEY_NONE)
		err = cri_fetch_keyring_key(cd, cfg, &key, error);
	if (err) {
		kfree_sensitive(cfg->key);
		cfg->key = NULL;
		cd->key_valid = false;
		return err;
	}
	return cri_install_key(cd, key, error);
}

/* Lets go of the keyring keys the device holds (its own hex key's, or the table's). */
void cri_put_key(struct cri_dev *cd)
{
	if (cd->owned_key)
		cri_release_owned(cd->owned_key);
	cd->owned_key = NULL;
	cri_release_table_key(cd);
}

/*
 * The table line as this target prints it.  crypt-inline names every key
 * by reference.  The drop-in prints as dm-crypt does: a hex key in hex
 * (read back from our keyring's copy), a keyring key by reference, and a
 * wiped key as zero bytes of the key's size, which cryptsetup luksResume
 * reads to know the size of the key to send.  cd->lock held.
 */
void cri_emit_table_keyed(const struct cri_dev *cd, char *result,
			  unsigned int maxlen)
{
	const struct cri_config *cfg = &cd->cfg;
	const struct user_key_payload *ukp;
	struct key *key = cd->owned_key;

	if (!cri_flavour.hex_keys || cfg->key_type == CRI_KEY_NONE ||
	    (cd->key_valid && !key)) {
		cri_emit_table(cfg, NULL, cd->dev->name, result, maxlen);
		return;
	}
	if (!cd->key_valid) {
		/* Zero outside cri_wipe_key(), which holds cd->lock too. */
		cri_emit_table(cfg, cd->wipe_key, cd->dev->name, result, maxlen);
		return;
	}
	down_read(&key->sem);
	ukp = user_key_payload_locked(key);
	cri_emit_table(cfg, ukp && ukp->datalen == cfg->key_size ?
			    ukp->data : NULL, cd->dev->name, result, maxlen);
	up_read(&key->sem);
}

/* Module init: the keyring that hex keys are stored in (see above). */
int cri_keyring_init(void)
{
	cri_keyring = keyring_alloc(".crypt-inline", GLOBAL_ROOT_UID,
				    GLOBAL_ROOT_GID, current_cred(),
				    KEY_POS_ALL | KEY_USR_VIEW,
				    KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	return PTR_ERR_OR_ZERO(cri_keyring);
}

void cri_keyring_exit(void)
{
	key_revoke(cri_keyring);
	key_put(cri_keyring);
}

/*
 * "key wipe": forget the key, as cryptsetup luksSuspend asks.  The tfm gets
 * a random key of the same size so no schedule of the old one survives, and
 * our keyring copy goes when no other table uses it.  As dm-crypt, a
 * failure to overwrite the tfm's key is the message's answer; the device is
 * without a valid key either way.
 */
int cri_wipe_key(struct cri_dev *cd, char **error)
{
	int err;

	cd->key_valid = false;
	cri_put_key(cd);
	get_random_bytes(cd->wipe_key, cd->cfg.key_size);
	err = cri_apply_key(cd, cd->wipe_key);
	memzero_explicit(cd->wipe_key, cd->cfg.key_size);
	if (err)
		*error = "Cannot overwrite the key in the cipher";
	return err;
}

/*
 * "key set <key>", with dm-crypt's effect on the key's validity: a key of
 * another size than the table's, or a keyring reference that is malformed,
 * not found or revoked, changes nothing; hex of the right length that is
 * not hex leaves the device without a valid key, as dm-crypt invalidates
 * its key before decoding.  Past those checks the key is invalid until
 * fully loaded, so that whatever fails on the way, the device cannot
 * resume on a half-replaced key.  Our own copy of the old key is released
 * only once the new one is held: they may be the same key.
 */
int cri_set_key(struct cri_dev *cd, char *arg, char **error)
{
	struct cri_config *cfg = &cd->cfg;
	struct cri_config new = { };
	bool keyring = arg[0] == ':';
	struct key *key = NULL, *old;
	int err;

	err = cri_key_arg_size(arg);
	if (err < 0 || (unsigned int)err != cfg->key_size) {
		*error = "Key size differs from the table's";
		return -EINVAL;
	}
	err = cri_parse_key(&new, arg, error);
	if (!err && keyring)
		err = cri_fetch_keyring_key(cd, &new, &key, error);
	if (err) {
		kfree_sensitive(new.key);
		kfree(new.key_desc);
		if (!keyring) {
			cd->key_valid = false;
			cri_put_key(cd);
		}
		return err;
	}
	cd->key_valid = false;
	old = cd->owned_key;
	cd->owned_key = NULL;
	cri_release_table_key(cd);
	kfree(cfg->key_desc);
	cfg->key_desc = new.key_desc;
	cfg->key_type = new.key_type;
	kfree_sensitive(cfg->key);
	cfg->key = new.key;
	err = cri_install_key(cd, key, error);
	if (old)
		cri_release_owned(old);
	return err;
}

/*
 * The "key" messages, "key wipe" and "key set <key>", as cryptsetup
 * luksSuspend and luksResume send them; cd->lock held.  Accepted only
 * between postsuspend and preresume (cd->suspended), as dm-crypt accepts
 * them only while its own suspended flag is set: dm core's flag is not
 * enough, since dm_resume() lets bios through and thaws the filesystem
 * before it clears it.  A key argument is wiped from dm core's copy of the
 * message whatever the answer.
 */
int cri_key_message(struct cri_dev *cd, unsigned int argc, char **argv,
		    char **error)
{
	char *arg = argc == 3 ? argv[2] : NULL;
	int err = -EINVAL;

	if (!cd->suspended)
		*error = "not suspended during key manipulation.";
	else if (argc == 2 && !strcasecmp(argv[1], "wipe"))
		err = cri_wipe_key(cd, error);
	else if (arg && !strcasecmp(argv[1], "set"))
		err = cri_set_key(cd, arg, error);
	else
		*error = "unrecognised message received: key wipe or key set expected";
	if (arg)
		memset(arg, '0', strlen(arg));
	return err;
}
