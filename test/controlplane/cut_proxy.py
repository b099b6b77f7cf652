#!/usr/bin/env python3
"""A TCP proxy that cuts connections, for e2e_faults.sh (test glue).

  cut_proxy.py --target HOST:PORT [--period SECONDS]

Listens on a free port of 127.0.0.1 and prints "proxy ready on PORT"; every connection is piped
to --target byte for byte (TLS passes through untouched, so clients keep verifying the API
server's certificate). Every --period seconds (0: never) it closes every open connection, both
sides, as a load balancer or a flaky network would; watches end mid-stream and requests in flight
fail. Signals:
  SIGUSR1  cut every open connection now;
  SIGUSR2  toggle holding: while held, new connections are closed at once (the server looks
           down), until the next SIGUSR2.
Each cut prints "cut N connections"; holding prints "held" / "released". Stops on SIGTERM.
"""
import argparse
import selectors
import signal
import socket
import sys
import threading
import time


class Proxy:
    def __init__(self, target):
        self.target = target
        self.lock = threading.Lock()
        self.open = set()  # sockets of live connections, both sides
        self.held = False

    def serve(self, listener):
        while True:
            client, _ = listener.accept()
            with self.lock:
                held = self.held
            if held:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.open.update((client, upstream))
            threading.Thread(target=self.pipe, args=(client, upstream), daemon=True).start()

    def pipe(self, client, upstream):
        selector = selectors.DefaultSelector()
        selector.register(client, selectors.EVENT_READ, upstream)
        selector.register(upstream, selectors.EVENT_READ, client)
        try:
            while True:
                for key, _ in selector.select():
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    key.data.sendall(data)
        except (OSError, ValueError):
            return
        finally:
            selector.close()
            self.close(client, upstream)

    def close(self, *sockets):
        with self.lock:
            for sock in sockets:
                self.open.discard(sock)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def cut(self):
        with self.lock:
            victims = list(self.open)
        # shutdown() wakes the pipe threads, which close and forget both sides.
        for sock in victims:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        print(f"{time.strftime('%H:%M:%S')} cut {len(victims) // 2} connections", flush=True)

    def toggle_hold(self):
        with self.lock:
            self.held = not self.held
            held = self.held
        print(f"{time.strftime('%H:%M:%S')} {'held' if held else 'released'}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True, help="HOST:PORT")
    parser.add_argument("--period", type=float, default=0)
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    proxy = Proxy((host, int(port)))
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    stop = threading.Event()
    # The handlers only wake the main thread: cutting takes the lock a pipe thread may hold.
    wanted = {"cut": threading.Event(), "hold": threading.Event()}
    signal.signal(signal.SIGUSR1, lambda *_: wanted["cut"].set())
    signal.signal(signal.SIGUSR2, lambda *_: wanted["hold"].set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threading.Thread(target=proxy.serve, args=(listener,), daemon=True).start()
    print(f"proxy ready on {listener.getsockname()[1]}", flush=True)
    next_cut = time.monotonic() + args.period if args.period > 0 else float("inf")
    while not stop.is_set():
        stop.wait(0.1)
        if wanted["hold"].is_set():
            wanted["hold"].clear()
            proxy.toggle_hold()
        if wanted["cut"].is_set() or time.monotonic() >= next_cut:
            wanted["cut"].clear()
            proxy.cut()
            if args.period > 0:
                next_cut = time.monotonic() + args.period
    return 0


if __name__ == "__main__":
    sys.exit(main())
