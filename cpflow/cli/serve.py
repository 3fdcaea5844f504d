"""`cpflow serve`: the web page and its JSON API (cpflow.web), on an address and port; `cpflow site`: the
same page as a static site, answered by cpflow's Python in the browser.

Exit codes: 0 stopped with Ctrl-C; 2 bad usage, an address that cannot be listened on, or
without the web extra; 1 a server that fails to start otherwise. `site`: 0 written, 2 bad usage.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from cpflow.cli.group import app, failures
from cpflow.cli.lines import say


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8000,
    workers: Annotated[
        int | None, typer.Option(metavar="N", help="Worker processes that solve (default: one per core).", min=1)
    ] = None,
    queue: Annotated[
        int | None,
        typer.Option(metavar="N", help="Requests that may wait for a worker (default 32); more answer 503.", min=0),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME[:PORT]",
            help="Also answer requests for this host name (a proxy's, a name in DNS); repeatable. "
            "Others answer 421 (DNS rebinding).",
        ),
    ] = None,
) -> None:
    """Serve the web page (click a puzzle in, solve it, prove it unique, see it drawn) and its JSON API.

    The API's documentation is at /docs. Needs the web extra (pip install 'cpflow[web]').
    Exit 0 when stopped with Ctrl-C; 2 on bad usage, an address that cannot be listened on
    (a port in use, an unknown host) or without the web extra; 1 when the server fails
    to start otherwise.
    """
    from cpflow.web.hosts import read_host
    from cpflow.web.limits import Limits
    from cpflow.web.server import serve as serving

    for name in allowed_host or ():
        try:
            read_host(name)
        except ValueError as error:
            print(f"cpflow serve: --allowed-host: {error}", file=sys.stderr)
            raise typer.Exit(2) from None
    defaults = Limits()
    limits = Limits(workers=workers or defaults.workers, queue=defaults.queue if queue is None else queue)
    raise typer.Exit(serving(host, port, limits, allowed_host or ()))


@app.command()
def site(
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="The folder to write the site in: new, empty, or a site written before.")
    ],
    pyodide: Annotated[
        Path | None,
        typer.Option(
            metavar="RUNTIME",
            help="A Pyodide runtime to copy in (the npm package's folder: npm pack pyodide@314.0.7), "
            "so that the site works offline; default: Pyodide's CDN.",
        ),
    ] = None,
) -> None:
    """Write the web page as a static site that runs cpflow in the browser (Pyodide), with no server:
    serve DIR with any static host (python -m http.server, GitHub Pages).

    DIR is written fresh each time (beside, then swapped in): no file of an older site is left.
    Exit 0 when written (every file or none), 2 on bad usage: a RUNTIME that is no Pyodide
    runtime, a DIR that cannot be written, or one that holds files and no cpflow-site.txt.
    """
    from cpflow.web.site import build

    with failures():
        written = build(out, pyodide)
    say(f"{out}: {len(written)} files (serve it: python3 -m http.server -d {shlex.quote(str(out))})")
