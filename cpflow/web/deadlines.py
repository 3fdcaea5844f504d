"""uvicorn's HTTP/1.1 protocol (h11) with deadlines, so that a client that stalls is dropped.

uvicorn times out only a kept-alive connection waiting for its next request: a client
sending its request line and headers one byte a second, or connecting and sending nothing,
holds its connection for ever, and so does one that stops reading an answer. Here:

- a request's line and headers must arrive within `header_timeout` of the connection's
  opening (or, on a kept-alive connection, of the next request's first byte); past it a
  client that sent part of one gets 408, and the connection is closed;
- an answer the client has stopped reading for `stall_timeout` (the socket's buffer full
  all that time) is cut off, and the connection dropped.

A body's deadline is the app's (`guards.BodyGuard`), which answers 408 in JSON.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from cpflow.web.guards import raw_answer


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request's headers and on a stalled answer."""

    def __init__(self, *args, header_timeout: float, stall_timeout: float, **kwargs):
        super().__init__(*args, **kwargs)
        self.header_timeout, self.stall_timeout = header_timeout, stall_timeout
        self.header_deadline: asyncio.TimerHandle | None = None
        self.stall_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.header_deadline = self.loop.call_later(self.header_timeout, self.headers_late)

    def data_received(self, data: bytes) -> None:
        if self.header_deadline is None and self.conn.their_state is h11.IDLE:  # a kept-alive connection's next
            self.header_deadline = self.loop.call_later(self.header_timeout, self.headers_late)
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in (or the request was refused)
            _cancel(self.header_deadline)
            self.header_deadline = None

    def headers_late(self) -> None:
        self.header_deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.trailing_data[0]:  # part of a request came: say why it goes unanswered
            late = f"cpflow: the request's headers did not arrive within {self.header_timeout:g} seconds"
            self.transport.write(raw_answer(408, "Request Timeout", late))
        self.transport.close()

    def pause_writing(self) -> None:
        super().pause_writing()
        _cancel(self.stall_deadline)
        self.stall_deadline = self.loop.call_later(self.stall_timeout, self.transport.abort)

    def resume_writing(self) -> None:
        _cancel(self.stall_deadline)
        self.stall_deadline = None
        super().resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        _cancel(self.header_deadline)
        self.header_deadline = None
        _cancel(self.stall_deadline)
        self.stall_deadline = None
        super().connection_lost(exc)


def _cancel(timer: asyncio.TimerHandle | None) -> None:
    if timer is not None:
        timer.cancel()
