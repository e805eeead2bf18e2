"""A webhook receiver: checks each delivery's signature with the SDK, drops a delivery it has
taken already (by its `webhook-id`), and prints what it heard. Standard library and the SDK
only.

    python examples/webhook_receiver.py --secret whsec_... --port 8080

Then, with an app key of the service (`danger keys create NAME`), point a webhook at it:

    danger keys webhook add KEY_ID http://127.0.0.1:8080/hooks --events game.finished,turn.changed

(a loopback address: the service must run with DANGER_WEBHOOK_PRIVATE=1). Answer fast: the
service waits 5 s for an answer and tries again later on anything but a 2xx.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from danger_hall.webhooks import WebhookVerificationError, verify

MAX_BODY = 1 << 20


def handler(secrets: list[str], seen: set[str]) -> type[BaseHTTPRequestHandler]:
    class Deliveries(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            if length > MAX_BODY:
                self.send_error(413)
                return
            body = self.rfile.read(length)
            try:
                event = verify(secrets, dict(self.headers.items()), body)
            except WebhookVerificationError as exc:
                print(f"refused: {exc}", file=sys.stderr)
                self.send_error(400)
                return
            delivery = self.headers["webhook-id"]
            if delivery not in seen:  # at least once: the same delivery may come again
                seen.add(delivery)
                data = event["data"]
                print(f"{event['type']:15} {data['game']} seq {data['seq']}: {json.dumps(data)}")
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass  # one line per event is printed above

    return Deliveries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--secret", action="append", required=True, help="whsec_...; repeat during a rotation"
    )
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler(args.secret, set()))
    print(f"listening on http://127.0.0.1:{args.port}/hooks", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
