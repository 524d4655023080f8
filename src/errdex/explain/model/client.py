"""A minimal client for OpenAI-compatible chat endpoints (vllm serve, Ollama, llama.cpp
server, hosted APIs): `POST {url}/chat/completions`, the key from `ERRDEX_LLM_API_KEY`."""

from __future__ import annotations

import os
import time
from typing import Any

import httpx

from errdex.errors import ModelError
from errdex.redact import redact_passwords

API_KEY_VAR = "ERRDEX_LLM_API_KEY"
_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_MAX_ANSWER = 200_000  # characters: a longer answer is not an explanation


class ChatClient:
    """Sends one conversation, returns the assistant's text. Safe to share between threads."""

    def __init__(
        self,
        url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        retries: int = 2,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = _endpoint(url)
        self.model = model
        self.retries = retries
        key = api_key if api_key is not None else os.environ.get(API_KEY_VAR)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._http = httpx.Client(timeout=timeout, headers=headers, transport=transport)

    def complete(self, messages: list[dict[str, str]]) -> str:
        """The assistant's reply to `messages`; `ModelError` when there is none."""
        payload: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": 0}
        for attempt in range(self.retries + 1):
            try:
                response = self._http.post(self.url, json=payload)
            except httpx.HTTPError as error:
                if attempt < self.retries:
                    time.sleep(0.5 * 2**attempt)
                    continue
                raise ModelError(
                    redact_passwords(f"cannot reach the model at {self.url}: {error}")
                ) from error
            if response.status_code in _RETRY_STATUS and attempt < self.retries:
                time.sleep(0.5 * 2**attempt)
                continue
            return _content(response, redact_passwords(self.url))
        raise ModelError(  # pragma: no cover
            f"the model at {redact_passwords(self.url)} gave no answer"
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _endpoint(url: str) -> str:
    """The chat completions URL under `url`; a `ModelError` (without the password a URL's
    userinfo may hold) when it is no http(s) URL with a host."""
    shown = redact_passwords(url)
    if not url.startswith(("http://", "https://")):
        raise ModelError(f"the model URL must start with http:// or https://, not {shown!r}")
    endpoint = url.rstrip("/") + "/chat/completions"
    try:
        host = httpx.URL(endpoint).host
    except httpx.InvalidURL as error:
        raise ModelError(f"the model URL {shown!r} cannot be read: {error}") from error
    if not host:
        raise ModelError(f"the model URL {shown!r} names no host")
    return endpoint


def _content(response: httpx.Response, url: str) -> str:
    if response.status_code != 200:
        detail = " ".join(response.text.split())[:200]
        raise ModelError(f"the model at {url} answered HTTP {response.status_code}: {detail}")
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ModelError(f"the model at {url} sent no chat completion ({error})") from error
    if not isinstance(content, str) or not content.strip():
        raise ModelError(f"the model at {url} sent an empty answer")
    return content[:_MAX_ANSWER]
