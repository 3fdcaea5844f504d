"""The web page and its JSON API (`cpflow serve`): FastAPI on uvicorn, imported only by `serve`.

- limits: the caps a server puts on what it is asked (board size, request size, time, queue)
- tasks: the work one request asks for, done in a worker process by calling the library
- jobs: the worker processes, the bounded queue (503 when full), time limits, cancelling
- app: the FastAPI app: routes, request models, errors as `{"error": "<one line>"}`
- server: `cpflow serve` itself: the app on uvicorn until Ctrl-C, and its exit code
- page/: index.html, page.css, page.js, served as they are (no build step, no CDN)
"""
