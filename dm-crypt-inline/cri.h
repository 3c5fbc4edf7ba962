/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crypt-inline: shared definitions of the device-mapper target.
 *
 * The target reads dm-crypt's table and writes dm-crypt's disk format; what
 * differs is where the crypto runs.  The configuration parsed from a table
 * (struct cri_config) is kept apart from the live device (struct cri_dev)
 * so that parsing can be tested and refused tables leave nothing behind.
 */
#ifndef DM_CRYPT_INLINE_CRI_H
#define DM_CRYPT_INLINE_CRI_H

/*
 * Two modules are built from these sources (see Kbuild): crypt-inline,
 * beside in-tree dm-crypt, and the drop-in, which registers "crypt" in its
 * place.  Their log prefix is chosen here; everything else that differs is
 * in struct cri_flavour.
 */
#ifdef CRI_DROPIN
#define DM_MSG_PREFIX "crypt"
#define CRI_MODULE_DESCRIPTION \
	"drop-in for dm-crypt: target crypt, with crypto inline on the IO path"
#else
#define DM_MSG_PREFIX "crypt-inline"
#define CRI_MODULE_DESCRIPTION \
	"target reading dm-crypt's table, with crypto inline on the IO path"
#endif

/*
 * A refused table's reason starts with dm-crypt's text for the same fault
 * (the same in 6.1 and 6.12), so that what matches the kernel's log line
 * for dm-crypt matches ours; what exactly is wrong follows the colon.
 */
#define CRI_ERR_KEY	"Error decoding and setting key: "
#define CRI_ERR_IV	"Error creating IV: "
#define CRI_ERR_TFM	"Error allocating crypto tfm: "

#include <linux/bio.h>
#include <linux/device-mapper.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <crypto/aead.h>
#include <crypto/skcipher.h>

#define CRI_MAX_IV_SIZE		32
#define CRI_LMK_SEED_SIZE	64	/* dm-crypt hashes 64 bytes, 16 of key */
#define CRI_TCW_WHITENING_SIZE	16
#define CRI_ELEPHANT_MAX_KEY	32
#define CRI_MAX_TAG_SIZE	480	/* dm-crypt's bound on integrity:<bytes> */

enum cri_iv_mode {
	CRI_IV_NONE,		/* ecb: no IV at all */
	CRI_IV_NULL,
	CRI_IV_PLAIN,
	CRI_IV_PLAIN64,
	CRI_IV_PLAIN64BE,
	CRI_IV_ESSIV,
	CRI_IV_BENBI,
	CRI_IV_LMK,		/* loop-AES v2/v3 */
	CRI_IV_TCW,		/* TrueCrypt before 4.1 */
	CRI_IV_EBOIV,		/* BitLocker CBC */
	CRI_IV_ELEPHANT,	/* BitLocker CBC with the Elephant diffuser */
	CRI_IV_RANDOM,		/* stored in the integrity metadata */
	/*
	 * Named but not known; as dm-crypt, refused only if the cipher takes
	 * an IV (a cipher without one ignores any IV mode).
	 */
	CRI_IV_INVALID,
};

/* What differs between the two targets built from these sources. */
struct cri_flavour {
	const char *name;		/* target type */
	unsigned int version[3];	/* target version */
	/* Flags that "force_inline" and the message "inline on" set. */
	unsigned long inline_on;
	/* Hex keys print as hex (dmsetup hides them only for "crypt"). */
	bool hex_keys;
	/* Added to dm-crypt's workqueue and write thread names. */
	const char *name_suffix;
	/*
	 * A table naming a keyring key that is gone may take the key a live
	 * table of the same device holds (see cri_live_table_key()); on
	 * dm-crypt the lookup fails.
	 */
	bool live_table_keys;
};

extern const struct cri_flavour cri_flavour;

enum cri_key_type {
	CRI_KEY_HEX,
	CRI_KEY_NONE,		/* "-": the cipher takes no key */
	CRI_KEY_LOGON,
	CRI_KEY_USER,
	CRI_KEY_ENCRYPTED,
	CRI_KEY_TRUSTED,
};

/* Optional table arguments, as bits of cri_config.flags. */
enum {
	CRI_ALLOW_DISCARDS,
	CRI_SAME_CPU_CRYPT,
	CRI_SUBMIT_FROM_CRYPT_CPUS,
	CRI_NO_READ_WORKQUEUE,
	CRI_NO_WRITE_WORKQUEUE,
	CRI_FORCE_INLINE,
	CRI_IV_LARGE_SECTORS,
	CRI_HIGH_PRIORITY,
};

/* Everything a table line says, parsed and checked, nothing allocated. */
struct cri_config {
	char *cipher_string;	/* as given, for the table line */
	char *crypto_name;	/* for crypto_alloc_skcipher() */
	enum cri_iv_mode iv_mode;
	char *iv_opts;		/* essiv hash; NULL otherwise */
	enum cri_key_type key_type;
	char *key_desc;		/* keyring description; NULL for hex */
	unsigned int key_size;	/* bytes, all parts */
	unsigned int key_count;	/* tfms, power of 2: cipher:<keycount> */
	u8 *key;		/* hex keys, until the key is loaded */
	u64 iv_offset;		/* 512-byte sectors */
	char *dev_path;
	u64 start;		/* 512-byte sectors */
	unsigned int sector_size;
	unsigned int integrity_key_size;	/* 0: not given */
	/*
	 * integrity:<tag_size>:<integrity_profile>: bytes of metadata per
	 * sector used, and "aead" (authenticated encryption) or "none", as
	 * given; 0 and NULL without it.
	 */
	unsigned int tag_size;
	char *integrity_profile;
	bool aead;
	unsigned long flags;
};

struct cri_stats {
	u64 inline_bios;
	u64 queued_bios;
	u64 deferred_bios;
	u64 errors;
	u64 split_bios;		/* cuts by dm_accept_partial_bio() */
	u64 spread_bios;	/* inline bios sent to the workqueue */
	u64 spread_writes;	/* the writes among them */
};

/*
 * What an IV mode keeps beside the tfms, taken from the key's tail (see
 * iv.c); set with the key, wiped with it.
 */
struct cri_iv_state {
	struct crypto_shash *hash;		/* lmk: md5; tcw: crc32 */
	struct crypto_sync_skcipher *ivtfm;	/* eboiv: the bulk cipher */
	struct crypto_sync_skcipher *ecb;	/* elephant: sector keys */
	u8 *seed;	/* lmk: seed (v3); tcw: IV seed, then whitening */
};

/* One encryption sector, as the IV modes that touch data see it. */
struct cri_sector {
	struct page *in_page;
	struct page *out_page;
	unsigned int in_off;
	unsigned int out_off;
	u64 sector;		/* 512-byte units, iv_offset included */
	u8 *stored_iv;		/* random: the IV in the sector's metadata */
	bool write;
	u8 *scratch;		/* CRI_ELEPHANT_MAX_KEY bytes, DMA-able */
	struct skcipher_request *req;	/* cri_iv_reqsize() of context, idle */
};

/*
 * The per-sector metadata of an integrity table (dm-integrity beneath), laid
 * out as dm-crypt lays it out: each tuple_size-byte tuple holds the AEAD's
 * authentication tag (auth_size bytes), then the stored IV (random IVs:
 * iv_size bytes), then zeroes.
 */
struct cri_integrity {
	unsigned int tuple_size;	/* 0: no metadata */
	unsigned int auth_size;
	unsigned int iv_size;		/* IV bytes stored per sector */
	unsigned int key_mac_size;	/* authenc(): bytes of the MAC key */
	u8 *authenc_key;		/* authenc(): its key is built here */
	unsigned int authenc_key_size;
	unsigned int max_sectors;	/* 512-byte sectors per pool buffer */
	mempool_t tag_pool;		/* a page each, for when kmalloc fails */
};

struct cri_dev {
	struct dm_dev *dev;
	struct cri_config cfg;
	struct crypto_skcipher **tfms;	/* cfg.key_count of them; or */
	struct crypto_aead *aead;	/* integrity:<n>:aead, one tfm */
	struct cri_integrity integ;
	unsigned int key_parts;		/* as dm-crypt: tfms + IV parts */
	unsigned int key_extra_size;	/* bytes of the key the IV mode takes */
	struct cri_iv_state iv;
	u8 *wipe_key;			/* for "key wipe"; zero outside it */
	unsigned int iv_size;
	unsigned int sector_shift;	/* log2(sector_size / 512) */
	unsigned int benbi_shift;
	unsigned int per_bio_size;
	/*
	 * Serializes messages, the table line and the suspend/resume hooks:
	 * dm core holds only the table's SRCU around .message and .status,
	 * so two of them, or one and a hook, may run at once.  Protects
	 * suspended, the key fields of cfg, key_valid, owned_key and
	 * table_key; the flags word is written under it and read without it
	 * (READ_ONCE).
	 */
	struct mutex lock;
	bool suspended;			/* key messages allowed */
	bool zoned;			/* writes never queued (in order) */
	bool key_valid;
	struct key *owned_key;		/* our keyring's copy of a hex key */
	struct key *table_key;		/* or the keyring key it names */
	struct list_head table_key_node;	/* see cri_live_table_key() */
	struct mapped_device *md;	/* only compared */

	struct workqueue_struct *crypt_wq;
	struct workqueue_struct *cont_wq;	/* after async crypto: never blocks */
	struct task_struct *write_thread;
	int wq_id;			/* in the workqueues' names, 6.12 */
	spinlock_t write_lock;		/* protects write_tree */
	struct rb_root write_tree;	/* encrypted writes, by sector */
	struct bio_set bs;
	mempool_t page_pool;
	struct percpu_counter pages_held;	/* from the allocator (pages.c) */
	struct mutex page_alloc_lock;	/* one blocking page allocation at a time */
	struct cri_stats __percpu *stats;
};

/* table.c */
int cri_parse_table(struct cri_config *cfg, unsigned int argc, char **argv,
		    char **error);
int cri_check_alignment(const struct cri_config *cfg, sector_t len,
			char **error);
void cri_config_free(struct cri_config *cfg);
unsigned int cri_emit_table(const struct cri_config *cfg, const u8 *hex_key,
			    const char *dev_name, char *result,
			    unsigned int maxlen);

/* status.c */
unsigned int cri_emit_ima(const struct cri_dev *cd,
			  const struct target_type *tt, char *result,
			  unsigned int maxlen);
void cri_sum_stats(const struct cri_stats __percpu *stats,
		   struct cri_stats *sum);
unsigned int cri_emit_status(const struct cri_stats *sum, char *result,
			     unsigned int maxlen);

/* path.c */
int cri_inline_flags(const char *mode, unsigned long *flags);
bool cri_spreads(unsigned long flags, bool write, unsigned int bytes,
		 unsigned int spread_min, unsigned int cpus);

/* keyspec.c */
int cri_parse_key(struct cri_config *cfg, char *arg, char **error);
int cri_key_arg_size(const char *arg);
const char *cri_key_type_name(enum cri_key_type type);
struct key_type *cri_key_type(enum cri_key_type type);

/* key.c */
int cri_load_key(struct cri_dev *cd, char **error);
void cri_put_key(struct cri_dev *cd);
int cri_wipe_key(struct cri_dev *cd, char **error);
int cri_set_key(struct cri_dev *cd, char *arg, char **error);
int cri_key_message(struct cri_dev *cd, unsigned int argc, char **argv,
		    char **error);
void cri_emit_table_keyed(const struct cri_dev *cd, char *result,
			  unsigned int maxlen);
int cri_keyring_init(void);
void cri_keyring_exit(void);

/* iv.c */
int cri_iv_init(struct cri_dev *cd, char **error);
void cri_iv_exit(struct cri_dev *cd);
unsigned int cri_subkey_size(const struct cri_dev *cd);
unsigned int cri_iv_reqsize(const struct cri_dev *cd);
int cri_iv_set_key(struct cri_dev *cd, const u8 *key);
void cri_iv_gen(const struct cri_dev *cd, u8 *iv, u64 sector);
int cri_iv_pre(const struct cri_dev *cd, const struct cri_sector *s, u8 *iv,
	       bool *in_place);
int cri_iv_post(const struct cri_dev *cd, const struct cri_sector *s);

/* IV modes with work after the cipher: see cri_iv_post(). */
static inline bool cri_iv_touches_data(const struct cri_dev *cd)
{
	return cd->cfg.iv_mode == CRI_IV_LMK || cd->cfg.iv_mode == CRI_IV_TCW ||
	       cd->cfg.iv_mode == CRI_IV_ELEPHANT;
}

/* integrity.c */
int cri_mac_key_init(struct cri_dev *cd, char **error);
int cri_aead_setkey(struct cri_dev *cd, const u8 *key, unsigned int size);
int cri_integrity_init(struct cri_dev *cd, char **error);
void cri_integrity_exit(struct cri_dev *cd);

/* audit.c */
void cri_audit_ctr(struct dm_target *ti, bool built);
void cri_audit_dtr(struct dm_target *ti);
void cri_audit_aead(struct block_device *bdev, sector_t sector);

/* io.c */
int cri_io_init(struct cri_dev *cd, struct dm_target *ti, char **error);
void cri_io_exit(struct cri_dev *cd);
int cri_map(struct dm_target *ti, struct bio *bio);
int cri_io_global_init(void);
void cri_io_global_exit(void);

#endif /* DM_CRYPT_INLINE_CRI_H */
