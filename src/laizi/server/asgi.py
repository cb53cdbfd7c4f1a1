"""The ASGI words the hall's middleware and websockets compare with (the scope's and the
messages' ``type``), named once."""

from __future__ import annotations

__all__ = ["HTTP", "HTTP_REQUEST", "HTTP_RESPONSE_BODY", "HTTP_RESPONSE_START", "WEBSOCKET",
           "WS_ACCEPT", "WS_CLOSE", "WS_CONNECT", "WS_DISCONNECT", "WS_SEND"]

HTTP = "http"
"""A scope of an HTTP request."""
WEBSOCKET = "websocket"
"""A scope of a websocket."""
HTTP_REQUEST = "http.request"
HTTP_RESPONSE_START = "http.response.start"
HTTP_RESPONSE_BODY = "http.response.body"
WS_CONNECT = "websocket.connect"
WS_ACCEPT = "websocket.accept"
WS_SEND = "websocket.send"
WS_CLOSE = "websocket.close"
WS_DISCONNECT = "websocket.disconnect"
