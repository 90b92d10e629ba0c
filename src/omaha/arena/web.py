"""The web client's door: the page and its assets over plain HTTP on the arena's own port,
and the ``Origin`` check of every WebSocket handshake.

``omaha serve`` answers a browser's ``GET /`` (and the files the page loads) from the
package's ``static/`` folder, and ``/schema.json`` (the protocol's JSON Schema, whence the
page learns the message types), read once when the server starts; a WebSocket handshake goes on
to the arena as before. Every page response carries a Content-Security-Policy that lets the
page load only the server's own files and open WebSockets only to the host it came from,
so nothing is fetched from anywhere else (no CDN).

A browser always sends ``Origin`` with a WebSocket handshake: it is accepted when it names
the host the request was sent to (the page served here) or one of ``allowed_origins`` (a
page served elsewhere, e.g. behind a proxy); any other origin gets HTTP 403 and no
connection, so another site's page cannot play for its visitors. A handshake without
``Origin`` (bots, scripts) is accepted as always.

>>> gate = WebGate(allowed_origins=["https://poker.example"])
>>> gate.origin_allowed(None, "127.0.0.1:8765")          # a bot: no Origin header
True
>>> gate.origin_allowed("http://127.0.0.1:8765", "127.0.0.1:8765")
True
>>> gate.origin_allowed("https://poker.example", "10.0.0.5:8765")
True
>>> gate.origin_allowed("https://evil.example", "127.0.0.1:8765")
False
>>> gate.file("/").content_type, gate.file("/index.html?table=2") is gate.file("/")
('text/html; charset=utf-8', True)
>>> gate.file("/../server.py") is None
True
"""

from __future__ import annotations

import http
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from omaha.errors import OmahaError
from omaha.limits import safe_repr

__all__ = ["CONTENT_TYPES", "StaticFile", "WebGate", "check_origin", "csp_for"]

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
                 ".json": "application/json"}
"""The files the page may load, by suffix (anything else in ``static/`` is not served)."""

_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


@dataclass(frozen=True, slots=True)
class StaticFile:
    """One asset, read at start-up: its bytes and ``Content-Type``."""

    body: bytes
    content_type: str


def csp_for(host: str) -> str:
    """The Content-Security-Policy of every page response for a request sent to ``host``:
    scripts, styles and images (the icon) from this server only, WebSockets to this host
    only, no frames, no plugins, no inline script.

    >>> csp_for("127.0.0.1:8765").split("; ")[:2]
    ["default-src 'none'", "script-src 'self'"]
    """
    connect = f"'self' ws://{host} wss://{host}" if _HOST.match(host) else "'self'"
    return (f"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src {connect}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


def check_origin(text: str) -> str:
    """``text`` as an origin a page may be served from (``http[s]://host[:port]``, no path;
    lower case, as browsers send it), or :class:`~omaha.errors.OmahaError` naming what is
    wrong.

    >>> check_origin("https://Poker.example/")
    'https://poker.example'
    """
    bad = OmahaError(f"allowed origin must be http://HOST[:PORT] or https://HOST[:PORT], "
                     f"got {safe_repr(text)}")
    if not isinstance(text, str) or not text.isprintable() or any(c.isspace() for c in text):
        raise bad
    try:
        parts = urlsplit(text)
        parts.port   # noqa: B018 - raises on a bad port
    except ValueError:
        raise bad from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/") \
            or parts.query or parts.fragment or parts.username is not None:
        raise bad
    return f"{parts.scheme}://{parts.netloc}".lower()


def _load_static() -> dict[str, StaticFile]:
    """Every servable file of the package's ``static/`` folder by its URL path."""
    folder = resources.files("omaha.arena").joinpath("static")
    files: dict[str, StaticFile] = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in CONTENT_TYPES:
            files["/" + entry.name] = StaticFile(entry.read_bytes(), CONTENT_TYPES[suffix])
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    schema = resources.files("omaha.arena").joinpath("schema.json").read_bytes()
    files["/schema.json"] = StaticFile(schema, CONTENT_TYPES[".json"])   # the message types
    return files


class WebGate:
    """The ``process_request`` hook of the arena's WebSocket server.

    ``pages`` False (``omaha serve --no-web``) serves no page (HTTP requests get 404) but
    still checks ``Origin``; ``allowed_origins`` are origins (``scheme://host[:port]``)
    accepted besides the served host's own.
    """

    def __init__(self, *, pages: bool = True, allowed_origins: Iterable[str] = ()) -> None:
        self.pages = pages
        self.allowed_origins = frozenset(check_origin(o) for o in allowed_origins)
        self.files = _load_static() if pages else {}

    def file(self, target: str) -> StaticFile | None:
        """The asset a request target names (its query string ignored), or None."""
        return self.files.get(target.split("?", 1)[0].split("#", 1)[0])

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Whether a handshake with this ``Origin`` (None: absent) sent to ``host`` (the
        ``Host`` header) may open a WebSocket."""
        if origin is None:
            return True
        if origin.rstrip("/").lower() in self.allowed_origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and host is not None \
            and parts.netloc.lower() == host.lower() and not parts.path.strip("/")

    def process_request(self, connection: Any, request: Any) -> Any:
        """Answer a page request, refuse a foreign ``Origin`` (403), or return None to let a
        WebSocket handshake go on."""
        headers = request.headers
        host = headers.get("Host")
        if headers.get("Upgrade", "").lower() == "websocket":
            if self.origin_allowed(headers.get("Origin"), host):
                return None
            return connection.respond(http.HTTPStatus.FORBIDDEN,
                                      "this origin may not open a WebSocket here\n")
        found = self.file(request.path) if self.pages else None
        if found is None:
            return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")
        response = connection.respond(http.HTTPStatus.OK, "")
        response.body = found.body
        for name, value in (("Content-Type", found.content_type),
                            ("Content-Length", str(len(found.body))),
                            ("Content-Security-Policy", csp_for(host or "")),
                            ("X-Content-Type-Options", "nosniff"),
                            ("Referrer-Policy", "no-referrer"),
                            ("Cache-Control", "no-cache")):
            if name in response.headers:
                del response.headers[name]
            response.headers[name] = value
        return response
