"""Issue 27: ``omaha serve`` serves the web client on its own port (the page, its assets and
the schema, each with a Content-Security-Policy), checks the ``Origin`` of WebSocket
handshakes (none: accepted, as bots send none), answers ``history`` over the wire, and
``--no-web`` turns the pages off. No browser here: see test_web_client.py."""

import asyncio
import json
import pathlib
import urllib.error
import urllib.request

import pytest

websockets = pytest.importorskip("websockets")

import omaha.arena
from omaha.arena import ArenaSettings
from omaha.arena.server import ArenaServer
from omaha.arena.web import WebGate, check_origin, csp_for
from omaha.cli import build_parser
from omaha.errors import OmahaError
from test_arena_server import connect, receive, run  # same folder

try:
    import tomllib
except ImportError:   # Python 3.10
    import tomli as tomllib

# the installed package's assets (in CI the wheel's: so this also checks they were shipped)
STATIC = pathlib.Path(omaha.arena.__file__).parent / "static"
SLOW_CLOCK = {"base_ms": 30_000, "countdown_ms": 30_000}


def fetch(url):
    """(status, headers, body) of a GET, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


async def started(tmp_path, **options):
    server = ArenaServer(str(tmp_path / "a.sqlite"),
                         ArenaSettings(tables=2, seats=3, clock=SLOW_CLOCK), port=0, **options)
    return server, await server.start()


def test_the_page_its_assets_and_the_schema_are_served_with_a_csp(tmp_path):
    async def main():
        server, port = await started(tmp_path)
        base = f"http://127.0.0.1:{port}"
        try:
            status, headers, body = await asyncio.to_thread(fetch, base + "/")
            assert status == 200 and headers["Content-Type"].startswith("text/html")
            assert body == (STATIC / "index.html").read_bytes()
            csp = headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp and "script-src 'self'" in csp
            assert f"connect-src 'self' ws://127.0.0.1:{port}" in csp
            assert headers["X-Content-Type-Options"] == "nosniff"
            for path in sorted(STATIC.iterdir()):
                status, headers, body = await asyncio.to_thread(fetch, f"{base}/{path.name}")
                assert status == 200 and body == path.read_bytes(), path.name
            status, headers, body = await asyncio.to_thread(fetch, base + "/app.js?v=1")
            assert headers["Content-Type"].startswith("text/javascript")
            status, _, body = await asyncio.to_thread(fetch, base + "/schema.json")
            assert status == 200 and "server_message" in json.loads(body)["$defs"]
            for missing in ("/nope", "/../server.py", "/%2e%2e/web.py", "/static/app.js",
                            "/web.py", "/schema.json/x"):
                status, _, _ = await asyncio.to_thread(fetch, base + missing)
                assert status == 404, missing
        finally:
            await server.close()
    run(main())


def test_no_web_serves_no_page_and_bots_still_play(tmp_path):
    async def main():
        server, port = await started(tmp_path, web=False)
        try:
            status, _, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}/")
            assert status == 404
            async with connect(f"ws://127.0.0.1:{port}") as ws:
                await ws.send(json.dumps({"type": "join", "name": "bot"}))
                assert (await receive(ws, "joined"))[-1]["seat"] == 1
        finally:
            await server.close()
    run(main())


def test_a_foreign_origin_is_refused_and_the_own_allowed_and_none_accepted(tmp_path):
    async def main():
        server, port = await started(tmp_path, allowed_origins=["https://poker.example"])
        url = f"ws://127.0.0.1:{port}"
        try:
            for origin in (None, f"http://127.0.0.1:{port}", "https://poker.example"):
                async with connect_origin(url, origin) as ws:
                    await ws.send(json.dumps({"type": "tables"}))
                    assert len((await receive(ws, "tables"))[-1]["tables"]) == 2
            for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}",
                           "https://poker.example.evil", "null", f"ws://127.0.0.1:{port}"):
                with pytest.raises(websockets.exceptions.InvalidStatus) as caught:
                    async with connect_origin(url, origin):
                        pass
                assert caught.value.response.status_code == 403, origin
        finally:
            await server.close()
    run(main())


def connect_origin(url, origin):
    from websockets.asyncio.client import connect as ws_connect
    return ws_connect(url, origin=origin)


def test_history_over_the_wire_a_spectator_and_a_player(tmp_path):
    async def main():
        server, port = await started(tmp_path)
        url = f"ws://127.0.0.1:{port}"
        try:
            async with connect(url) as a, connect(url) as b, connect(url) as watcher:
                await a.send(json.dumps({"type": "join", "name": "ann", "table": 1}))
                await receive(a, "joined")
                await b.send(json.dumps({"type": "join", "name": "bob", "table": 1}))
                await receive(b, "joined")
                await watcher.send(json.dumps({"type": "watch", "table": 1}))
                seen = await receive(watcher, "watching")
                for hand in (1, 2):   # whoever is to act folds: hands end uncontested (S4)
                    while True:
                        message = (await receive(watcher, "update"))[-1]
                        seen.append(message)
                        view = message["view"]
                        if message["hand"] == hand and view and view["to_act"]:
                            actor = a if view["to_act"] == 1 else b
                            await actor.send(json.dumps({"type": "act", "action": "fold"}))
                        if message["hand"] == hand and view and view["is_over"]:
                            break
                names = [m["names"] for m in seen if m["type"] == "update"]
                assert names[-1] == {"1": "ann", "2": "bob"}
                await watcher.send(json.dumps({"type": "history", "table": 1}))
                page = (await receive(watcher, "history"))[-1]
                assert [h["hand"] for h in page["hands"]] == [2, 1] and page["before"] is None
                for hand in page["hands"]:
                    dealt = [e for e in hand["events"] if e["type"] == "hole_dealt"]
                    assert dealt and all(e["cards"] is None for e in dealt)
                    assert hand["names"] == {"1": "ann", "2": "bob"}
                await a.send(json.dumps({"type": "history", "table": 1, "limit": 1}))
                page = (await receive(a, "history"))[-1]
                assert [h["hand"] for h in page["hands"]] == [2] and page["before"] == 2
                dealt = {e["seat"]: e["cards"] for e in page["hands"][0]["events"]
                         if e["type"] == "hole_dealt"}
                assert dealt[1] is not None and dealt[2] is None   # its own cards only
                await a.send(json.dumps({"type": "history", "table": 9}))
                assert (await receive(a, "error"))[-1]["code"] == "no_table"
                await a.send(json.dumps({"type": "history", "table": 1, "limit": 21}))
                assert (await receive(a, "error"))[-1]["code"] == "bad_message"
        finally:
            await server.close()
    run(main())


def test_the_gate_refuses_bad_origins_and_serves_only_listed_files():
    with pytest.raises(OmahaError, match="allowed origin"):
        WebGate(allowed_origins=["poker.example"])
    for bad in ("ftp://x", "https://x/path", "https://u@x", "http://x:99999", "https://x?a",
                "https:// x"):
        with pytest.raises(OmahaError):
            check_origin(bad)
    with pytest.raises(OmahaError):
        check_origin(8765)
    assert WebGate(allowed_origins=["https://Poker.Example"]).origin_allowed(
        "https://poker.example", "127.0.0.1:1")
    gate = WebGate()
    assert gate.origin_allowed("HTTP://LOCALHOST:8765", "localhost:8765") is True   # any case
    assert gate.origin_allowed("http://localhost:8765/x", "localhost:8765") is False
    assert gate.origin_allowed("http://localhost:8765", "LOCALHOST:8765") is True
    assert gate.origin_allowed("http://localhost:8765", None) is False
    assert set(WebGate(pages=False).files) == set()
    served = {path.lstrip("/") for path in gate.files} - {"", "schema.json"}
    assert served == {p.name for p in STATIC.iterdir()}
    assert "ws://evil" not in csp_for("evil\r\nX: y")   # a bad Host never reaches the header


def test_the_cli_flags_parse():
    parser = build_parser()
    args = parser.parse_args(["serve", "--db", "x.sqlite"])
    assert args.web is True and args.allowed_origin == []
    args = parser.parse_args(["serve", "--db", "x.sqlite", "--no-web", "--allowed-origin",
                              "https://a.example/", "--allowed-origin", "http://b:81"])
    assert args.web is False and args.allowed_origin == ["https://a.example", "http://b:81"]


def test_the_assets_ship_as_package_data():
    """Every file of static/ is matched by the package data globs (so it is in the wheel)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["omaha.arena"]
    package = root / "src" / "omaha" / "arena"
    matched = {p.relative_to(package).as_posix() for g in globs for p in package.glob(g)}
    assert {f"static/{p.name}" for p in STATIC.iterdir()} <= matched
    manifest = (root / "MANIFEST.in").read_text()
    assert "src/omaha/arena/static" in manifest
