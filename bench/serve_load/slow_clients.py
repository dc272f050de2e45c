#!/usr/bin/env python3
"""Slow clients for bench/serve_load/run.sh: COUNT connections from SOURCE (another loopback
address, so that the server's per-address limit applies to them and not to wrk) to HOST:PORT,
each sending a request a byte every INTERVAL seconds, for SECONDS; a connection the server
closes is opened again (as an attacker would). Prints how many connections it opened, how many
the server refused with 503 and how many it closed before their request was whole."""
import socket
import sys
import time


def main():
    host, port, count, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    source = sys.argv[5] if len(sys.argv) > 5 else "127.0.0.2"
    interval = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0
    request = b"GET /search?q=slow HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"p" * 200 + b"\r\n\r\n"
    opened = refused = closed = 0
    connections = []  # [socket, bytes sent]

    def connect():
        nonlocal opened
        s = socket.socket()
        s.bind((source, 0))
        s.connect((host, port))
        s.setblocking(False)
        opened += 1
        return [s, 0]

    for _ in range(count):
        connections.append(connect())
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for i, c in enumerate(connections):
            s, sent = c
            try:
                answer = s.recv(4096)
                if answer.startswith(b"HTTP/1.1 503"):
                    refused += 1
                else:
                    closed += 1
                s.close()
                connections[i] = connect()
                continue
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
                s.close()
                connections[i] = connect()
                continue
            try:
                s.send(request[sent:sent + 1])
                c[1] = min(sent + 1, len(request) - 1)  # never finish the request
            except OSError:
                pass
        time.sleep(interval)
    print(f"slow clients: {count} at a time from {source}, a byte every {interval:g} s for {seconds:g} s: "
          f"{opened} connections opened, {refused} refused (503), {closed} closed by the server")


if __name__ == "__main__":
    main()
