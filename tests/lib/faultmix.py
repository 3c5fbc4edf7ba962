#!/usr/bin/python3
"""Random O_DIRECT reads and writes over a device that fails some of them,
checking that a read that succeeds returns data that was written there.

    faultmix.py fill DEVICE MIB
        Writes generation 0 of every page of the first MIB MiB.
    faultmix.py run DEVICE MIB SECONDS [--lax] [SEED]
        Four threads, each on its own quarter of the first MIB MiB, write
        and read (3:2) a 4 KiB page or a whole 128 KiB slot at random until
        SECONDS have passed.  Every page written carries its number and a
        generation throughout.  A read that succeeds must find in each page
        the generation of its last write that succeeded, or of a write
        that failed after it (a failed write may or may not have landed);
        with --lax (the device below may drop writes and report success),
        any generation ever written there.  Failed IOs must fail with EIO.
        Prints "ios N failed N" (IOs the caller saw, those that failed) and
        exits 1 on the first wrong read (which it describes).
"""
import errno
import mmap
import os
import random
import struct
import sys
import threading
import time

PAGE = 4096
SLOT = 32  # pages per 128 KiB slot
THREADS = 4


def page_bytes(page, gen):
    """The content of PAGE at generation GEN: both numbers, repeated."""
    return struct.pack("<QQ", page, gen) * (PAGE // 16)


def decode(data, page):
    """The generation a page's content carries, or None if it is not ours."""
    p, gen = struct.unpack_from("<QQ", data)
    if p != page or data != page_bytes(page, gen):
        return None
    return gen


class Worker(threading.Thread):
    def __init__(self, fd, first, pages, deadline, lax, seed):
        super().__init__()
        self.fd, self.first, self.pages = fd, first, pages
        self.deadline, self.lax = deadline, lax
        self.rng = random.Random(seed)
        self.buf = mmap.mmap(-1, SLOT * PAGE)
        self.gen = 0
        # Per page: the generations a read may find.
        self.ok = {p: {0} for p in range(first, first + pages)}
        self.ios = self.failed = 0
        self.error = None

    def span(self):
        if self.rng.random() < 0.5:
            return self.first + self.rng.randrange(self.pages), 1
        slot = self.rng.randrange(self.pages // SLOT)
        return self.first + slot * SLOT, SLOT

    def write(self, page, n):
        self.gen += 1
        for i in range(n):
            self.buf[i * PAGE:(i + 1) * PAGE] = page_bytes(page + i, self.gen)
        try:
            os.pwritev(self.fd, [memoryview(self.buf)[:n * PAGE]], page * PAGE)
        except OSError as e:
            self.io_failed(e)
            for i in range(n):
                self.ok[page + i].add(self.gen)
            return
        for i in range(n):
            if self.lax:
                self.ok[page + i].add(self.gen)
            else:
                self.ok[page + i] = {self.gen}

    def read(self, page, n):
        self.buf[:n * PAGE] = bytes(n * PAGE)
        try:
            os.preadv(self.fd, [memoryview(self.buf)[:n * PAGE]], page * PAGE)
        except OSError as e:
            self.io_failed(e)
            return
        for i in range(n):
            gen = decode(self.buf[i * PAGE:(i + 1) * PAGE], page + i)
            if gen not in self.ok[page + i]:
                self.error = (f"page {page + i}: read generation {gen}, "
                              f"want one of {sorted(self.ok[page + i])}")
                return

    def io_failed(self, e):
        if e.errno != errno.EIO:
            raise e
        self.failed += 1

    def run(self):
        try:
            while time.monotonic() < self.deadline and not self.error:
                page, n = self.span()
                self.ios += 1
                if self.rng.random() < 0.6:
                    self.write(page, n)
                else:
                    self.read(page, n)
        except OSError as e:
            self.error = f"unexpected error: {e}"


def fill(dev, mib):
    fd = os.open(dev, os.O_WRONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, SLOT * PAGE)
    for slot in range((mib << 20) // (SLOT * PAGE)):
        for i in range(SLOT):
            buf[i * PAGE:(i + 1) * PAGE] = page_bytes(slot * SLOT + i, 0)
        os.pwritev(fd, [buf], slot * SLOT * PAGE)
    os.close(fd)


def run(dev, mib, seconds, lax, seed):
    fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
    per = (mib << 20) // PAGE // THREADS
    deadline = time.monotonic() + seconds
    workers = [Worker(fd, t * per, per, deadline, lax, seed * THREADS + t)
               for t in range(THREADS)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print(f"ios {sum(w.ios for w in workers)} failed {sum(w.failed for w in workers)}")
    for w in workers:
        if w.error:
            print(w.error)
            return 1
    return 0


def main():
    args = [a for a in sys.argv[1:] if a != "--lax"]
    lax = "--lax" in sys.argv
    if len(args) == 3 and args[0] == "fill":
        fill(args[1], int(args[2]))
        return 0
    if len(args) in (4, 5) and args[0] == "run":
        seed = int(args[4]) if len(args) == 5 else 1
        return run(args[1], int(args[2]), float(args[3]), lax, seed)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
