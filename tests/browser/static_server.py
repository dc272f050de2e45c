#!/usr/bin/env python3
"""@file static_server.py
@brief A static file server on loopback (python3's http.server) that can answer some paths late.

Usage: static_server.py PORT DIRECTORY [--slow PREFIX=SECONDS ...]
A request whose path starts with PREFIX is answered after SECONDS: the browser tests use it to
hold back a Pagefind bundle's index while the reader types, as a slow network would.
"""

import argparse
import functools
import http.server
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree


def slow_prefix(text):
    """'PREFIX=SECONDS' as (PREFIX, seconds)."""
    prefix, _, seconds = text.rpartition("=")
    if not prefix:
        raise argparse.ArgumentTypeError("expected PREFIX=SECONDS, got %r" % text)
    return prefix, float(seconds)


class Handler(http.server.SimpleHTTPRequestHandler):
    slow = []  # [(prefix, seconds)]

    def do_GET(self):
        for prefix, seconds in self.slow:
            if self.path.startswith(prefix):
                time.sleep(seconds)
                break
        super().do_GET()

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("port", type=int)
    parser.add_argument("directory")
    parser.add_argument("--slow", type=slow_prefix, action="append", default=[],
                        help="PREFIX=SECONDS: answer paths starting with PREFIX after SECONDS")
    args = parser.parse_args()
    Handler.slow = args.slow
    handler = functools.partial(Handler, directory=args.directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
