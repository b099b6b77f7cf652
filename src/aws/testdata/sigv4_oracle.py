#!/usr/bin/env python3
"""Test glue: signs requests with botocore's SigV4Auth, the oracle for src/aws/sigv4.cc.

Reads one JSON object per line on stdin (method, url, headers as [name, value] pairs, body_hex,
access_key, secret_key, token, region, service, timestamp as YYYYMMDDTHHMMSSZ) and prints one JSON
object per line: the Authorization header, canonical request and string to sign botocore computes.
Exit status 3 when botocore cannot be imported, so the C++ test can skip.
"""
import datetime
import json
import sys

try:
    import botocore.auth
    from botocore.awsrequest import AWSRequest
    from botocore.compat import HTTPHeaders
    from botocore.credentials import Credentials
except ImportError:
    sys.exit(3)


def sign(case):
    when = datetime.datetime.strptime(case["timestamp"], "%Y%m%dT%H%M%SZ")
    # add_auth reads the time through this module-level hook; pin it to the case's timestamp.
    botocore.auth.get_current_datetime = lambda: when
    request = AWSRequest(method=case["method"], url=case["url"],
                         data=bytes.fromhex(case["body_hex"]))
    request.headers = HTTPHeaders()
    for name, value in case["headers"]:
        request.headers[name] = value  # appends, so repeated names stay repeated
    credentials = Credentials(case["access_key"], case["secret_key"], case["token"] or None)
    signer = botocore.auth.SigV4Auth(credentials, case["service"], case["region"])
    signer.add_auth(request)
    canonical = signer.canonical_request(request)
    return {
        "authorization": request.headers["Authorization"],
        "canonical_request": canonical,
        "string_to_sign": signer.string_to_sign(request, canonical),
    }


def main():
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(sign(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
