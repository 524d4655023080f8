"""A local stand-in for an OpenAI-compatible model server (vllm serve, Ollama, llama.cpp):
it listens on 127.0.0.1, takes `POST /v1/chat/completions` as they do, and answers with
whatever the test's `reply` function returns for the conversation."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[list[dict[str, str]]], str | tuple[int, str]]


class FakeModel:
    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.url = ""


@contextmanager
def serve_model(reply: Reply) -> Iterator[FakeModel]:
    model = FakeModel(reply)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            with lock:
                model.requests.append(body)
                model.headers.append(dict(self.headers))
            if self.path != "/v1/chat/completions":
                self._send(404, {"error": "not found"})
                return
            answer = model.reply(body["messages"])
            status, content = answer if isinstance(answer, tuple) else (200, answer)
            if status != 200:
                self._send(status, {"error": content})
                return
            self._send(
                200,
                {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                },
            )

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    model.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield model
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def answer(
    what: str = "The config refuses sparse attention on runner V1.",
    trigger: str = "Running with `ENGINE_USE_V2=0` and a sparse config.",
    solutions: list[dict[str, str | None]] | None = None,
    citations: list[str] | None = None,
) -> str:
    return json.dumps(
        {
            "what_it_means": what,
            "trigger": trigger,
            "situations": ["A shell profile that exports `ENGINE_USE_V2=0`."],
            "solutions": solutions
            or [{"text": "Unset `ENGINE_USE_V2` (engine/config.py:14).", "knob": "ENGINE_USE_V2"}],
            "example_fix": {"before": "ENGINE_USE_V2=0 run", "after": "run", "note": None},
            "citations": citations if citations is not None else ["engine/config.py:14"],
        }
    )
