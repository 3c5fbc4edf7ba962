// SPDX-License-Identifier: GPL-2.0-only
/*
 * xtsspeed: how fast one skcipher encrypts and decrypts 4 KiB in place,
 * with nothing else on the path.  `make bench` loads it in the guest to
 * get the crypto term of the limit row; the result is logged and the
 * module stays loaded until removed.
 */

#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <crypto/skcipher.h>

static char *driver = "xts-aes-xtsproxy";
module_param(driver, charp, 0444);
MODULE_PARM_DESC(driver, "skcipher algorithm or driver name (synchronous)");

static unsigned int msecs = 1000;
module_param(msecs, uint, 0444);
MODULE_PARM_DESC(msecs, "time per direction in milliseconds");

static unsigned int block = 4096;
module_param(block, uint, 0444);
MODULE_PARM_DESC(block, "bytes per request");

/* Bytes per second over a run of msecs milliseconds. */
static u64 xtsspeed_run(struct skcipher_request *req, struct scatterlist *sg,
			u8 *iv, bool encrypt)
{
	unsigned long end = jiffies + msecs_to_jiffies(msecs);
	unsigned long start = jiffies;
	u64 bytes = 0;
	int err;

	while (time_before(jiffies, end)) {
		memset(iv, 0, 16);
		skcipher_request_set_crypt(req, sg, sg, block, iv);
		err = encrypt ? crypto_skcipher_encrypt(req) :
				crypto_skcipher_decrypt(req);
		if (err)
			return 0;
		bytes += block;
		cond_resched();
	}
	return div_u64(bytes * HZ, max(jiffies - start, 1UL));
}

static int __init xtsspeed_init(void)
{
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	struct scatterlist sg;
	u8 key[64], iv[16];
	u64 enc, dec;
	void *buf;
	int err = -ENOMEM;

	tfm = crypto_alloc_skcipher(driver, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	buf = kmalloc(block, GFP_KERNEL);
	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (!buf || !req)
		goto out;
	get_random_bytes(key, sizeof(key));
	get_random_bytes(buf, block);
	err = crypto_skcipher_setkey(tfm, key, sizeof(key));
	if (err)
		goto out;
	sg_init_one(&sg, buf, block);
	skcipher_request_set_callback(req, 0, NULL, NULL);

	enc = xtsspeed_run(req, &sg, iv, true);
	dec = xtsspeed_run(req, &sg, iv, false);
	pr_info("xtsspeed: driver %s block %u encrypt %llu decrypt %llu bytes/s\n",
		crypto_skcipher_driver_name(tfm), block, enc, dec);
	err = enc && dec ? 0 : -EIO;
out:
	skcipher_request_free(req);
	kfree(buf);
	crypto_free_skcipher(tfm);
	return err;
}

static void __exit xtsspeed_exit(void)
{
}

module_init(xtsspeed_init);
module_exit(xtsspeed_exit);

MODULE_DESCRIPTION("Speed of one skcipher on 4 KiB requests, for the benchmark's limit row");
MODULE_LICENSE("GPL");
