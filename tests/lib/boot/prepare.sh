#!/bin/bash
# In a guest (tests/host/boot.sh): make the boot test's root volume on
# /dev/vda, LUKS2 with the key file and UUID given, holding the ext4 image
# given, with in-tree dm-crypt.  The two files are in $VM_OUT (the guest
# has its own /tmp and /var/tmp).
#
#   prepare.sh KEY_FILE UUID EXT4_IMAGE
. "$TOP/tests/lib/lib.sh"

key=$VM_OUT/$1 uuid=$2 fs=$VM_OUT/$3
load_aesni
modprobe virtio_blk || die "virtio_blk"
mkdir -p /run/cryptsetup /run/lock
check "luksFormat /dev/vda" cryptsetup luksFormat -q --type luks2 --uuid "$uuid" \
	--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file "$key" /dev/vda
check "open it with in-tree dm-crypt" cryptsetup open --key-file "$key" /dev/vda root
check_eq "in-tree dm-crypt serves it" "$(cut -d' ' -f1 /proc/modules | grep '^dm_crypt' | tr '\n' ' ')" "dm_crypt "
check "the root file system written onto it" dd if="$fs" of=/dev/mapper/root bs=1M oflag=direct status=none
check "and closed" cryptsetup close root
finish
