#!/usr/bin/python3
"""O_DIRECT write and read of one block from a buffer that starts OFFSET
bytes into a page, so that a larger logical block may straddle pages.

    dio-offset.py DEVICE BLOCK OFFSET

Prints "ok" when the data reads back, "refused" when the kernel rejects the
misaligned buffer (EINVAL); anything else (EIO, wrong data) exits 1.
"""
import errno
import mmap
import os
import sys

dev, block, offset = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
buf = mmap.mmap(-1, 4 * mmap.PAGESIZE)
data = os.urandom(block)
buf[offset:offset + block] = data
fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
try:
    os.pwritev(fd, [memoryview(buf)[offset:offset + block]], 0)
    buf[offset:offset + block] = bytes(block)
    os.preadv(fd, [memoryview(buf)[offset:offset + block]], 0)
except OSError as e:
    if e.errno == errno.EINVAL:
        print("refused")
        sys.exit(0)
    print(f"error: {e}")
    sys.exit(1)
if buf[offset:offset + block] != data:
    print("wrong data")
    sys.exit(1)
print("ok")
