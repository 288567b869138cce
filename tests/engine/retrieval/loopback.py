"""A stand-in for an OpenAI-compatible embeddings server, on 127.0.0.1 only.

Vectors are hashed bags of words (64 dimensions), so texts sharing words are close.
``fail_next`` answers the next requests with a status instead; ``delay`` sleeps first.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIM = 64


def vector(text: str) -> list[float]:
    out = [0.0] * DIM
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        out[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
    return out


class EmbeddingServer:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.paths: list[str] = []
        self.headers: list[dict] = []
        self.fail_next: list[int] = []
        self.delay = 0.0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.paths.append(self.path)
                server.headers.append(dict(self.headers))
                server.requests.append(body)
                if server.delay:
                    time.sleep(server.delay)
                if server.fail_next:
                    status = server.fail_next.pop(0)
                    self._send(status, {"error": {"message": f"failing with {status}"}})
                    return
                data = [{"object": "embedding", "index": i, "embedding": vector(t)}
                        for i, t in reversed(list(enumerate(body["input"])))]  # out of order on purpose
                self._send(200, {"object": "list", "data": data, "model": body["model"]})

            def _send(self, status: int, payload: dict) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def __enter__(self) -> EmbeddingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()

    @property
    def inputs(self) -> list[str]:
        return [text for request in self.requests for text in request["input"]]
