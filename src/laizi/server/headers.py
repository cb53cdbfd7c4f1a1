"""Browser safety: who may call the hall from a page, in what form, and the headers every
answer carries (docs/hall.md, "Browser safety").

* **Origin.** A websocket handshake whose ``Origin`` header is present and not allowed is
  accepted only to be told ``{"op": "error", "error": {"code": "forbidden_origin", …}}``
  and closed with 4403, before the app sees it. A ``POST`` / ``PUT`` / ``PATCH`` /
  ``DELETE`` whose ``Origin`` (or, without one, ``Referer``) is present and foreign gets
  ``403 {"error": {"code": "forbidden_origin", …}}`` unread. Allowed: the request's own
  origin (``Host`` as the browser sent it, so a reverse proxy's name works; a request that
  reached the hall over TLS — ``https``, or ``X-Forwarded-Proto: https`` from a trusted
  proxy — wants an ``https`` origin, a plain one either scheme, as a TLS proxy that does not
  say so is in front) and the configured list (``laizi serve --allow-origin URL``,
  ``LAIZI_ALLOW_ORIGINS``). A request with no ``Origin`` and no ``Referer`` (``laizi
  connect``, scripts) is allowed: browsers send ``Origin`` on every websocket handshake
  and every cross-site ``POST``.
* **JSON only.** A ``POST`` / ``PUT`` / ``PATCH`` must say ``Content-Type:
  application/json``; anything else (``text/plain``, a form) gets ``415 {"error":
  {"code": "not_json", …}}`` unread: a page of another site cannot send that header
  without asking first (a CORS preflight, which the hall never grants).
* **Headers** on every HTTP answer (pages, files, API): :func:`csp` (scripts and styles
  from the hall only, the import map of ``index.html`` as served by its hash), ``X-Content-Type-
  Options: nosniff``, ``Referrer-Policy: no-referrer`` (a room link's seat token never
  leaves in a ``Referer``), ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from laizi.errors import ErrorCode
from laizi.server.asgi import (
    HTTP,
    HTTP_RESPONSE_START,
    WEBSOCKET,
    WS_ACCEPT,
    WS_CLOSE,
    WS_CONNECT,
    WS_SEND,
)
from laizi.server.assets import index_html
from laizi.server.http import STATIC
from laizi.vocab import ServerOp

__all__ = ["ENV", "HELLO", "TOKEN_HEADER", "BrowserSafety", "allowed_from_env", "csp",
           "inline_script_hashes", "normalize_origin"]

ENV = "LAIZI_ALLOW_ORIGINS"
"""Comma-separated origins allowed besides the hall's own (``laizi serve --allow-origin``)."""
INDEX = STATIC / "index.html"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
_DEFAULT_PORT = {"http": 80, "https": 443}
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)

Origin = tuple[str, str, int]
"""scheme, host (lower case), port."""

TOKEN_HEADER = "x-laizi-token"
"""The header a page sends its seat token in (never the URL, which access logs keep)."""
HELLO = "hello"
"""The first websocket message of a client that did not put its token in the URL:
``{"op": "hello", "token": T}`` (docs/protocol.md)."""

JSON_MEDIA_TYPE = "application/json"
"""The only body a request that changes something may have."""


def _origin(url: str) -> Origin | None:
    """The origin of ``url`` (an ``Origin`` or a ``Referer``), None if it has none."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORT or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORT[scheme]


def normalize_origin(url: str) -> str:
    """``scheme://host[:port]`` of an allowed origin as given by an operator; ValueError
    if it is not an http(s) origin (a path, a query or credentials included)."""
    o = _origin(url)
    parts = urlsplit(url.strip())
    if o is None or parts.path not in ("", "/") or parts.query or parts.fragment \
            or parts.username is not None:
        raise ValueError(f"not an origin (scheme://host[:port]): {url!r}")
    scheme, host, port = o
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" + ("" if port == _DEFAULT_PORT[scheme] else f":{port}")


def allowed_from_env(value: str | None = None) -> list[str]:
    """The origins of ``LAIZI_ALLOW_ORIGINS`` (or ``value``), normalized."""
    raw = os.environ.get(ENV, "") if value is None else value
    return [normalize_origin(v) for v in raw.split(",") if v.strip()]


def inline_script_hashes(page: Path | None = None) -> list[str]:
    """``'sha256-…'`` of each inline ``<script>`` of ``page`` (default: index.html as
    served, its import map versioned, :func:`laizi.server.assets.index_html`): the only
    inline script the CSP allows."""
    if page is None:
        text = index_html()
    else:
        try:
            text = page.read_text(encoding="utf-8")
        except OSError:
            return []
    out = []
    for body in _SCRIPT.findall(text):
        digest = hashlib.sha256(body.encode("utf-8")).digest()
        out.append(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return out


def csp(host: str | None, script_hashes: Iterable[str] = ()) -> str:
    """The Content-Security-Policy of an answer to a request for ``host`` (its ``Host``).

    ``style-src 'self'`` needs no ``'unsafe-inline'``: the client's only inline styles are
    Preact's ``style`` props, which Preact sets through the CSSOM (``el.style.cssText``),
    which CSP does not govern; no markup with a ``style`` attribute is ever parsed.
    ``connect-src`` names ``ws:`` / ``wss:`` of the host besides ``'self'`` (CSP 3's
    ``'self'`` covers them in current browsers, older ones want them spelled out)."""
    connect = "'self'"
    if host and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    scripts = " ".join(["'self'", *script_hashes])
    return (f"default-src 'self'; script-src {scripts}; style-src 'self'; "
            f"img-src 'self' data:; connect-src {connect}; font-src 'self'; "
            "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'")


def _error(status: int, code: ErrorCode, message: str) -> tuple[Message, Message]:
    body = json.dumps({"error": {"code": code.value, "message": message, "seat": None,
                                 "phase": None}}).encode()
    start: Message = {"type": "http.response.start", "status": status,
                      "headers": [(b"content-type", b"application/json"),
                                  (b"content-length", str(len(body)).encode()),
                                  (b"connection", b"close")]}
    return start, {"type": "http.response.body", "body": body}


class BrowserSafety:
    """ASGI middleware: the origin rule, JSON-only bodies and the security headers."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {o for o in (_origin(normalize_origin(a)) for a in allowed_origins)
                        if o is not None}
        self.script_hashes = inline_script_hashes()

    def allows(self, scope: Scope, origin_header: str) -> bool:
        """Whether a request of ``scope`` may come from a page at ``origin_header``."""
        origin = _origin(origin_header)
        if origin is None:
            return False  # "null" (a sandboxed or file page), or not http(s)
        if origin in self.allowed:
            return True
        host = _header(scope, b"host")
        if not host or not _HOST.fullmatch(host):
            return False
        try:
            parts = urlsplit(f"//{host}")
            port = parts.port or _DEFAULT_PORT[origin[0]]
        except ValueError:
            return False
        if (parts.hostname or "").lower() != origin[1] or port != origin[2]:
            return False
        secure = scope.get("scheme") in ("https", "wss")
        return origin[0] == "https" or not secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == WEBSOCKET:
            origin = _header(scope, b"origin")
            if origin is not None and not self.allows(scope, origin):
                await _refuse_websocket(receive, send)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != HTTP:
            await self.app(scope, receive, send)
            return
        extra = [(b"content-security-policy",
                  csp(_header(scope, b"host"), self.script_hashes).encode()),
                 (b"x-content-type-options", b"nosniff"),
                 (b"referrer-policy", b"no-referrer"),
                 (b"x-frame-options", b"DENY")]

        async def with_headers(message: Message) -> None:
            if message["type"] == HTTP_RESPONSE_START:
                have = {name.lower() for name, _ in message.get("headers", [])}
                message = {**message, "headers": [
                    *message.get("headers", []),
                    *((n, v) for n, v in extra if n not in have)]}
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            for message in refusal:
                await with_headers(message)
            return
        await self.app(scope, receive, with_headers)

    def refusal(self, scope: Scope) -> tuple[Message, Message] | None:
        """The answer refusing an HTTP request (403 foreign origin, 415 not JSON), or
        None: the request may go on."""
        method = str(scope.get("method", "GET")).upper()
        if method not in UNSAFE:
            return None
        origin = _header(scope, b"origin")
        if origin is None:
            origin = _header(scope, b"referer")
        if origin is not None and not self.allows(scope, origin):
            return _error(403, ErrorCode.FORBIDDEN_ORIGIN,
                          "a page of another site may not change anything here "
                          f"(origin {origin[:100]!r}); the hall's operator may allow it: "
                          "laizi serve --allow-origin URL")
        if method in WITH_BODY:
            media = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if media != JSON_MEDIA_TYPE:
                return _error(415, ErrorCode.NOT_JSON,
                              "a request that changes something is JSON "
                              "(Content-Type: application/json)")
        return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse_websocket(receive: Receive, send: Send) -> None:
    """Accept, say why in an error frame, close with 4403 (the client stops retrying)."""
    message = await receive()
    if message["type"] != WS_CONNECT:
        return
    await send({"type": WS_ACCEPT})
    frame = {"op": ServerOp.ERROR, "seq": None, "error": {
        "code": ErrorCode.FORBIDDEN_ORIGIN.value,
        "message": "a page of another site may not play here; the hall's operator may "
                   "allow it: laizi serve --allow-origin URL",
        "seat": None, "phase": None}}
    await send({"type": WS_SEND, "text": json.dumps(frame)})
    await send({"type": WS_CLOSE, "code": 4403})
