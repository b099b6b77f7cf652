#!/usr/bin/env python3
"""An HTTP proxy in front of moto_server that injects AWS faults on the wire (test glue for
src/aws/moto_http_fault_test.cc).

  fault_proxy.py --target http://127.0.0.1:PORT

Listens on a free port of 127.0.0.1, prints "fault proxy listening on http://127.0.0.1:PORT" and
forwards every request to --target, except where a rule says otherwise. Rules are set over HTTP on
the same port:

  POST   /fault-proxy/rules   a JSON rule or list of rules, appended:
         {"operation": "CreateFleet", "kind": "throttle", "times": 2, "delay": 0}
         operation: a query Action or a JSON target's operation ("" or absent: every request);
         times: how many matching requests to fault (absent or negative: all of them);
         delay: seconds, for "slow";
         status, body: the answer of "respond" (an XML or JSON body, as the service would send).
  DELETE /fault-proxy/rules   drops every rule
  GET    /fault-proxy/log     every request seen, in order, as JSON:
         [{"operation": "...", "fault": "throttle" or "", "forwarded": true}, ...]

Kinds: "throttle" (HTTP 400 RequestLimitExceeded, or ThrottlingException for the JSON protocol),
"server_error" (HTTP 500 InternalError / InternalFailure), "bad_gateway" (HTTP 502 with a load
balancer's HTML page), "slow" (waits `delay` seconds, then forwards), "close" (closes the
connection without forwarding or answering), "lose_answer" (forwards, so the service acts, then
closes without answering), "truncate" (forwards, then sends the headers and half the body),
"respond" (answers `status` and `body` without forwarding: a call moto does not implement).

Where moto falls short of EC2 the proxy stands in: EC2 makes CreateFleet and RunInstances
idempotent by ClientToken, moto ignores the token. A repeated call with a token whose first call
succeeded gets the first answer again without reaching moto (logged with fault "replayed").
Stops on SIGTERM or SIGINT.
"""
import argparse
import http.client
import http.server
import json
import signal
import sys
import threading
import time
import urllib.parse

KINDS = {"throttle", "server_error", "bad_gateway", "slow", "close", "lose_answer", "truncate",
         "respond"}
IDEMPOTENT_BY_TOKEN = {"CreateFleet", "RunInstances"}
MAX_BODY = 64 << 20

BAD_GATEWAY_PAGE = (b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
                    b"<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n")


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.rules = []
        self.log = []
        self.answers_by_token = {}

    def add_rules(self, rules):
        for rule in rules:
            if not isinstance(rule, dict):
                raise ValueError("a rule is a JSON object")
            kind = rule.get("kind")
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind!r}")
            times = rule.get("times", -1)
            delay = rule.get("delay", 0)
            if not isinstance(times, int) or not isinstance(delay, (int, float)) or delay < 0:
                raise ValueError("times must be an integer and delay a number of seconds >= 0")
            operation = rule.get("operation", "")
            if not isinstance(operation, str):
                raise ValueError("operation must be a string")
            status = rule.get("status", 200)
            answer = rule.get("body", "")
            if not isinstance(status, int) or not 100 <= status <= 599 or not isinstance(answer, str):
                raise ValueError("status must be an HTTP status and body a string")
            with self.lock:
                self.rules.append({"operation": operation, "kind": kind, "times": times,
                                   "delay": float(delay), "status": status, "body": answer})

    def take_rule(self, operation):
        with self.lock:
            for rule in self.rules:
                if rule["times"] == 0 or rule["operation"] not in ("", operation):
                    continue
                if rule["times"] > 0:
                    rule["times"] -= 1
                return dict(rule)
        return None

    def record(self, operation, fault, forwarded):
        with self.lock:
            self.log.append({"operation": operation, "fault": fault, "forwarded": forwarded})


def operation_of(headers, path, body):
    target = headers.get("X-Amz-Target", "")
    if target:
        return target.rsplit(".", 1)[-1]
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    if "Action" in query:
        return query["Action"][0]
    form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
    return form.get("Action", [""])[0]


def client_token_of(body):
    form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
    return form.get("ClientToken", [""])[0]


def error_answer(kind, json_protocol):
    """(status, content type, body) of an AWS error answer."""
    if kind == "bad_gateway":
        return 502, "text/html", BAD_GATEWAY_PAGE
    throttle = kind == "throttle"
    status = 400 if throttle else 500
    if json_protocol:
        code = "ThrottlingException" if throttle else "InternalFailure"
        text = "Rate exceeded" if throttle else "An internal error occurred"
        return status, "application/x-amz-json-1.1", json.dumps(
            {"__type": code, "message": text}).encode()
    code = "RequestLimitExceeded" if throttle else "InternalError"
    text = "Request limit exceeded." if throttle else "An internal error has occurred"
    return status, "text/xml", (
        f"<Response><Errors><Error><Code>{code}</Code><Message>{text}</Message></Error>"
        f"</Errors><RequestID>fault-proxy</RequestID></Response>").encode()


def handler_for(target, state):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def read_body(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length < 0 or length > MAX_BODY:
                raise ValueError("bad Content-Length")
            return self.rfile.read(length) if length else b""

        def answer(self, status, content_type, body, headers=None, send=None):
            self.send_response(status)
            for key, value in headers or []:
                if key.lower() not in ("transfer-encoding", "connection", "content-length",
                                       "content-type", "server", "date"):
                    self.send_header(key, value)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body if send is None else body[:send])
            self.wfile.flush()

        def control(self, body):
            if self.command == "GET" and self.path == "/fault-proxy/log":
                with state.lock:
                    data = json.dumps(state.log).encode()
                return self.answer(200, "application/json", data)
            if self.command == "DELETE" and self.path == "/fault-proxy/rules":
                with state.lock:
                    state.rules.clear()
                return self.answer(204, "application/json", b"")
            if self.command == "POST" and self.path == "/fault-proxy/rules":
                try:
                    rules = json.loads(body)
                    state.add_rules(rules if isinstance(rules, list) else [rules])
                except ValueError as error:
                    return self.answer(400, "text/plain", str(error).encode())
                return self.answer(204, "application/json", b"")
            return self.answer(404, "text/plain", b"no such control path")

        def forward(self, body):
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "connection", "keep-alive")}
            upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
            try:
                upstream.request(self.command, self.path, body=body, headers=headers)
                response = upstream.getresponse()
                data = response.read()
                return (response.status, response.getheader("Content-Type", "text/xml"), data,
                        response.getheaders())
            finally:
                upstream.close()

        def handle_one(self):
            try:
                body = self.read_body()
            except ValueError:
                self.close_connection = True
                return
            if self.path.startswith("/fault-proxy/"):
                return self.control(body)
            operation = operation_of(self.headers, self.path, body)
            json_protocol = bool(self.headers.get("X-Amz-Target"))
            token = client_token_of(body) if operation in IDEMPOTENT_BY_TOKEN else ""
            if token:
                with state.lock:
                    replay = state.answers_by_token.get((operation, token))
                if replay is not None:
                    state.record(operation, "replayed", False)
                    return self.answer(*replay)
            rule = state.take_rule(operation)
            kind = rule["kind"] if rule else ""
            if kind in ("throttle", "server_error", "bad_gateway"):
                state.record(operation, kind, False)
                return self.answer(*error_answer(kind, json_protocol))
            if kind == "respond":
                state.record(operation, kind, False)
                content_type = "application/x-amz-json-1.1" if json_protocol else "text/xml"
                return self.answer(rule["status"], content_type, rule["body"].encode("utf-8"))
            if kind == "close":
                state.record(operation, kind, False)
                self.close_connection = True
                return
            # Logged before the wait: the client's retry may arrive, and be logged, meanwhile.
            state.record(operation, kind, True)
            if kind == "slow":
                time.sleep(rule["delay"])
            status, content_type, data, headers = self.forward(body)
            if token and status == 200:
                with state.lock:
                    state.answers_by_token[(operation, token)] = (status, content_type, data,
                                                                  headers)
            if kind == "lose_answer":
                self.close_connection = True
                return
            self.answer(status, content_type, data, headers,
                        send=len(data) // 2 if kind == "truncate" else None)
            if kind == "truncate":
                self.close_connection = True

        def dispatch(self):
            try:
                self.handle_one()
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up first (a "slow" answer past its timeout).
                self.close_connection = True

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = dispatch

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", required=True, help="moto's URL, http://127.0.0.1:PORT")
    args = parser.parse_args()
    target = urllib.parse.urlsplit(args.target)
    if target.scheme != "http" or not target.hostname or not target.port:
        sys.exit(f"--target must be http://HOST:PORT, got {args.target!r}")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             handler_for(target, State()))
    server.daemon_threads = True
    stop = lambda *_: threading.Thread(target=server.shutdown, daemon=True).start()  # noqa: E731
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"fault proxy listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
