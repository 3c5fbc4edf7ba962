# Included by each module's Kbuild: whether this build makes the module a
# placeholder (include/cri_stub.h) instead of the real one.
#   - for a kernel outside the series this code is written and tested for
#     (6.1, 6.12), judged by KERNELRELEASE: DKMS passes the release of the
#     kernel it builds for; a plain `make` takes the headers' own;
#   - CRI_STUB=failed: DKMS's second try after the real build failed
#     (dkms.conf), so a new kernel's installation never fails on us.
ifeq ($(CRI_STUB),)
ifeq ($(filter 6.1.% 6.12.%,$(KERNELRELEASE)),)
CRI_STUB := untested
endif
endif
ifneq ($(filter-out untested failed,$(CRI_STUB)),)
$(error CRI_STUB must be untested or failed)
endif
ccflags-y += -I$(src)/../include
ifneq ($(CRI_STUB),)
ccflags-y += -DCRI_STUB_$(CRI_STUB)
endif
