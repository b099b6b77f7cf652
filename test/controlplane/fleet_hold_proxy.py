#!/usr/bin/env python3
"""An HTTP proxy in front of moto that can swallow one CreateFleet answer (test glue for
e2e_faults.sh).

  fleet_hold_proxy.py --target http://127.0.0.1:PORT

Listens on a free port of 127.0.0.1, prints "proxy ready on PORT", and forwards every request to
--target as it is. After SIGUSR1 it is armed: the next CreateFleet is forwarded (moto launches
the instance) but its answer is never sent back; the proxy prints
"held CreateFleet: INSTANCE-ID..." instead. The controller that asked now waits, with the instance
launched and nothing written to its NodeClaim: the moment to kill it. Stops on SIGTERM.
"""
import argparse
import http.client
import http.server
import re
import signal
import sys
import threading
import time
import urllib.parse

ARMED = threading.Event()


def handler_for(target):
    class Forward(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def forward(self):
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length) if length else b""
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "connection", "keep-alive")}
            upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            if b"Action=CreateFleet" in body and ARMED.is_set():
                ARMED.clear()
                ids = re.findall(rb"<item>(i-[0-9a-f]+)</item>", data)
                print(f"{time.strftime('%H:%M:%S')} held CreateFleet: "
                      f"{' '.join(i.decode() for i in ids) or '(none)'}", flush=True)
                threading.Event().wait()  # never answers; the asker is killed meanwhile
            self.send_response(answer.status)
            for key, value in answer.getheaders():
                if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = forward

    return Forward


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             handler_for(urllib.parse.urlsplit(args.target)))
    server.daemon_threads = True
    signal.signal(signal.SIGUSR1, lambda *_: ARMED.set())
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"proxy ready on {server.server_address[1]}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
