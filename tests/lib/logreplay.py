#!/usr/bin/python3
"""Replay a dm-log-writes log onto a device, stopping at every flush and FUA
write to let a command judge the state the device would have been left in
had the power gone right after it.

    logreplay.py [--after-mark MARK] [--every N] LOGDEV DEV CMD [ARG...]

The log's layout (the kernel's Documentation/admin-guide/device-mapper/
log-writes.rst and drivers/md/dm-log-writes.c): block 0 holds the super
(magic, version, entry count, block size); every entry then takes one
block, a header (sector, number of sectors, flags, data length; a mark's
text follows the header in its block), followed by the data of a write,
nr_sectors blocks (none for a discard or a flush without data).  Sectors
count in the logged device's blocks.

Entries are applied in order (a discard writes zeros, as a RAM disk reads
a discarded range).  After each entry with the FLUSH or FUA flag, DEV is
synced and CMD runs with POINT (the entry's index), POINTS (how many such
states so far) and MARKS (a file: every mark logged before it, one per
line) in its environment; the replay stops at the first CMD that fails.
With --after-mark, the states before MARK is logged (say, before mkfs
was done) are replayed but not checked.  With --every N, only the first
state and every Nth after it are checked, and the end of the log too when
the last state was passed over.
Prints what it replayed; exits 0 when every CMD passed.
"""
import os
import struct
import subprocess
import sys

MAGIC = 0x6a736677736872
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
SUPER = struct.Struct("<QQQI")
ENTRY = struct.Struct("<QQQQ")


def entries(log):
    """The super's block size and entry count, then each entry as (index,
    sector, nr_sectors, flags, data or mark text)."""
    magic, version, count, bs = SUPER.unpack(os.pread(log, SUPER.size, 0))
    if magic != MAGIC or version != 1:
        sys.exit(f"logreplay: not a dm-log-writes log (magic {magic:#x}, version {version})")
    yield bs, count
    off = bs
    for i in range(count):
        hdr = os.pread(log, bs, off)
        sector, nr, flags, dlen = ENTRY.unpack(hdr[:ENTRY.size])
        off += bs
        if flags & MARK:
            data = hdr[ENTRY.size:ENTRY.size + dlen].rstrip(b"\0").decode(errors="replace")
        elif flags & DISCARD or not nr:
            data = None
        else:
            data = os.pread(log, nr * bs, off)
            off += nr * bs
        yield i, sector, nr, flags, data


def check(cmd, dev, marks_file, i, point, marks, what):
    """Run CMD on the state after entry I, flush/FUA point POINT (WHAT says
    which state it is); whether it passed."""
    os.fsync(dev)
    with open(marks_file, "w") as f:
        f.write("".join(m + "\n" for m in marks))
    env = dict(os.environ, POINT=str(i), POINTS=str(point), MARKS=marks_file)
    if subprocess.run(cmd, env=env).returncode != 0:
        print(f"logreplay: {what} failed the check")
        return False
    return True


def main(argv):
    after, every = None, 1
    while argv[:1] in (["--after-mark"], ["--every"]) and len(argv) > 1:
        if argv[0] == "--every":
            every = int(argv[1]) if argv[1].isdigit() else 0
        else:
            after = argv[1]
        argv = argv[2:]
    if len(argv) < 3 or every < 1:
        print(__doc__, file=sys.stderr)
        return 2
    log = os.open(argv[0], os.O_RDONLY)
    dev = os.open(argv[1], os.O_RDWR)
    cmd = argv[2:]
    it = entries(log)
    bs, count = next(it)
    marks_file = os.environ.get("TMPDIR", "/tmp") + "/logreplay.marks"
    marks = []
    writes = discards = points = skipped = seen = 0
    for i, sector, nr, flags, data in it:
        if flags & MARK:
            marks.append(data)
            continue
        if flags & DISCARD:
            os.pwrite(dev, bytes(nr * bs), sector * bs)
            discards += 1
        elif data:
            os.pwrite(dev, data, sector * bs)
            writes += 1
        if flags & (FLUSH | FUA) and after is not None and after not in marks:
            skipped += 1
        elif flags & (FLUSH | FUA):
            seen += 1
            if (seen - 1) % every == 0:
                if not check(cmd, dev, marks_file, i, seen, marks,
                             f"the state after entry {i} of {count} (flush/FUA point {seen})"):
                    return 1
                points += 1
    # The device as the whole log left it, when --every passed over the
    # last flush/FUA point: a state at least as late as that one.
    end = seen > 0 and (seen - 1) % every != 0
    if end and not check(cmd, dev, marks_file, count - 1, seen, marks,
                         f"the end of the log ({count} entries, after flush/FUA point {seen})"):
        return 1
    print(f"logreplay: {count} entries ({writes} writes, {discards} discards, "
          f"{len(marks)} marks), {points} of {seen} flush/FUA points checked"
          f"{' and the end of the log' if end else ''}"
          f"{f' ({skipped} before mark {after} not)' if after else ''}, block {bs}")
    if after is not None and after not in marks:
        print(f"logreplay: mark {after} not in the log")
        return 1
    # dm-log-writes logs this mark when its device is removed: without it
    # the log stopped early (a full log device turns logging off).
    if marks[-1:] != ["dm-log-writes-end"]:
        print("logreplay: the log does not end with dm-log-writes-end: incomplete")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
