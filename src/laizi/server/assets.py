"""The client's files as an installable app: versioned URLs, the service worker, the
manifest (docs/hall.md, "A phone that behaves like an app").

==========================================  ==============================================
``GET /static/v/{version}/{path}``          a file of ``static/`` under this version:
                                            ``Cache-Control: immutable`` for a year; an
                                            older version's URL redirects (307) to this one
``GET /static/{path}``                      the same file, unversioned (``no-cache``: the
                                            browser asks again each time, 304 if unchanged)
``GET /sw.js``                              the service worker (root scope, ``no-cache``)
``GET /manifest.webmanifest``               307 to the versioned ``static/manifest.webmanifest``
==========================================  ==============================================

**The asset version** (:func:`version`) is the package's version and a digest of every
file under ``static/``: it changes whenever a file of the client does, so a versioned URL
is never answered with two different bodies and the browser may keep it for ever.

**Versioned URLs without a build step.** ``index.html`` is served with every ``/static/``
in it (its stylesheet, its module script, its import map, its icons) turned into
``/static/v/{version}/``. The modules import one another by relative URLs
(``./i18n.js``) and the vendored libraries by the import map's names (``preact``), so the
whole module graph loads under the versioned prefix with no module naming a version. The
import map's CSP hash is taken from the page as served (:func:`index_html`). URLs the
modules build at run time (``/static/tiles/…``) stay unversioned: they are revalidated.

**The service worker** (``static/sw.js``) is served with its settings in front of it: the
cache name (``laizi-{version}``) and the app shell it precaches (the page, every module,
stylesheet, vendored file, tile and icon, listed from the directory, never by hand).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

import laizi
from laizi.server.http import STATIC

__all__ = ["IMMUTABLE", "index_html", "prefix", "routes", "shell", "version",
           "worker_script"]

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PLAIN = "/static/"
SHELL_SUFFIXES = (".js", ".css", ".svg", ".png", ".webmanifest")
NOT_SHELL = ("sw.js", "admin.html", "js/admin.js", "css/admin.css")
"""Files the installed app never needs offline (the worker itself, the admin page's)."""


def _files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


@functools.cache
def version() -> str:
    """``{package version}-{digest of static/}``: the version in every versioned URL."""
    digest = hashlib.sha256()
    for path in _files():
        digest.update(path.relative_to(STATIC).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return f"{laizi.__version__}-{digest.hexdigest()[:10]}"


def prefix() -> str:
    """Where this version's files are: ``/static/v/{version}/``."""
    return f"/static/v/{version()}/"


@functools.cache
def index_html() -> str:
    """``index.html`` as served: every ``/static/`` URL in it versioned."""
    page = STATIC / "index.html"
    if not page.exists():
        return ""
    return page.read_text(encoding="utf-8").replace(f'"{PLAIN}', f'"{prefix()}')


def shell() -> list[str]:
    """The URLs the service worker precaches: the page (``/``), every file the client
    loads (versioned), and the tiles (the modules name them unversioned)."""
    urls = ["/"]
    for path in _files():
        rel = path.relative_to(STATIC).as_posix()
        if not rel.endswith(SHELL_SUFFIXES) or rel in NOT_SHELL:
            continue
        urls.append(f"{PLAIN}{rel}" if rel.startswith("tiles/") else f"{prefix()}{rel}")
    return urls


@functools.cache
def worker_script() -> str:
    """``static/sw.js`` with its settings (``LAIZI``) in front."""
    settings = {"version": version(), "cache": f"laizi-{version()}", "shell": shell()}
    body = (STATIC / "sw.js").read_text(encoding="utf-8")
    return f"const LAIZI = {json.dumps(settings)};\n{body}"


async def index(request: Request) -> Response:
    """The client's one page (``/``, ``/r/CODE``, ``/replay/CODE``, ``/score``)."""
    page = index_html()
    if not page:
        return PlainTextResponse("laizi hall: see docs/hall.md")
    return Response(page, media_type="text/html; charset=utf-8",
                    headers={"Cache-Control": REVALIDATE})


async def worker(request: Request) -> Response:
    return Response(worker_script(), media_type="text/javascript; charset=utf-8",
                    headers={"Cache-Control": REVALIDATE, "Service-Worker-Allowed": "/"})


async def manifest(request: Request) -> Response:
    return RedirectResponse(f"{prefix()}manifest.webmanifest", status_code=307,
                            headers={"Cache-Control": REVALIDATE})


async def versioned(request: Request) -> Response:
    """A file under ``/static/v/{version}/``: this version's for a year; an older
    version's URL (a page loaded before an upgrade) redirects to this version's."""
    rel = request.path_params["path"]
    if request.path_params["version"] != version():
        return RedirectResponse(f"{prefix()}{rel}", status_code=307,
                                headers={"Cache-Control": "no-store"})
    path = (STATIC / rel).resolve()
    if STATIC.resolve() not in path.parents or not path.is_file():
        return PlainTextResponse("Not Found", status_code=404)
    return FileResponse(path, headers={"Cache-Control": IMMUTABLE})


class Revalidated(StaticFiles):
    """The unversioned ``/static/``: answered as before, but ``no-cache`` (asked again
    each time, 304 while unchanged) rather than kept by the browser's own guess."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.setdefault("Cache-Control", REVALIDATE)
        return response


def routes() -> list[BaseRoute]:
    """The page's routes, the worker, the manifest and the static files."""
    found: list[BaseRoute] = [
        Route("/", index), Route("/r/{code}", index), Route("/score", index),
        Route("/replay/{code}", index)]
    if STATIC.exists():
        found += [Route("/sw.js", worker), Route("/manifest.webmanifest", manifest),
                  Route("/static/v/{version}/{path:path}", versioned),
                  Mount("/static", Revalidated(directory=STATIC), name="static")]
    return found
