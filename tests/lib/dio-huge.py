#!/usr/bin/python3
"""One O_DIRECT write of SIZE bytes from a buffer on transparent huge
pages, so that the block layer builds one bio with few, large segments
(more than BIO_MAX_VECS pages in one bio), then an O_DIRECT read back.

    dio-huge.py DEVICE SIZE

Prints "ok" when the data reads back; anything else exits 1.
"""
import mmap
import os
import sys

dev, size = sys.argv[1], int(sys.argv[2])
buf = mmap.mmap(-1, size)
buf.madvise(mmap.MADV_HUGEPAGE)
buf.write(os.urandom(size))
fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
try:
    written = os.pwritev(fd, [buf], 0)
    back = mmap.mmap(-1, size)
    read = os.preadv(fd, [back], 0)
finally:
    os.close(fd)
if written != size or read != size or back[:] != buf[:]:
    print("mismatch: wrote %d read %d" % (written, read))
    sys.exit(1)
print("ok")
