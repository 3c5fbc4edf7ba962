/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit suites of crypt-inline share: fixed keys and table lines,
 * and parsing a line into a config that the test frees.
 */
#ifndef CRI_KUNIT_CRI_TEST_H
#define CRI_KUNIT_CRI_TEST_H

#include <kunit/test.h>

#include "cri.h"

/* A 32-byte key 00 01 .. 1f and a 64-byte key 00 .. 3f, in hex. */
#define K32 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define K64 K32 "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
/* A good table line to append optional arguments to. */
#define XTS "aes-xts-plain64 " K32 " 0 /dev/x 0"
#define AEAD "capi:authenc(hmac(sha256),xts(aes))-random " K64 " 0 /dev/x 0"

void free_argv(void *argv);
void free_config(void *cfg);
int parse_line(struct kunit *test, const char *line,
	       struct cri_config **cfgp, char **error);
struct cri_config *parse_ok(struct kunit *test, const char *line);

#endif /* CRI_KUNIT_CRI_TEST_H */
