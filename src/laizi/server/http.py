"""What every HTTP handler of the hall shares: where the client's files are, and reading
a request's JSON object (refused before it is parsed when too large, and refused with a
typed error when it is not one JSON object), and drawing a QR code."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.requests import Request

from laizi.errors import ErrorCode, LaiziError

__all__ = ["STATIC", "json_object", "qr_svg"]

STATIC = Path(__file__).parent / "static"
"""The browser client's files (index.html, js/, css/, tiles/, vendor/)."""


async def json_object(request: Request, *, limit: int) -> dict[str, object]:
    """The request's body as a JSON object (an empty body is ``{}``): ``too_large`` past
    ``limit`` bytes, ``malformed`` when it is not JSON or not an object."""
    raw = await request.body()
    if len(raw) > limit:
        raise LaiziError(f"a request body is at most {limit} bytes here",
                         code=ErrorCode.TOO_LARGE)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):  # not JSON, not UTF-8, 5000-digit ints, deep nesting
        raise LaiziError("the body is not JSON", code=ErrorCode.MALFORMED) from None
    if not isinstance(data, dict):
        raise LaiziError("the body is a JSON object", code=ErrorCode.MALFORMED)
    return data


def qr_svg(text: str) -> str:
    """An SVG QR code of ``text`` (segno; error correction M, a quiet zone of 4)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        out, kind="svg", scale=4, border=4, xmldecl=False, svgns=True, title=text,
        omitsize=True, dark="#111", light="#fff")
    return out.getvalue().decode("utf-8")
