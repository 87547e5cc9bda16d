#!/usr/bin/python3
# test/field/syslog_sink.py -- a tiny syslog receiver for the HAProxy field
# test: for each --listen PORT:FILE, bind UDP on 127.0.0.1:PORT and append
# every datagram to FILE as one line (its trailing line end removed, a
# newline added), as a syslog daemon writes a file.  Stops by itself after
# --lifetime seconds, or on SIGTERM.
#
#   syslog_sink.py --listen 5140:/tmp/x/rfc3164.log --listen 5141:/tmp/x/rfc5424.log --lifetime 60
import argparse
import selectors
import signal
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", action="append", required=True, help="PORT:FILE")
    ap.add_argument("--lifetime", type=float, default=120.0)
    args = ap.parse_args()
    sel = selectors.DefaultSelector()
    outs = []
    for item in args.listen:
        port, path = item.split(":", 1)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        s.bind(("127.0.0.1", int(port)))
        out = open(path, "ab", buffering=0)
        outs.append(out)
        sel.register(s, selectors.EVENT_READ, out)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    print("listening", flush=True)
    end = time.monotonic() + args.lifetime
    while not stop and time.monotonic() < end:
        for key, _ in sel.select(timeout=0.2):
            data = key.fileobj.recv(65536)
            while data.endswith(b"\n") or data.endswith(b"\0"):
                data = data[:-1]
            key.data.write(data + b"\n")
    for out in outs:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
