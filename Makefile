# Build the modules against the running kernel, or against any installed
# headers with KDIR=/lib/modules/V/build.  W=1 and C=2 pass through to
# Kbuild for extra warnings and sparse.
KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)

# Kernels the tests boot; empty means the newest installed of each series.
KVERS ?=

.PHONY: all modules clean distclean check kunit deps demo bench

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || true

# Also the per-kernel builds of `make check`.
distclean: clean
	rm -rf build

# Build for every test kernel into build/<version>/, then run every guest
# test on every kernel (stock 6.1 and 6.12, 6.12 PREEMPT_RT, the debug
# kernel) and the KUnit suites in the debug kernel.
check: deps
	scripts/check $(KVERS)

# Only the KUnit suites, in the debug kernel (built once, then cached).
kunit: deps
	scripts/kunit

demo: deps
	scripts/demo

# The benchmark: every configuration side by side in a guest of each kernel.
bench: deps
	scripts/bench

deps:
	scripts/deps
