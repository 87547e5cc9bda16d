#!/usr/bin/python3
# test/field/backend.py -- the field test's backend: a threaded HTTP server on
# 127.0.0.1 that nginx proxies to, with a delay that depends on the route, so
# that routes differ in latency.  It answers every method with a short body and
# stops by itself after --lifetime seconds (or on SIGTERM).
#
#   backend.py --port 8081 --lifetime 120
import argparse
import http.server
import random
import signal
import socketserver
import threading
import time

# (path prefix, min ms, max ms): the first prefix that matches sets the delay.
DELAYS = [
    ("/slow/", 40, 90),
    ("/api/v1/orders/", 5, 25),
    ("/api/", 2, 12),
    ("/users/", 1, 6),
    ("/search", 3, 30),
    ("/files/", 1, 10),
    ("/static/", 0, 1),
    ("/health", 0, 0),
]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def answer(self):
        path = self.path.split("?", 1)[0]
        lo, hi = 0, 3
        for prefix, a, b in DELAYS:
            if path.startswith(prefix):
                lo, hi = a, b
                break
        if hi > 0:
            time.sleep(random.uniform(lo, hi) / 1000.0)
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(min(n, 1 << 20))
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = answer

    def __getattr__(self, name):
        # any other method (PROPFIND, ...) gets the same answer
        if name.startswith("do_"):
            return self.answer
        raise AttributeError(name)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--lifetime", type=float, default=120.0)
    args = ap.parse_args()
    srv = Server(("127.0.0.1", args.port), Handler)
    stop = lambda *a: threading.Thread(target=srv.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    timer = threading.Timer(args.lifetime, stop)
    timer.daemon = True
    timer.start()
    srv.serve_forever(poll_interval=0.2)
    timer.cancel()
    srv.server_close()


if __name__ == "__main__":
    main()
