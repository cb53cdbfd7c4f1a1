"""Which peers may tell the hall who the client is: the trusted reverse proxies.

A proxy in front of the hall (Caddy, nginx: docs/deploy.md) connects from its own address
and names the client in ``X-Forwarded-For`` and the scheme in ``X-Forwarded-Proto``. The
hall believes those headers only from the addresses configured here (``laizi serve
--trusted-proxy ADDRESS`` (repeatable) or ``LAIZI_TRUSTED_PROXIES``, comma-separated; an
address or a network such as ``10.0.0.0/8``). **By default no peer is trusted**: a client
that writes ``X-Forwarded-For`` itself is counted, limited (laizi.server.ratelimit) and
banned (laizi.server.admin) by the address it connects from. (uvicorn's own default, which
the hall had until then, trusted 127.0.0.1, so that any program on the machine, or a
forwarding that ends there, could pick the address every limit and ban counts.)

uvicorn's ``FORWARDED_ALLOW_IPS``, which earlier set-ups use, is read when
``LAIZI_TRUSTED_PROXIES`` and the flag are not set, so such a set-up keeps working.
The rewrite itself is uvicorn's :class:`ProxyHeadersMiddleware` (the rightmost address
of ``X-Forwarded-For`` that is not itself a trusted proxy is the client), applied by the
app (:func:`laizi.server.app.create_app`), so ``laizi serve`` turns uvicorn's own off.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Mapping

__all__ = ["ENV", "LEGACY_ENV", "normalize_proxy", "trusted_from_env"]

ENV = "LAIZI_TRUSTED_PROXIES"
LEGACY_ENV = "FORWARDED_ALLOW_IPS"
"""uvicorn's variable, read when :data:`ENV` is unset."""


def normalize_proxy(value: str) -> str:
    """An address (``127.0.0.1``, ``::1``) or a network (``10.0.0.0/8``) as uvicorn
    compares it; ValueError for anything else (a typo must not trust nobody silently,
    nor everybody: ``*`` is refused)."""
    text = value.strip()
    try:
        if "/" in text:
            return str(ipaddress.ip_network(text, strict=False))
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise ValueError(f"a trusted proxy is an address or a network (10.0.0.0/8), "
                         f"not {value!r}") from None


def _split(raw: str) -> list[str]:
    return [v for v in (part.strip() for part in raw.split(",")) if v]


def trusted_from_env(given: Iterable[str] = (),
                     environ: Mapping[str, str] | None = None) -> list[str]:
    """The trusted proxies: ``LAIZI_TRUSTED_PROXIES`` and ``given`` (the flags), else
    ``FORWARDED_ALLOW_IPS``, else none; each checked (:func:`normalize_proxy`)."""
    env = os.environ if environ is None else environ
    values = [*_split(env.get(ENV, "")), *given]
    if not values:
        values = _split(env.get(LEGACY_ENV, ""))
    return [normalize_proxy(v) for v in values]
