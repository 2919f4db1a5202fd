"""A scripted OpenAI-compatible chat server on loopback, for tests and offline demos of the LLM layer.

``FakeChatServer`` listens on ``127.0.0.1`` at a free port and answers ``POST …/chat/completions`` from a script:
a list of ``Reply`` objects used in order, or a function from the request body to a ``Reply``. It is a real HTTP
server (``http.server`` in a thread), so clients are tested on the wire — timeouts, status codes, headers.
It stops itself after ``max_requests`` requests or ``lifetime`` seconds, and on leaving the ``with`` block::

    with FakeChatServer([Reply.text("```lean\\nexample : True := trivial\\n```")]) as server:
        config = ProviderConfig(base_url=server.base_url, model="m")
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_BODY_BYTES = 4 * 1024 * 1024
_POLL_SECONDS = 0.02


@dataclass(frozen=True)
class Reply:
    """What the server sends for one request: status, headers, body bytes, after waiting ``delay`` seconds."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    @classmethod
    def text(
        cls,
        content: str,
        *,
        model: str = "fake-model",
        prompt_tokens: int = 100,
        completion_tokens: int = 50,
        finish_reason: str = "stop",
    ) -> Reply:
        """A well-formed chat completion whose message is ``content``."""
        body = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        return cls(200, json.dumps(body).encode("utf-8"), {"Content-Type": "application/json"})

    @classmethod
    def error(cls, status: int, message: str = "error", headers: dict[str, str] | None = None) -> Reply:
        """An OpenAI-style error body ``{"error": {"message": …}}`` with ``status``."""
        body = json.dumps({"error": {"message": message}}).encode("utf-8")
        return cls(status, body, {"Content-Type": "application/json", **(headers or {})})

    @classmethod
    def raw(cls, body: bytes | str, status: int = 200) -> Reply:
        """Exactly ``body``, for malformed answers."""
        return cls(status, body.encode("utf-8") if isinstance(body, str) else body)

    @classmethod
    def slow(cls, delay: float, reply: Reply | None = None) -> Reply:
        """``reply`` (default: a short answer) sent only after ``delay`` seconds."""
        base = reply or cls.text("late")
        return cls(base.status, base.body, base.headers, delay)


Script = Iterable[Reply] | Callable[[dict[str, Any] | None], Reply]


@dataclass(frozen=True)
class ReceivedRequest:
    """A request as the server saw it: path, headers (lower-case names), parsed JSON body (None if not JSON)."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None


class FakeChatServer:
    """Context manager running the scripted server; ``requests`` lists what it received, in order."""

    def __init__(self, script: Script, *, max_requests: int = 50, lifetime: float = 30.0) -> None:
        self._next = script if callable(script) else _sequence(list(script))
        self.max_requests = max_requests
        self.lifetime = lifetime
        self.requests: list[ReceivedRequest] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "the server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeChatServer:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        server.timeout = _POLL_SECONDS
        self._server = server
        self._thread = threading.Thread(target=self._serve, name="fake-chat-server", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._server is not None:
            self._server.server_close()

    def _serve(self) -> None:
        assert self._server is not None
        deadline = time.monotonic() + self.lifetime
        while not self._stop.is_set() and time.monotonic() < deadline:
            with self._lock:
                if len(self.requests) >= self.max_requests:
                    break
            self._server.handle_request()
        self._stop.set()

    def _receive(self, path: str, headers: dict[str, str], raw: bytes) -> Reply:
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = None
        with self._lock:
            self.requests.append(ReceivedRequest(path, headers, body if isinstance(body, dict) else None))
            return self._next(body if isinstance(body, dict) else None)

    def wait(self, seconds: float) -> None:
        """Sleep that ends early when the server stops (so a slow reply never outlives the test)."""
        self._stop.wait(seconds)


def _sequence(replies: list[Reply]) -> Callable[[dict[str, Any] | None], Reply]:
    iterator = iter(replies)

    def next_reply(_body: dict[str, Any] | None) -> Reply:
        return next(iterator, Reply.error(400, "fake server: no scripted reply left"))

    return next_reply


def _handler_for(owner: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY_BYTES)
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(Reply.error(404, f"fake server: no route {self.path}"))
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = owner._receive(self.path, headers, raw)
            if reply.delay:
                owner.wait(reply.delay)
            self._send(reply)

        def _send(self, reply: Reply) -> None:
            try:
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a read-timeout test): nothing left to tell it

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
            return

    return Handler
