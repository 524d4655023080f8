"""uvicorn's h11 protocol with Nagle's algorithm off on every connection, in every worker.

asyncio turns Nagle off only on sockets whose protocol number says TCP, and the listening
socket uvicorn binds itself for several workers says 0, as do the connections it accepts.
With Nagle on, a response written in two pieces (its head, then its body) waits for the
client's delayed ACK before the body goes out: 40 ms on Linux, whatever the page costs.
"""

from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.h11_impl import H11Protocol

# What `serve` gives uvicorn as its `http` protocol.
IMPORT_NAME = "errdex.web.protocol:H11NoDelay"


def nagle_off(transport: asyncio.BaseTransport) -> None:
    """Send small writes at once on this TCP connection (a unix socket has no Nagle)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class H11NoDelay(H11Protocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        nagle_off(transport)
        super().connection_made(transport)
