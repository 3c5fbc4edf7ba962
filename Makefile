# Build the modules against the running kernel, or against any installed
# headers with KDIR=/lib/modules/V/build.  W=1 and C=2 pass through to
# Kbuild for extra warnings and sparse.
KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(PWD)/dkms.conf)

# Kernels the tests boot: the newest installed of each series, unless given.
KVERS ?= $(shell bash -c '. scripts/lib/kernels.sh; for s in $$KERNEL_SERIES; do installed_kernel $$s; done')

.PHONY: all modules clean check check-build deps demo install-dkms

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || true
	rm -rf build

# Build for every test kernel into build/<version>/, then run every guest
# test on every kernel.
check:
	scripts/check $(KVERS)

demo:
	scripts/demo

deps:
	scripts/deps
