"""The web page and its JSON API (`cpflow serve`): FastAPI on uvicorn, imported only by `serve`.

- limits: the caps a server puts on what it is asked (board size, request size, time, queue,
  bodies held at once, connections, how long a client may take to send a request or to read its answer)
- tasks: the work one request asks for, done in a worker process by calling the library
- jobs: the worker processes, the bounded queue (503 when full), time limits, cancelling
- hosts: which `Host:` names the server answers (DNS rebinding)
- guards: ASGI middleware: the Host and cross-site checks and the security headers on every answer; a body's
  type, caps and deadline, read before the app sees it
- bodies: the budget of bytes bodies hold across requests, and memory given back after large ones
- deadlines: uvicorn's h11 protocol with deadlines on a request's headers and on an unread answer, and the
  cap on connections
- app: the FastAPI app: routes, request models, errors as `{"error": "<one line>"}`
- assets: the page's files and the config index.html carries (no web framework: the site writes them too)
- sketches: the page's board written as a puzzle file and laid out (no web framework)
- browser: the site's Python, run in the browser under Pyodide: the page's requests and `window.cpflow`'s
  calls answered with the same tasks
- site: `cpflow site`: the static site (the page, cpflow's pure-Python files, the loader, the runtime)
- server: `cpflow serve` itself: binds the address, runs the app on uvicorn until Ctrl-C, its exit code
- page/: index.html, page.css, page.js, and docs.html, docs.js (the API's documentation page),
  served as they are (no build step, no CDN, no inline script)
- site/: the static site's own files: the loader (`window.cpflow`), the worker that runs Pyodide, the
  service worker and the app manifest
"""
