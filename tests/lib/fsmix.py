#!/usr/bin/python3
"""A metadata-heavy filesystem workload and the tree's manifest: the guest
tests' stand-in for fsstress (which Debian does not package).

    fsmix.py run DIR SECONDS [SEED [PROCS]]
        PROCS workers (default 4), each in its own DIR/wN, create, append to,
        overwrite, truncate, rename, hard-link, symlink and unlink files, make
        and remove directories, set extended attributes and fsync files and
        directories, at random (seeded), until SECONDS have passed.  Prints
        the operations done and exits non-zero if a worker failed.
    fsmix.py manifest DIR
        One line per entry under DIR, sorted: directories, files (size, link
        count, SHA-256 of the data, the user.* extended attributes) and
        symbolic links (their target).  Two manifests compare with diff.
    fsmix.py acked DIR COUNT LIST CMD [ARG...]
        COUNT files a0, a1... written into DIR, each made durable (the file
        and DIR fsynced) and then acknowledged: CMD runs with the file's
        name as its last argument (a crash test logs it as a mark) and
        "name sha256" is appended to LIST (sha256sum's order reversed).
"""
import hashlib
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time

MAX_FILES = 300
MAX_BYTES = int(os.environ.get("FSMIX_MAX_MB", "24")) << 20
# FSMIX_NO_FSYNC=1: no fsync at all (a crash test's churn, which must not
# multiply the flush points it checks).
FSYNC = os.environ.get("FSMIX_NO_FSYNC", "") != "1"
stopping = False


def stop(*_):
    """SIGTERM: workers finish their operation and report."""
    global stopping
    stopping = True


def size(rng):
    """Mostly small files, some up to 256 KiB."""
    return int(rng.choice((0, 1, 512, 4096, 5000)) if rng.random() < 0.5
               else rng.expovariate(1 / 32768)) % (256 << 10)


class Worker:
    def __init__(self, root, seed):
        self.rng = random.Random(seed)
        self.root = root
        self.dirs = [root]
        self.files = []
        self.links = []
        self.n = 0
        self.used = 0
        self.ops = {}

    def name(self, prefix):
        self.n += 1
        return os.path.join(self.rng.choice(self.dirs), f"{prefix}{self.n}")

    def write(self, path, mode, nbytes, offset=None):
        with open(path, mode) as f:
            if offset is not None:
                f.seek(offset)
            f.write(self.rng.randbytes(nbytes))
            if self.rng.random() < 0.2 and FSYNC:
                f.flush()
                os.fsync(f.fileno())

    def create(self):
        p = self.name("f")
        self.write(p, "wb", size(self.rng))
        self.files.append(p)

    def append(self, p):
        self.write(p, "ab", self.rng.randrange(1, 16384))

    def overwrite(self, p):
        n = os.path.getsize(p)
        self.write(p, "r+b", self.rng.randrange(1, 8192), self.rng.randrange(n + 1))

    def truncate(self, p):
        os.truncate(p, self.rng.randrange(os.path.getsize(p) * 2 + 4096))

    def rename(self, p):
        q = self.name("r")
        os.rename(p, q)
        self.files[self.files.index(p)] = q

    def link(self, p):
        q = self.name("h")
        os.link(p, q)
        self.files.append(q)

    def symlink(self, p):
        if len(self.links) >= MAX_FILES // 4:
            os.unlink(self.links.pop(self.rng.randrange(len(self.links))))
        q = self.name("s")
        os.symlink(os.path.relpath(p, self.root), q)
        self.links.append(q)

    def unlink(self, p):
        os.unlink(p)
        self.files.remove(p)

    def mkdir(self):
        if len(self.dirs) < 20:
            d = self.name("d")
            os.mkdir(d)
            self.dirs.append(d)

    def rmdir(self):
        d = self.rng.choice(self.dirs[1:] or [self.root])
        if d != self.root and not os.listdir(d):
            os.rmdir(d)
            self.dirs.remove(d)

    def xattr(self, p):
        os.setxattr(p, f"user.k{self.rng.randrange(4)}", self.rng.randbytes(self.rng.randrange(1, 200)))

    def fsync_dir(self):
        if not FSYNC:
            return
        fd = os.open(self.rng.choice(self.dirs), os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def step(self):
        rng = self.rng
        if sum(self.ops.values()) % 64 == 0:
            self.used = sum(os.path.getsize(p) for p in self.files)
        if not self.files or (len(self.files) < MAX_FILES and rng.random() < 0.25):
            op, args = self.create, ()
        elif len(self.files) >= MAX_FILES or self.used > MAX_BYTES:
            op, args = self.unlink, (rng.choice(self.files),)
        else:
            p = rng.choice(self.files)
            op, args = rng.choice((
                (self.append, (p,)), (self.overwrite, (p,)), (self.truncate, (p,)),
                (self.rename, (p,)), (self.link, (p,)), (self.symlink, (p,)),
                (self.unlink, (p,)), (self.xattr, (p,)), (self.mkdir, ()),
                (self.rmdir, ()), (self.fsync_dir, ())))
        op(*args)
        self.ops[op.__name__] = self.ops.get(op.__name__, 0) + 1


def work(root, seed, deadline, results):
    os.makedirs(root, exist_ok=True)
    w = Worker(root, seed)
    try:
        while time.monotonic() < deadline and not stopping:
            w.step()
    except OSError as e:
        results.put((root, f"error: {e}"))
        return
    results.put((root, w.ops))


def run(top, seconds, seed=1, procs=4):
    deadline = time.monotonic() + float(seconds)
    results = multiprocessing.Queue()
    ps = [multiprocessing.Process(target=work, args=(os.path.join(top, f"w{i}"),
                                                     int(seed) * 1000 + i, deadline, results))
          for i in range(int(procs))]
    signal.signal(signal.SIGTERM, stop)
    for p in ps:
        p.start()
    signal.signal(signal.SIGTERM, lambda *_: [os.kill(p.pid, signal.SIGTERM) for p in ps])
    got = [results.get() for _ in ps]
    for p in ps:
        p.join()
    total, bad = {}, []
    for root, ops in got:
        if isinstance(ops, str):
            bad.append(f"{root}: {ops}")
            continue
        for k, v in ops.items():
            total[k] = total.get(k, 0) + v
    print(f"fsmix: {sum(total.values())} operations:",
          " ".join(f"{k} {v}" for k, v in sorted(total.items())))
    for b in bad:
        print(f"fsmix: {b}", file=sys.stderr)
    return 1 if bad else 0


def manifest(top):
    lines = []
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, top)
            if os.path.islink(p):
                lines.append(f"l {rel} -> {os.readlink(p)}")
            elif os.path.isdir(p):
                lines.append(f"d {rel}")
            else:
                h = hashlib.sha256()
                with open(p, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                st = os.stat(p)
                xa = ",".join(f"{k}={os.getxattr(p, k).hex()}"
                              for k in sorted(os.listxattr(p)) if k.startswith("user."))
                lines.append(f"f {rel} {st.st_size} {st.st_nlink} {h.hexdigest()} {xa}")
    print("\n".join(sorted(lines)))
    return 0


def fsync_path(path, flags=os.O_RDONLY):
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def acked(top, count, listfile, cmd):
    rng = random.Random(int(count))
    os.makedirs(top, exist_ok=True)
    fsync_path(os.path.dirname(os.path.abspath(top)), os.O_RDONLY | os.O_DIRECTORY)
    with open(listfile, "a") as lst:
        for i in range(int(count)):
            name = f"a{i}"
            data = rng.randbytes(size(rng) + 1)
            with open(os.path.join(top, name), "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            fsync_path(top, os.O_RDONLY | os.O_DIRECTORY)
            subprocess.run(cmd + [name], check=True)
            lst.write(f"{name} {hashlib.sha256(data).hexdigest()}\n")
            lst.flush()
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "run" and len(argv) <= 5:
        return run(*argv[1:])
    if len(argv) == 2 and argv[0] == "manifest":
        return manifest(argv[1])
    if len(argv) >= 5 and argv[0] == "acked":
        return acked(argv[1], argv[2], argv[3], argv[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
