#!/usr/bin/python3
"""Run one skcipher operation through AF_ALG, by algorithm or driver name.

    afalg.py NAME enc|dec KEYHEX IVHEX DATAHEX   -> result in hex on stdout
    afalg.py NAME setkey KEYHEX                  -> "ok" or the errno name

Exit 0 on success, 3 when the kernel refused the key, 1 on other errors.
"""
import errno
import socket
import sys


def tfm(name, key):
    sock = socket.socket(socket.AF_ALG, socket.SOCK_SEQPACKET, 0)
    sock.bind(("skcipher", name))
    try:
        sock.setsockopt(socket.SOL_ALG, socket.ALG_SET_KEY, key)
    except OSError as e:
        sock.close()
        print(errno.errorcode.get(e.errno, str(e.errno)))
        sys.exit(3)
    return sock


def crypt(name, op, key, iv, data):
    sock = tfm(name, key)
    conn, _ = sock.accept()
    mode = socket.ALG_OP_ENCRYPT if op == "enc" else socket.ALG_OP_DECRYPT
    conn.sendmsg_afalg([data], op=mode, iv=iv)
    out = conn.recv(len(data))
    conn.close()
    sock.close()
    return out


def main(argv):
    name, op = argv[1], argv[2]
    key = bytes.fromhex(argv[3])
    if op == "setkey":
        tfm(name, key).close()
        print("ok")
        return 0
    iv, data = bytes.fromhex(argv[4]), bytes.fromhex(argv[5])
    print(crypt(name, op, key, iv, data).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
