#!/usr/bin/python3
"""Run skcipher operations through AF_ALG, by algorithm or driver name.

    afalg.py NAME enc|dec KEYHEX IVHEX DATAHEX   -> result in hex on stdout
    afalg.py NAME setkey KEYHEX                  -> "ok" or the errno name
    afalg.py -                                   -> one line of arguments per
                                                    stdin line, one result line
                                                    per operation

Exit 0 on success, 3 when the kernel refused a key (single operation only;
in batch mode the errno name is the result line), 1 on other errors.
Batch mode exists because starting Python costs seconds in an emulated guest.
"""
import errno
import socket
import sys


class KeyRefused(Exception):
    pass


_bound = {}


def tfm(name, key):
    """A socket bound to NAME with KEY set.  Sockets are kept per name, so a
    batch allocates each tfm once (every allocation of a tfm whose fast path
    is missing makes the kernel try to load modules, seconds in a guest)."""
    sock = _bound.get(name)
    if sock is None:
        sock = socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0)
        sock.bind(("skcipher", name))
        _bound[name] = sock
    try:
        sock.setsockopt(socket.SOL_ALG, socket.ALG_SET_KEY, key)
    except OSError as e:
        raise KeyRefused(errno.errorcode.get(e.errno, str(e.errno)))
    return sock


def crypt(name, op, key, iv, data):
    sock = tfm(name, key)
    conn, _ = sock.accept()
    mode = socket.ALG_OP_ENCRYPT if op == "enc" else socket.ALG_OP_DECRYPT
    conn.sendmsg_afalg([data], op=mode, iv=iv)
    out = conn.recv(len(data))
    conn.close()
    return out


def run(args):
    """One operation; returns its result line or raises KeyRefused."""
    name, op = args[0], args[1]
    key = bytes.fromhex(args[2] if len(args) > 2 else "")
    if op == "setkey":
        tfm(name, key)
        return "ok"
    if op not in ("enc", "dec"):
        raise ValueError("unknown operation " + op)
    iv, data = bytes.fromhex(args[3]), bytes.fromhex(args[4])
    return crypt(name, op, key, iv, data).hex()


def main(argv):
    if argv[1:] == ["-"]:
        for line in sys.stdin:
            try:
                print(run(line.split()), flush=True)
            except KeyRefused as e:
                print(e, flush=True)
        return 0
    try:
        print(run(argv[1:]))
    except KeyRefused as e:
        print(e)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
