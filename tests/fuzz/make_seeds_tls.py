#!/usr/bin/python3
"""make_seeds_tls.py: writes tests/fuzz/corpus/tls/ (committed), the seeds of
fuzz_tls.c: real ClientHellos (TLS 1.3, TLS 1.2 only, with and without ALPN,
another protocol's ALPN) for modes 0 and 1, and startup packets for mode 2
(through a completed handshake)."""
import hashlib
import os
import ssl
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "tls")
os.makedirs(out, exist_ok=True)


def hello(alpn=("postgresql",), max_version=None):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    if alpn:
        ctx.set_alpn_protocols(list(alpn))
    if max_version:
        ctx.maximum_version = max_version
    inc, outg = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = ctx.wrap_bio(inc, outg, server_hostname="localhost")
    try:
        obj.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outg.read()


def startup(user=b"postgres"):
    body = struct.pack("!I", 196608) + b"user\0" + user + b"\0database\0eddy\0\0"
    return struct.pack("!I", len(body) + 4) + body


seeds = []
for alpn in (("postgresql",), None, ("http/1.1",), ("h2", "postgresql")):
    for mv in (None, ssl.TLSVersion.TLSv1_2):
        h = hello(alpn, mv)
        for mode in (0, 1):
            seeds.append(bytes([mode, 0]) + h)
            seeds.append(bytes([mode, len(h) // 2 % 256]) + h)
            seeds.append(bytes([mode, 7]) + h[: len(h) // 3])
seeds.append(bytes([2]) + startup())
seeds.append(bytes([2]) + startup() + b"Q\0\0\0\rSELECT 1\0")
seeds.append(bytes([2]) + struct.pack("!II", 8, 80877103))
seeds.append(bytes([2]) + struct.pack("!IIII", 16, 80877102, 1, 2))
seeds.append(bytes([2]))
seeds.append(bytes([0, 0]) + b"\x16\x03\x01\x00\x05\x01\x00\x00\x01\x00")
for s in seeds:
    with open(os.path.join(out, hashlib.sha1(s).hexdigest()), "wb") as f:
        f.write(s)
print("%d seeds in %s" % (len(seeds), out))
