# Build the modules against the running kernel, or against any installed
# headers with KDIR=/lib/modules/V/build.  W=1 and C=2 pass through to
# Kbuild for extra warnings and sparse.
KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)
# The version lives in dkms.conf only.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(dir $(lastword $(MAKEFILE_LIST)))dkms.conf)

# Kernels the tests boot; empty means the newest installed of each series.
KVERS ?=

.PHONY: all modules clean distclean check check-full check-cryptsetup kunit deps demo bench soak install deb

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || true

# Also the per-kernel builds of `make check`.
distclean: clean
	rm -rf build

# Build for every test kernel into build/<version>/, then run the tests on
# each (stock 6.1 and 6.12, 6.12 PREEMPT_RT, the debug kernel), KUnit in the
# debug kernel.  check: the CI tier; check-full: every test on every kernel
# it is meant for (docs/testing.md).
check: deps
	scripts/check $(KVERS)

check-full: deps
	scripts/check --full $(KVERS)

# cryptsetup's own test suite, every script that drives dm-crypt (the long
# ones too, which check-full leaves out), on in-tree dm-crypt and on the
# drop-in, on each stock kernel: hours (docs/testing.md).
check-cryptsetup: deps
	scripts/cryptsetup-suite $(KVERS)

# The Debian package (debhelper, dh-dkms) from a clean copy of the tree:
# build/deb/dm-crypt-inline-dkms_<version>_all.deb.
deb:
	scripts/pkg/deb

# Only the KUnit suites, in the debug kernel (built once, then cached).
kunit: deps
	scripts/kunit

demo: deps
	scripts/demo

# The benchmark: every configuration side by side in a guest of each kernel.
bench: deps
	scripts/bench/run

# The soak: ext4 on crypt-inline under churn, fio verify, inline switches,
# suspend/resume, key cycles and reloads for DURATION seconds (default an hour) in
# a guest of KERNEL (default the debug kernel).  CI runs two minutes.
DURATION ?= 3600
soak: deps
	scripts/soak -s $(DURATION) $(KERNEL)

deps:
	scripts/deps

# The user tool, its man page, the boot-time unit and an example config
# (never overwriting one).  The modules themselves install through DKMS.
PREFIX ?= /usr/local
SBINDIR := $(PREFIX)/sbin
install:
	install -D -m 0755 scripts/tool/dm-inline $(DESTDIR)$(SBINDIR)/dm-inline
	install -d $(DESTDIR)$(PREFIX)/share/man/man8
	sed 's/@VERSION@/$(VERSION)/' scripts/tool/dm-inline.8 >$(DESTDIR)$(PREFIX)/share/man/man8/dm-inline.8
	chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man8/dm-inline.8
	install -d $(DESTDIR)/etc/systemd/system
	sed 's|@SBINDIR@|$(SBINDIR)|' scripts/tool/dm-inline.service \
		>$(DESTDIR)/etc/systemd/system/dm-inline.service
	test -e $(DESTDIR)/etc/dm-inline.conf || \
		install -D -m 0600 scripts/tool/dm-inline.conf $(DESTDIR)/etc/dm-inline.conf
	install -D -m 0755 scripts/pkg/initramfs-hook \
		$(DESTDIR)/etc/initramfs-tools/hooks/dm-crypt-dropin
