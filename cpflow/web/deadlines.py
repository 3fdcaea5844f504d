"""uvicorn's HTTP/1.1 protocol (h11) with deadlines and a cap on connections, so that a client
that stalls is dropped and many cannot take the server's room.

uvicorn times out only a kept-alive connection waiting for its next request: a client
sending its request line and headers one byte a second, or connecting and sending nothing,
holds its connection for ever, and so does one that stops reading an answer. Here:

- a request's line and headers must arrive within `header_timeout` of the connection's
  opening (or, on a kept-alive connection, of the next request's first byte); past it a
  client that sent part of one gets 408, and the connection is closed;
- an answer the client has stopped reading for `stall_timeout` (the socket's buffer full
  all that time) is cut off, and the connection dropped;
- at most `Connections.most` connections are open at once: a new one past the cap closes the
  oldest idle one (waiting for a request or the rest of its headers, or not reading its
  answer), and when every one is busy with a request it is answered 503 and closed. uvicorn's
  own cap (`limit_concurrency`) would instead answer 503 to everyone while stalled clients
  held it.

A body's deadline is the app's (`guards.BodyGuard`), which answers 408 in JSON.
"""

from __future__ import annotations

import asyncio
from typing import cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from cpflow.web.guards import raw_answer

LINGER = 2.0  # seconds a closed connection is still read from, so that its client gets the answer


class Connections:
    """The open connections of one server, oldest first, and their cap."""

    def __init__(self, most: int):
        self.most = most
        self.open: dict[DeadlineProtocol, None] = {}  # a dict keeps the order they opened in

    def admit(self, connection: DeadlineProtocol) -> bool:
        """Count a new connection in, closing the oldest idle one at the cap; False when none is idle."""
        if len(self.open) >= self.most:
            oldest = next((other for other in self.open if other.idle()), None)
            if oldest is None:
                return False
            self.forget(oldest)
            oldest.drop()
        self.open[connection] = None
        return True

    def forget(self, connection: DeadlineProtocol) -> None:
        self.open.pop(connection, None)


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request's headers and on a stalled answer, and a
    place under the server's cap on connections (`cap`)."""

    def __init__(self, *args, header_timeout: float, stall_timeout: float, cap: Connections, **kwargs):
        super().__init__(*args, **kwargs)
        self.header_timeout, self.stall_timeout, self.cap = header_timeout, stall_timeout, cap
        self.header_deadline: asyncio.TimerHandle | None = None
        self.stall_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(cast(asyncio.Transport, Lingering(transport, self.loop)))
        if not self.cap.admit(self):
            full = "cpflow: the server has as many connections open as it takes; try again shortly"
            self.transport.write(raw_answer(503, "Service Unavailable", full))
            self.transport.close()
            return
        self.header_deadline = self.loop.call_later(self.header_timeout, self.headers_late)

    def idle(self) -> bool:
        """Whether closing the connection drops no request being answered: it waits for a request (or the
        rest of its headers), its client has stopped reading the answer, or it is closing already."""
        waiting = self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)
        return waiting or self.stall_deadline is not None or self.transport.is_closing()

    def drop(self) -> None:
        """Close the connection to make room: what is written goes first, unless nobody reads it."""
        if self.stall_deadline is not None or self.transport.is_closing():
            self.transport.abort()
        else:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():  # the answer is sent: what still comes is dropped
            return
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
        self.cap.forget(self)
        _cancel(self.header_deadline)
        self.header_deadline = None
        _cancel(self.stall_deadline)
        self.stall_deadline = None
        super().connection_lost(exc)


class Lingering:
    """A connection's transport whose `close()` lingers: the answer written goes out, then what the client
    still sends (the rest of a body refused unread) is read and dropped for LINGER seconds at most, or until
    it closes, so that it reads the answer rather than a reset."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self.transport, self.loop, self.closing = transport, loop, False

    def __getattr__(self, name: str):
        return getattr(self.transport, name)

    def close(self) -> None:
        if self.closing or self.transport.is_closing():
            return
        self.closing = True
        if not self.transport.can_write_eof():
            return self.transport.close()
        self.transport.write_eof()  # sent once what is written has gone
        self.transport.resume_reading()
        self.loop.call_later(LINGER, self.transport.close)

    def is_closing(self) -> bool:
        return self.closing or self.transport.is_closing()


def _cancel(timer: asyncio.TimerHandle | None) -> None:
    if timer is not None:
        timer.cancel()
