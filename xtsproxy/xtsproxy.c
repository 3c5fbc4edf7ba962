// SPDX-License-Identifier: GPL-2.0-only
/*
 * xtsproxy: a synchronous xts(aes) skcipher that reaches the kernel's SIMD
 * XTS-AES code without the asynchronous SIMD wrapper.
 *
 * On x86 the AES-NI XTS code is registered twice: an internal synchronous
 * "__xts(aes)" that assumes the FPU is usable, and a public asynchronous
 * wrapper that hands the request to cryptd whenever it is not.  Users such
 * as dm-crypt cannot ask for the internal one, so they pay for the queue.
 * This proxy is public and synchronous: per request it calls the internal
 * implementation when the FPU is usable in the calling context, and a
 * portable synchronous xts(aes) otherwise.
 *
 * It must never change what anybody else gets for "xts(aes)" (a proxy that
 * did was shipped by a distribution and reverted), so:
 *  - it has no module alias: the crypto API never loads it on its own;
 *  - before registering it makes the kernel's own xts(aes) exist, and its
 *    priority is below every in-tree xts(aes), so lookups by name keep
 *    resolving to what they resolved to without it;
 *  - a missing fast path is not an error: the tfm runs on the fallback.
 * It is meant to be named by driver: capi:xts-aes-xtsproxy-plain64.
 */

#include <linux/module.h>
#include <linux/kobject.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <asm/simd.h>
#include <crypto/aes.h>
#include <crypto/internal/simd.h>
#include <crypto/internal/skcipher.h>
#include <crypto/xts.h>

/*
 * Below xts(ecb(aes-generic)) (100), the lowest in-tree xts(aes), so that a
 * lookup by name never prefers the proxy over a kernel implementation.
 */
#define XTSPROXY_PRIORITY	50

/*
 * The fallback runs where the FPU is not usable.  aes-generic's 4 KiB
 * key-dependent T-tables leak key bits through cache timing, so it is the
 * last resort.  Before it: the fixed-time AES (aes_ti) when the admin has
 * loaded it, and on x86 the AES-NI single-block cipher, which without the
 * FPU runs lib/crypto/aes.c, the same prefetched small-S-box code aes_ti
 * uses.  aes_ti is not loaded from here: having no alias, it is only ever
 * present by choice, and loading it would change what every other "aes"
 * user gets on CPUs without AES-NI.  All are named by driver, so the lookup
 * can never return the proxy itself.
 */
static const char * const xtsproxy_fallbacks[] = {
	"xts(ecb(aes-fixed-time))",
	"xts(ecb(aes-aesni))",
	"xts(ecb(aes-generic))",
};

struct xtsproxy_ctx {
	struct crypto_skcipher *fast;		/* NULL when unavailable */
	struct crypto_skcipher *fallback;
};

struct xtsproxy_stats {
	unsigned long fast;
	unsigned long fallback;
};

static DEFINE_PER_CPU(struct xtsproxy_stats, xtsproxy_stats);

static DEFINE_SPINLOCK(xtsproxy_names_lock);
static char xtsproxy_fast_name[CRYPTO_MAX_ALG_NAME] = "none";
static char xtsproxy_fallback_name[CRYPTO_MAX_ALG_NAME] = "none";

static void xtsproxy_note_driver(char *dst, struct crypto_skcipher *tfm)
{
	const char *name = tfm ? crypto_skcipher_driver_name(tfm) : "none";

	spin_lock(&xtsproxy_names_lock);
	strscpy(dst, name, CRYPTO_MAX_ALG_NAME);
	spin_unlock(&xtsproxy_names_lock);
}

/* The highest-priority internal synchronous XTS-AES, or NULL. */
static struct crypto_skcipher *xtsproxy_alloc_fast(void)
{
	struct crypto_skcipher *tfm;

	tfm = crypto_alloc_skcipher("__xts(aes)", CRYPTO_ALG_INTERNAL,
				    CRYPTO_ALG_INTERNAL | CRYPTO_ALG_ASYNC);
	return IS_ERR(tfm) ? NULL : tfm;
}

static struct crypto_skcipher *xtsproxy_alloc_fallback(void)
{
	struct crypto_skcipher *tfm = ERR_PTR(-ENOENT);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(xtsproxy_fallbacks); i++) {
		tfm = crypto_alloc_skcipher(xtsproxy_fallbacks[i], 0,
					    CRYPTO_ALG_ASYNC |
					    CRYPTO_ALG_ALLOCATES_MEMORY);
		if (!IS_ERR(tfm))
			break;
	}
	return tfm;
}

static int xtsproxy_crypt(struct skcipher_request *req, bool encrypt)
{
	struct xtsproxy_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	struct skcipher_request *child = skcipher_request_ctx(req);
	struct crypto_skcipher *tfm;

	if (ctx->fast && crypto_simd_usable()) {
		tfm = ctx->fast;
		this_cpu_inc(xtsproxy_stats.fast);
	} else {
		tfm = ctx->fallback;
		this_cpu_inc(xtsproxy_stats.fallback);
	}

	/* Both children are synchronous: no completion callback is needed. */
	skcipher_request_set_tfm(child, tfm);
	skcipher_request_set_callback(child, req->base.flags, NULL, NULL);
	skcipher_request_set_crypt(child, req->src, req->dst, req->cryptlen,
				   req->iv);
	return encrypt ? crypto_skcipher_encrypt(child) :
			 crypto_skcipher_decrypt(child);
}

static int xtsproxy_encrypt(struct skcipher_request *req)
{
	return xtsproxy_crypt(req, true);
}

static int xtsproxy_decrypt(struct skcipher_request *req)
{
	return xtsproxy_crypt(req, false);
}

static int xtsproxy_child_setkey(struct crypto_skcipher *tfm,
				 struct crypto_skcipher *child,
				 const u8 *key, unsigned int keylen)
{
	crypto_skcipher_clear_flags(child, CRYPTO_TFM_REQ_MASK);
	crypto_skcipher_set_flags(child, crypto_skcipher_get_flags(tfm) &
				  CRYPTO_TFM_REQ_MASK);
	return crypto_skcipher_setkey(child, key, keylen);
}

static int xtsproxy_setkey(struct crypto_skcipher *tfm, const u8 *key,
			   unsigned int keylen)
{
	struct xtsproxy_ctx *ctx = crypto_skcipher_ctx(tfm);
	int err;

	/* The same checks as the kernel's xts: even length, distinct halves. */
	err = xts_verify_key(tfm, key, keylen);
	if (err)
		return err;

	err = xtsproxy_child_setkey(tfm, ctx->fallback, key, keylen);
	if (err || !ctx->fast)
		return err;
	return xtsproxy_child_setkey(tfm, ctx->fast, key, keylen);
}

static int xtsproxy_init_tfm(struct crypto_skcipher *tfm)
{
	struct xtsproxy_ctx *ctx = crypto_skcipher_ctx(tfm);
	unsigned int reqsize;

	ctx->fallback = xtsproxy_alloc_fallback();
	if (IS_ERR(ctx->fallback))
		return PTR_ERR(ctx->fallback);
	ctx->fast = xtsproxy_alloc_fast();

	xtsproxy_note_driver(xtsproxy_fallback_name, ctx->fallback);
	xtsproxy_note_driver(xtsproxy_fast_name, ctx->fast);

	reqsize = crypto_skcipher_reqsize(ctx->fallback);
	if (ctx->fast)
		reqsize = max(reqsize, crypto_skcipher_reqsize(ctx->fast));
	crypto_skcipher_set_reqsize(tfm, sizeof(struct skcipher_request) +
				    reqsize);
	return 0;
}

static void xtsproxy_exit_tfm(struct crypto_skcipher *tfm)
{
	struct xtsproxy_ctx *ctx = crypto_skcipher_ctx(tfm);

	if (ctx->fast)
		crypto_free_skcipher(ctx->fast);
	crypto_free_skcipher(ctx->fallback);
}

static struct skcipher_alg xtsproxy_alg = {
	.base.cra_name		= "xts(aes)",
	.base.cra_driver_name	= "xts-aes-xtsproxy",
	.base.cra_priority	= XTSPROXY_PRIORITY,
	.base.cra_blocksize	= AES_BLOCK_SIZE,
	.base.cra_ctxsize	= sizeof(struct xtsproxy_ctx),
	.base.cra_module	= THIS_MODULE,
	.min_keysize		= 2 * AES_MIN_KEY_SIZE,
	.max_keysize		= 2 * AES_MAX_KEY_SIZE,
	.ivsize			= AES_BLOCK_SIZE,
	.setkey			= xtsproxy_setkey,
	.encrypt		= xtsproxy_encrypt,
	.decrypt		= xtsproxy_decrypt,
	.init			= xtsproxy_init_tfm,
	.exit			= xtsproxy_exit_tfm,
};

/* /sys/kernel/xtsproxy/: which drivers serve, and how often. */

static void xtsproxy_read_stats(struct xtsproxy_stats *total)
{
	const struct xtsproxy_stats *stats;
	int cpu;

	memset(total, 0, sizeof(*total));
	for_each_possible_cpu(cpu) {
		stats = per_cpu_ptr(&xtsproxy_stats, cpu);
		total->fast += READ_ONCE(stats->fast);
		total->fallback += READ_ONCE(stats->fallback);
	}
}

static ssize_t fast_requests_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct xtsproxy_stats total;

	xtsproxy_read_stats(&total);
	return sysfs_emit(buf, "%lu\n", total.fast);
}

static ssize_t fallback_requests_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	struct xtsproxy_stats total;

	xtsproxy_read_stats(&total);
	return sysfs_emit(buf, "%lu\n", total.fallback);
}

static ssize_t xtsproxy_show_name(char *buf, const char *name)
{
	ssize_t len;

	spin_lock(&xtsproxy_names_lock);
	len = sysfs_emit(buf, "%s\n", name);
	spin_unlock(&xtsproxy_names_lock);
	return len;
}

static ssize_t fast_driver_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return xtsproxy_show_name(buf, xtsproxy_fast_name);
}

static ssize_t fallback_driver_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return xtsproxy_show_name(buf, xtsproxy_fallback_name);
}

static struct kobj_attribute fast_requests_attr = __ATTR_RO(fast_requests);
static struct kobj_attribute fallback_requests_attr = __ATTR_RO(fallback_requests);
static struct kobj_attribute fast_driver_attr = __ATTR_RO(fast_driver);
static struct kobj_attribute fallback_driver_attr = __ATTR_RO(fallback_driver);

static struct attribute *xtsproxy_attrs[] = {
	&fast_requests_attr.attr,
	&fallback_requests_attr.attr,
	&fast_driver_attr.attr,
	&fallback_driver_attr.attr,
	NULL,
};

static const struct attribute_group xtsproxy_attr_group = {
	.attrs = xtsproxy_attrs,
};

static struct kobject *xtsproxy_kobj;

/*
 * Instantiate the kernel's own xts(aes) before the proxy becomes visible:
 * lookups by name that happen later then find it, not the proxy, even on a
 * system where nothing had asked for xts(aes) yet.  Also report which fast
 * path tfms will get.
 */
static void xtsproxy_settle_lookups(void)
{
	struct crypto_skcipher *tfm;

	tfm = crypto_alloc_skcipher("xts(aes)", 0, 0);
	if (!IS_ERR(tfm))
		crypto_free_skcipher(tfm);

	tfm = xtsproxy_alloc_fast();
	xtsproxy_note_driver(xtsproxy_fast_name, tfm);
	if (tfm)
		crypto_free_skcipher(tfm);
}

static int __init xtsproxy_init(void)
{
	int err;

	xtsproxy_settle_lookups();

	xtsproxy_kobj = kobject_create_and_add("xtsproxy", kernel_kobj);
	if (!xtsproxy_kobj)
		return -ENOMEM;
	err = sysfs_create_group(xtsproxy_kobj, &xtsproxy_attr_group);
	if (err)
		goto err_kobj;

	err = crypto_register_skcipher(&xtsproxy_alg);
	if (err)
		goto err_kobj;
	return 0;

err_kobj:
	kobject_put(xtsproxy_kobj);
	return err;
}

static void __exit xtsproxy_exit(void)
{
	crypto_unregister_skcipher(&xtsproxy_alg);
	kobject_put(xtsproxy_kobj);
}

module_init(xtsproxy_init);
module_exit(xtsproxy_exit);

MODULE_DESCRIPTION("Synchronous xts(aes) routing to the kernel's SIMD XTS-AES when the FPU is usable");
MODULE_LICENSE("GPL");
