"""`cpflow serve`: the app on uvicorn, until Ctrl-C; returns the command's exit code."""

from __future__ import annotations

import importlib.util
import sys

from cpflow.web.limits import Limits

NEEDED = ("fastapi", "uvicorn", "fastapi_offline")


def serve(host: str, port: int, workers: int | None = None, queue: int | None = None) -> int:
    """Serve the page and the API at host:port; 0 when stopped, 1 when the address cannot be
    listened on, 2 when the web extra is not installed."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        print(f"cpflow: serve needs {', '.join(missing)}: pip install 'cpflow[web]'", file=sys.stderr)
        return 2
    import uvicorn

    from cpflow.web.app import create_app

    defaults = Limits()
    limits = Limits(workers=workers or defaults.workers, queue=defaults.queue if queue is None else queue)
    shown = f"[{host}]" if ":" in host else host
    print(f"cpflow: the page is at http://{shown}:{port}/ and the API's documentation at /docs", file=sys.stderr)
    server = uvicorn.Server(uvicorn.Config(create_app(limits), host=host, port=port, timeout_graceful_shutdown=5))
    try:
        server.run()
    except SystemExit as stop:  # uvicorn exits 1 when it cannot listen, after saying why
        return int(stop.code or 0) and 1
    return 0 if server.started else 1
