"""Which `Host:` a server answers: its defence against DNS rebinding.

A page on another site can point a name it owns at 127.0.0.1, then drive a server there
from its visitor's browser as if it were its own; the browser still sends that name as
`Host:`. So a server answers only the names and addresses it is reached by, with its port
(or none, for port 80):

- bound to a loopback address (`127.0.0.1`, `::1`, `localhost`): `localhost`, any
  127.x.y.z address and `[::1]`;
- bound to one other address or name: that address or name (and the addresses it is bound to);
- bound to every interface (`0.0.0.0`, `::`): any IP address (a rebinding needs a name: an
  address in `Host:` is the very machine the browser reached), `localhost` and this
  machine's name (`socket.gethostname()`); any other name must be listed;
- always: the names given with `--allowed-host` (`NAME` on any port, `NAME:PORT` on that
  port only), for a proxy or a name in DNS.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
EVERYWHERE = (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))
NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*", re.IGNORECASE)


@dataclass(frozen=True)
class Hosts:
    """The Host headers one server answers: names (with a port, or None for any port) and addresses."""

    port: int
    names: frozenset[tuple[str, int | None]]  # e.g. ("localhost", 8000), ("flow.example.org", None)
    networks: tuple[Network, ...]  # the addresses answered on `port`, e.g. 127.0.0.0/8 and ::1

    @classmethod
    def bound(cls, host: str, port: int, addresses: Iterable[str] = (), allowed: Iterable[str] = ()) -> Hosts:
        """The Hosts of a server started with `--host host --port port` and listening on `addresses` (by
        default, host itself when it is an address), plus the `--allowed-host` values (ValueError on one
        that is no host name)."""
        host = host.strip("[]").lower().rstrip(".")
        given = [address.split("%")[0] for address in addresses] or [host]  # fe80::1%eth0: the zone goes
        heard = [address for address in map(_address, given + ["127.0.0.1"] * (host == "localhost")) if address]
        networks: list[Network] = []
        names: set[tuple[str, int | None]] = {(host, port)} if host and _address(host) is None else set()
        for address in heard:
            if address.is_unspecified:
                networks += EVERYWHERE
                names |= {("localhost", port), (socket.gethostname().lower(), port)}
            elif address.is_loopback:
                networks += LOOPBACK
                names.add(("localhost", port))
            else:
                networks.append(ipaddress.ip_network(address))
        names |= {read_host(name) for name in allowed}
        return cls(port, frozenset(names), tuple(dict.fromkeys(networks)))

    def allows(self, header: str) -> bool:
        """Whether a request whose `Host:` is `header` (e.g. "localhost:8000") is answered."""
        try:
            name, port = read_host(header)
        except ValueError:
            return False
        port = 80 if port is None else port
        address = _address(name)
        if address is not None:
            return port == self.port and any(address in network for network in self.networks)
        return (name, port) in self.names or (name, None) in self.names


def read_host(text: str) -> tuple[str, int | None]:
    """A host and its port, as `Host:` or `--allowed-host` gives them: "localhost:8000" -> ("localhost", 8000),
    "[::1]" -> ("::1", None), "Flow.Example." -> ("flow.example", None); ValueError when it is no host."""
    if text.startswith("["):
        name, bracket, rest = text[1:].partition("]")
        if not bracket or not isinstance(_address(name), ipaddress.IPv6Address) or rest[:1] not in ("", ":"):
            raise ValueError(f"{text!r} is not a host: an IPv6 address is written [::1] or [::1]:8000")
        port = rest[1:]
    else:
        name, colon, port = text.partition(":")
        name = name.rstrip(".")
        if not NAME.fullmatch(name) or (colon and not port):
            raise ValueError(f"{text!r} is not a host: a name or an address, then :PORT or nothing")
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        raise ValueError(f"{text!r} is not a host: its port must be a number from 1 to 65535")
    return name.lower(), int(port) if port else None


def _address(name: str) -> Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None
