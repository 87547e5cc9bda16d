#!/usr/bin/python3
# test/field/hostile.py -- the field test's hostile and tricky requests, sent
# as raw bytes to nginx on 127.0.0.1, one connection each.
#
# Requests that today's combined parser gets wrong, or that must be malformed
# lines, come from 127.0.0.2; requests with quotes, backslashes, spaces, query
# strings and percent-encoding that it already reads right come from
# 127.0.0.3 (both addresses are loopback).  So $remote_addr tells, in the log,
# which lines are hostile.  Prints one line per kind: "kind source count".
#
#   hostile.py --port 8080 [--rounds 3] [--pause 2.0] [--seed 50]
import argparse
import base64
import random
import socket
import sys
import time

HOSTILE = "127.0.0.2"
TRICKY = "127.0.0.3"


def basic(user, password="pw"):
    return base64.b64encode((user + ":" + password).encode("latin-1")).decode("ascii")


def get(path, extra=b"", method=b"GET"):
    return (method + b" " + path + b" HTTP/1.1\r\nHost: localhost\r\n" + extra
            + b"Connection: close\r\n\r\n")


def client_hello(rng):
    # A TLS 1.2/1.3 ClientHello record as a browser sends it first.
    rnd = bytes(rng.getrandbits(8) for _ in range(32))
    sid = bytes(rng.getrandbits(8) for _ in range(32))
    suites = bytes.fromhex("130113021303c02bc02fc02cc030cca9cca8c013c014009c009d002f0035")
    sni = b"localhost"
    ext_sni = (b"\x00\x00" + (len(sni) + 5).to_bytes(2, "big") + (len(sni) + 3).to_bytes(2, "big")
               + b"\x00" + len(sni).to_bytes(2, "big") + sni)
    ext_ver = bytes.fromhex("002b0003020304")
    exts = ext_sni + ext_ver
    body = (b"\x03\x03" + rnd + bytes([len(sid)]) + sid + len(suites).to_bytes(2, "big") + suites
            + b"\x01\x00" + len(exts).to_bytes(2, "big") + exts)
    hs = b"\x01" + len(body).to_bytes(3, "big") + body
    return b"\x16\x03\x01" + len(hs).to_bytes(2, "big") + hs


def junk(rng, n, newline):
    b = bytearray(rng.getrandbits(8) for _ in range(n))
    b[0] = rng.choice(b"\x00\x01\x7f\x80\xff\x1b")  # never a method's first byte
    if not newline:
        b = bytearray(c for c in b if c not in (10, 13)) or bytearray(b"\x00")
    return bytes(b) + (b"\r\n\r\n" if newline else b"")


def kinds(rng):
    ua_quotes = b'User-Agent: Mozilla/5.0 "quoted" \\back\\slash\\ \\"both\\" end\\\r\n'
    ref_quotes = b'Referer: http://127.0.0.1/a"b\\c?d="e"\r\n'
    return [
        # (kind, source, bytes, half-close after sending)
        ("auth_user_admin_brackets", HOSTILE,
         get(b"/private/area", b"Authorization: Basic " + basic("[admin]").encode() + b"\r\n"), False),
        ("auth_user_fake_time", HOSTILE,
         get(b"/private/area", b"Authorization: Basic "
             + basic("[01/Jan/2000:00:00:00 +0000]").encode() + b"\r\n"), False),
        ("auth_user_fake_time_quote", HOSTILE,
         get(b"/private/area?x=1", b"Authorization: Basic "
             + basic('[01/Jan/2000:00:00:00 +0000] "GET /fake HTTP/1.1"').encode() + b"\r\n"), False),
        ("tls_client_hello", HOSTILE, client_hello(rng), True),
        ("binary_junk", HOSTILE, junk(rng, 64, False), True),
        ("binary_junk_newlines", HOSTILE, junk(rng, 48, True), True),
        ("garbage", HOSTILE, b"GARBAGE\r\n", True),
        ("garbage_headers", HOSTILE, b"GARBAGE\r\nHost: x\r\n\r\n", True),
        ("h2_preface", HOSTILE, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", True),
        ("no_target", HOSTILE, b"GET\r\n\r\n", True),
        ("bad_method_byte", HOSTILE, b"G{T /x HTTP/1.1\r\nHost: x\r\n\r\n", True),
        ("absolute_form", HOSTILE, get(b"http://example.com/abs/path?from=proxy"), False),
        ("absolute_form_port", HOSTILE, get(b"http://localhost:8080/api/v1/orders/42"), False),
        ("auth_user_space", TRICKY,
         get(b"/private/area", b"Authorization: Basic " + basic("a b").encode() + b"\r\n"), False),
        ("auth_user_quote_backslash", TRICKY,
         get(b"/private/area", b"Authorization: Basic " + basic('q"u\\ote').encode() + b"\r\n"), False),
        ("ua_referer_quotes", TRICKY, get(b"/users/7/avatar", ua_quotes + ref_quotes), False),
        ("query_string_quotes", TRICKY, get(b'/search?q="x"&y=a\\b&z=%22'), False),
        ("percent_encoding", TRICKY, get(b"/files/%E2%82%AC/na%C3%AFve%20file.txt?dl=1"), False),
        ("raw_utf8_path", TRICKY, get("/files/€/naïve".encode("utf-8")), False),
        ("encoded_slash_and_hash", TRICKY, get(b"/a%2Fb/c%23d?e=%3F"), False),
        ("propfind", TRICKY, get(b"/dav/notes.txt", method=b"PROPFIND"), False),
    ]


def send(port, source, payload, half_close):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(5.0)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(payload)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        try:
            while s.recv(65536):
                pass
        except (socket.timeout, ConnectionResetError):
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pause", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=50)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sent = {}
    for r in range(args.rounds):
        for kind, source, payload, half in kinds(rng):
            send(args.port, source, payload, half)
            sent[(kind, source)] = sent.get((kind, source), 0) + 1
        if r + 1 < args.rounds:
            time.sleep(args.pause)
    for (kind, source), n in sorted(sent.items()):
        print(kind, source, n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
