"""Issue 27: the web client in a real browser. Playwright drives Chromium (Debian's
``chromium`` package: Playwright's own download is not needed) against a real ``omaha
serve`` on 127.0.0.1 with real bots (``omaha bots``): the lobby lists the tables, a
spectator sees hands play out and never a hidden card (in the DOM or in any frame the page
receives), a human plays with the keyboard and the mouse, a reload resumes the seat, an
illegal raise shows the server's reason, the history pane steps through stored hands, and
the page's JS heap stays flat while it watches a fast table. The screenshots of the docs
(docs/images/web-*.png) are taken here, so they never go stale.

Skipped, with the reason printed, only when no Chromium is found (CI installs it:
``apt-get install -y chromium`` and the ``test`` extra's ``playwright``, and sets
``OMAHA_REQUIRE_BROWSER=1``, which turns the skip into a failure).
``OMAHA_WEB_WATCH_S`` sets the seconds of the heap watch (default 20).
"""

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser",
                                                "google-chrome"))), None)
if CHROMIUM is None:
    if os.environ.get("OMAHA_REQUIRE_BROWSER"):   # CI: a missing browser is a failure
        raise RuntimeError("OMAHA_REQUIRE_BROWSER is set but no chromium is on PATH")
    print("test_web_client: no chromium on PATH (apt-get install -y chromium); skipped")
    pytest.skip("no Chromium found on PATH (apt-get install -y chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
pytest.importorskip("websockets")

from omaha.arena.storage import SqliteStorage
from serving import ENV, launch  # one way to start a server

ROOT = pathlib.Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
WATCH_S = float(os.environ.get("OMAHA_WEB_WATCH_S", "20"))
VIEWPORT = {"width": 1280, "height": 820}


class Arena:
    """``omaha serve`` and bots: by default 2 tables of 4 seats and 5 bots, 4 filling table
    1 and 1 waiting at table 2 for a human; ``game`` and ``bots`` replace those options."""

    def __init__(self, tmp: pathlib.Path, pause_ms: int,
                 game: tuple[str, ...] = ("--tables", "2", "--seats", "4"),
                 bots: tuple[str, ...] = ("--count", "5", "--seed", "27")) -> None:
        self.db = str(tmp / "arena.sqlite")
        self.pause_ms = pause_ms
        self.game = game
        self.log = open(tmp / "serve.log", "a")   # the server appends to it too
        self.port = 0
        self.start_server()
        self.http = f"http://127.0.0.1:{self.port}"
        self.bots = subprocess.Popen(
            [sys.executable, "-m", "omaha", "bots", f"ws://127.0.0.1:{self.port}",
             "--hands", "10000000", "--no-progress", *bots],
            stdout=self.log, stderr=subprocess.STDOUT, env=ENV)

    def start_server(self) -> None:
        """Start ``omaha serve`` on the database (on the same port when restarted)."""
        self.server, line = launch(
            self.db, self.port, *self.game, "--hand-pause-ms", str(self.pause_ms),
            "--base-ms", "20000", "--countdown-ms", "10000", "--rate", "200", "--burst", "400",
            log=self.log.name)
        match = re.search(r"ws://127\.0\.0\.1:(\d+)", line)
        assert match is not None, line
        self.port = int(match.group(1))

    def kill_server(self) -> None:
        self.server.kill()
        self.server.wait(10)
        self.server.stdout.close()

    def stop(self) -> None:
        for process in (self.bots, self.server):
            process.send_signal(signal.SIGINT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        self.server.stdout.close()
        self.log.close()

    def finished_hands(self):
        storage = SqliteStorage(self.db, create=False)
        try:
            return {(f.table, f.hand): f for f in storage.finished_hands()}
        finally:
            storage.close()


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    running = Arena(tmp_path_factory.mktemp("web"), pause_ms=100)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


class Page:
    """A page with every frame it receives and sends recorded, and any script error kept."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.received: list[str] = []
        self.sent: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     else None)   # a CSP violation, a missing file...
        self.page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        ws.on("framereceived", lambda payload: self.received.append(str(payload)))
        ws.on("framesent", lambda payload: self.sent.append(str(payload)))

    def messages(self, kind=None):
        out = [json.loads(text) for text in self.received]
        return [m for m in out if kind is None or m["type"] == kind]

    def state(self, expression):
        return self.page.evaluate(f"window.omahaPage.state.{expression}")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def page(browser):
    opened = Page(browser)
    yield opened
    assert opened.errors == []   # no script error, CSP violation or missing file on any page
    opened.close()


def until(page: Page, condition: str, timeout: float = 30_000) -> None:
    """Wait until the JavaScript ``condition`` holds (as a function: the page's CSP allows
    no string evaluation, which is the point of it)."""
    page.page.wait_for_function(f"() => ({condition})", timeout=timeout)


def shot(page: Page, name: str) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(IMAGES / f"web-{name}.png"))


def test_the_lobby_lists_the_tables(arena, page):
    page.page.goto(arena.http + "/")
    until(page, "document.querySelectorAll('#tables tbody tr').length === 2")
    until(page, "document.querySelector('#tables tbody tr').textContent.includes('4 / 4')")
    rows = page.page.locator("#tables tbody tr").all_inner_texts()
    assert rows[0].startswith("Table 1") and "4 / 4" in rows[0]
    assert rows[1].startswith("Table 2") and "1 / 4" in rows[1]
    shot(page, "lobby")
    links = page.page.evaluate("""async () => {   // each table on its owner's page
        const { pageOf } = await import("/lobby.js");
        return [pageOf(null, 3), pageOf("ws://" + location.host, 1),
                pageOf("wss://arena.example/p1", 2), pageOf("ws://10.0.0.2:8766", 4)];
    }""")
    assert links == ["/?table=3", "/?table=1", "https://arena.example/p1/?table=2",
                     "http://10.0.0.2:8766/?table=4"]
    page.page.click("#tables tbody tr[data-table='1'] a")
    page.page.wait_for_url(re.compile(r"/\?table=1$"))
    page.page.wait_for_selector("#table-page:not([hidden])")


def seat_cards_in_dom(page: Page):
    """(hand, {seat: the hole cards the DOM shows face up}) now."""
    return page.page.evaluate("""() => {
        const seats = {};
        for (const el of document.querySelectorAll('.seat')) {
            const cards = Array.from(el.querySelectorAll('.cards [data-card]'))
                .map(c => c.dataset.card).join('');
            if (cards) seats[el.dataset.seat] = cards;
        }
        return [window.omahaPage.renderer.drawnHand, seats];
    }""")


def test_a_spectator_sees_hands_play_out_and_never_a_hidden_card(arena, page):
    page.page.goto(arena.http + "/?table=1")
    until(page, "window.omahaPage && window.omahaPage.state.hand > 0", timeout=15_000)
    first = page.state("hand")
    samples = []
    deadline = time.monotonic() + 30
    while page.state("hand") < first + 3 and time.monotonic() < deadline:
        samples.append(seat_cards_in_dom(page))
        page.page.wait_for_timeout(40)
    last = page.state("hand")
    assert last >= first + 3, "no hands played out in 30 s"
    until(page, "document.querySelector('#hist-label').textContent.startsWith('hand ')",
          timeout=10_000)
    shot(page, "watch")
    names = page.page.locator(".seat .name").all_inner_texts()
    assert len(set(names)) == 4 and all(re.fullmatch(r"bot\d", name) for name in names)
    hands = arena.finished_hands()
    frames = "\n".join(page.received)
    dom = page.page.content()
    checked = shown_checked = 0
    for number in range(first, last):
        finished = hands[(1, number)]
        shown = {e["seat"]: e["cards"] for e in finished.events if e["type"] == "shown"}
        for event in finished.events:
            if event["type"] == "hole_dealt" and event["seat"] not in shown:
                assert event["cards"] not in frames   # never sent, not even to be hidden
                assert event["cards"] not in dom
                checked += 1
    for hand, seats in samples:   # face-up cards in the DOM are shown hands only
        finished = hands.get((1, hand))
        if finished is None:   # the hand in play at the end: nothing shown yet
            assert seats == {}, (hand, seats)
            continue
        shown = {str(e["seat"]): e["cards"] for e in finished.events if e["type"] == "shown"}
        for seat, cards in seats.items():
            assert shown.get(seat) == cards, (hand, seat)
            shown_checked += 1
    assert checked > 0
    for message in page.messages("update"):   # and the frames hide them as the server says
        for item in message["events"]:
            if item["event"]["type"] == "hole_dealt":
                assert item["event"]["cards"] is None


def wait_my_turn(page: Page, timeout=20_000):
    """The legal actions once it is this seat's turn and the page has drawn it (the
    controls of the previous decision may still show until the next frame)."""
    until(page, "window.omahaPage.state.legal() !== null && window.omahaPage.renderer"
                ".drawnVersion === window.omahaPage.state.version", timeout=timeout)
    page.page.wait_for_selector("#controls:not([hidden])", timeout=timeout)
    return page.page.evaluate("window.omahaPage.state.legal()")


def acts_sent(page: Page):
    return [json.loads(t) for t in page.sent if json.loads(t)["type"] == "act"]


def test_a_human_takes_a_seat_plays_with_keyboard_and_mouse_and_a_reload_resumes(arena, page):
    page.page.goto(arena.http + "/?table=2")
    page.page.wait_for_selector("#seat-form:not([hidden])")
    page.page.fill("#seat-name", "Ada")
    page.page.click("#take-seat")
    until(page, "window.omahaPage.state.seat === 2", timeout=15_000)
    token = page.page.evaluate("JSON.parse(sessionStorage.getItem('omaha.seat.2')).token")
    assert len(token) == 43 and token not in page.page.url
    joins = [json.loads(t) for t in page.sent if json.loads(t)["type"] == "join"]
    assert joins[-1]["token"] == token and joins[-1]["name"] == "Ada"

    wait_my_turn(page)   # the keyboard: C checks or calls
    shot(page, "play")
    decision = page.state("decision")
    page.page.keyboard.press("c")
    until(page, f"window.omahaPage.state.decision !== {decision}")
    assert acts_sent(page)[-1]["action"] == "check_or_call"
    assert acts_sent(page)[-1]["decision"] == decision

    legal = wait_my_turn(page)   # the mouse: the raise button at the server's minimum
    decision = page.state("decision")
    if legal["min_raise_to"] is not None:
        assert page.page.input_value("#raise-to") == str(legal["min_raise_to"])
        assert page.page.inner_text("#raise-range") == \
            f"{legal['min_raise_to']} to {legal['max_raise_to']}"
        page.page.click("#act-raise")
        expected = {"action": "bet_or_raise", "to": legal["min_raise_to"]}
    else:
        page.page.click("#act-call")
        expected = {"action": "check_or_call"}
    until(page, f"window.omahaPage.state.decision !== {decision}")
    sent = acts_sent(page)[-1]
    assert {k: sent.get(k) for k in expected} == expected
    errors = page.messages("error")
    assert errors == [], errors

    page.page.reload()   # the seat resumes from session storage
    until(page, "window.omahaPage && window.omahaPage.state.seat === 2", timeout=15_000)
    assert page.messages("resumed")[-1]["seat"] == 2
    assert page.page.evaluate("JSON.parse(sessionStorage.getItem('omaha.seat.2')).token") \
        == token
    assert token not in page.page.content()
    assert "Ada" in page.page.inner_text("#seats")

    legal = wait_my_turn(page, timeout=40_000)   # an illegal raise: the server's reason
    while legal["min_raise_to"] is None:
        decision = page.state("decision")
        page.page.keyboard.press("c")
        until(page, f"window.omahaPage.state.decision !== {decision}")
        legal = wait_my_turn(page, timeout=40_000)
    page.page.keyboard.press("r")   # R focuses the raise box, Enter sends it
    assert page.page.evaluate("document.activeElement.id") == "raise-to"
    page.page.keyboard.type(str(legal["max_raise_to"] + 1000))
    page.page.keyboard.press("Enter")
    page.page.wait_for_selector("#notice:not([hidden])", timeout=10_000)
    error = page.messages("error")[-1]
    assert error["code"] == "illegal_action"
    assert page.page.inner_text("#notice").startswith(error["message"])
    shot(page, "illegal-raise")
    sent = acts_sent(page)[-1]
    assert sent["to"] == legal["max_raise_to"] + 1000   # the page sent it unchanged

    decision = page.state("decision")   # F folds; then leave the seat and watch on
    page.page.keyboard.press("Escape")   # out of the raise box: letters are shortcuts again
    assert page.page.evaluate("document.activeElement.id") != "raise-to"
    page.page.keyboard.press("f")
    until(page, f"window.omahaPage.state.decision !== {decision}")
    assert acts_sent(page)[-1]["action"] == "fold"
    page.page.click("#leave-seat")   # in a hand: the seat plays it out (folding), then goes
    deadline = time.monotonic() + 30
    while page.state("seat") is not None and time.monotonic() < deadline:
        if page.page.is_visible("#act-fold"):
            page.page.keyboard.press("f")
        page.page.wait_for_timeout(100)
    assert page.state("seat") is None
    left = page.messages("left")[-1]
    assert left["seat"] == 2 and left["amount"] >= 0
    assert page.page.evaluate("sessionStorage.getItem('omaha.seat.2')") is None
    page.page.wait_for_selector("#seat-form:not([hidden])")
    until(page, "document.querySelector('#status').textContent === 'connected'")
    assert page.messages("watching")   # a spectator again


def test_the_history_pane_steps_through_stored_hands(arena, page):
    page.page.goto(arena.http + "/?table=1")
    until(page, "document.querySelector('#hist-label').textContent.startsWith('hand ')",
          timeout=15_000)
    first = page.page.inner_text("#hist-label")   # live: it follows the hands as they end
    until(page, f"document.querySelector('#hist-label').textContent !== {first!r}",
          timeout=15_000)
    page.page.click("#hist-older")   # stepping stops following the newest hand
    until(page, "window.omahaPage.history.live === false")
    newest = int(page.page.inner_text("#hist-label").split()[1]) + 1
    for step in range(2, 13):   # past the first page of 10: the next page is asked for
        page.page.click("#hist-older")
        until(page, "document.querySelector('#hist-label').textContent === "
              f"'hand {newest - step}'")
    assert len(page.messages("history")) >= 2
    page.page.keyboard.press("]")
    until(page, f"document.querySelector('#hist-label').textContent === 'hand {newest - 11}'")
    lines = page.page.locator("#hist-lines li").all_inner_texts()
    assert lines[0].startswith("hand starts") and any("pot 1" in line for line in lines)
    shot(page, "history")


def test_the_history_pane_never_shows_a_gap_and_holds_a_bounded_window(arena, page):
    """Pages fed straight to the pane (at table 2, where no hand ends now): a newest page
    that does not join the hands held (more hands ended since than a page holds) replaces
    them, so stepping back never skips a hand; at most 30 hands are held."""
    page.page.goto(arena.http + "/?table=2")
    until(page, "window.omahaPage && window.omahaPage.history.asked === false "
                "&& document.querySelector('#status').textContent === 'connected'")
    held = page.page.evaluate("""() => {
        const pane = window.omahaPage.history;
        pane.send = () => true;   // the page's own requests stay unanswered here
        const feed = (newest, before) => {
            const hands = [];
            for (let n = newest; n > newest - 10 && n > 0; n -= 1)
                hands.push({hand: n, seq_base: 0, names: {}, events: []});
            pane.receive({type: "history", table: 2, hands, before});
            return pane.hands.map((h) => h.hand).join(",") + " before " + pane.before;
        };
        pane.hands = []; pane.index = 0; pane.live = true; pane.askedBefore = null;
        const out = [feed(9, null), feed(25, 16), feed(30, 21), feed(40, 31), feed(45, 36),
                     feed(50, 41)];
        pane.live = false; pane.index = pane.hands.length - 1; pane.askedBefore = 21;
        out.push(feed(20, 11));
        return out;
    }""")
    span = lambda high, low: ",".join(map(str, range(high, low - 1, -1)))  # noqa: E731
    assert held == [f"{span(9, 1)} before null", f"{span(25, 16)} before 16",
                    f"{span(30, 16)} before 16", f"{span(40, 16)} before 16",
                    f"{span(45, 16)} before 16", f"{span(50, 21)} before 21",
                    f"{span(40, 11)} before 11"]


def test_four_colour_deck_is_a_preference(arena, page):
    page.page.goto(arena.http + "/?table=1")
    page.page.wait_for_selector("#board .card", timeout=15_000)
    page.page.check("#four-colour")
    assert page.page.evaluate("document.body.classList.contains('four-colour')")
    page.page.reload()
    assert page.page.is_checked("#four-colour")


def test_watching_a_fast_table_keeps_up_draws_once_a_frame_and_the_heap_stays_flat(
        arena, page):
    """The page applies every message at once and draws at most once per animation frame,
    so it never falls behind the stream; the JS heap after a long watch is the heap after
    the first hands (both measured after a forced garbage collection)."""
    page.page.goto(arena.http + "/?table=1")
    until(page, "window.omahaPage && window.omahaPage.state.hand > 2", timeout=15_000)
    cdp = page.context.new_cdp_session(page.page)
    page.page.evaluate("""() => { window.frames_ = 0;
        const tick = () => { window.frames_ += 1; requestAnimationFrame(tick); };
        requestAnimationFrame(tick); }""")

    def heap():
        cdp.send("HeapProfiler.collectGarbage")
        return cdp.send("Runtime.getHeapUsage")["usedSize"]

    page.page.wait_for_timeout(2000)
    before = heap()
    start = page.page.evaluate("[window.omahaPage.state.messages, "
                               "window.omahaPage.renderer.draws, window.frames_, "
                               "window.omahaPage.state.hand]")
    page.page.wait_for_timeout(WATCH_S * 1000)
    end = page.page.evaluate("[window.omahaPage.state.messages, "
                             "window.omahaPage.renderer.draws, window.frames_, "
                             "window.omahaPage.state.hand]")
    after = heap()
    messages, draws, frames, hands = (b - a for a, b in zip(start, end))
    report = {"watch_s": WATCH_S, "hands": hands, "messages": messages, "draws": draws,
              "frames": frames, "heap_before": before, "heap_after": after}
    print("web heap:", json.dumps(report))
    assert hands > 0 and messages > 0
    assert draws <= frames + 1             # at most one draw per animation frame
    # never behind: the newest event received is the newest event the page has applied
    page.page.wait_for_timeout(100)
    newest = max(item["seq"] for m in page.messages("update") for item in m["events"])
    assert page.state("lastSeq") >= newest
    assert after < before + 1_000_000, report   # flat: well under 1 MB of growth


def test_a_seat_the_server_refuses_shows_its_reason_and_the_page_watches_on(arena, page):
    page.page.goto(arena.http + "/?table=1")   # four bots: no free seat
    until(page, "window.omahaPage && window.omahaPage.state.hand > 0", timeout=15_000)
    page.page.fill("#seat-name", "Bea")
    page.page.click("#take-seat")
    page.page.wait_for_selector("#notice:not([hidden])", timeout=10_000)
    error = page.messages("error")[-1]
    assert error["code"] == "table_full"
    assert page.page.inner_text("#notice") == error["message"]
    assert page.page.evaluate("sessionStorage.getItem('omaha.seat.1')") is None
    until(page, "window.omahaPage.state.seat === null")
    hand = page.state("hand")
    until(page, f"window.omahaPage.state.hand > {hand}", timeout=15_000)   # watching again
    page.page.wait_for_selector("#seat-form:not([hidden])")


def test_frames_the_page_does_not_understand_are_a_notice_and_ignored(arena, page):
    routes = []

    def route(ws):   # pass every frame through, and keep the route to inject frames
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(ws.send)
        routes.append(ws)

    page.page.route_web_socket(re.compile(".*"), route)
    page.page.goto(arena.http + "/?table=1")
    until(page, "window.omahaPage && window.omahaPage.state.hand > 0", timeout=15_000)
    for frame, shown in (('{"type": "surprise", "x": 1}', "unknown type surprise"),
                         ("not json at all", "not JSON"), ("[1, 2]", "unknown type")):
        routes[-1].send(frame)
        until(page, f"document.querySelector('#notice').textContent.includes({shown!r})",
              timeout=5_000)
    hand = page.state("hand")
    until(page, f"window.omahaPage.state.hand > {hand}", timeout=15_000)   # and plays on


def test_a_lost_connection_shows_reconnecting_and_resumes(tmp_path, browser):
    own = Arena(tmp_path, pause_ms=100)
    opened = Page(browser)
    try:
        opened.page.goto(own.http + "/?table=1")
        until(opened, "window.omahaPage && window.omahaPage.state.hand > 1", timeout=20_000)
        own.kill_server()
        until(opened, "document.querySelector('#status').textContent"
                      ".startsWith('reconnecting')", timeout=10_000)
        shot(opened, "reconnecting")
        hand = opened.state("hand")
        own.start_server()
        until(opened, "document.querySelector('#status').textContent === 'connected'",
              timeout=20_000)
        until(opened, f"window.omahaPage.state.hand > {hand + 1}", timeout=30_000)
        watching = opened.messages("watching")
        assert len(watching) >= 2 and all(not w["gap"] for w in watching)
        # the browser logs each refused attempt while the server is away; nothing else
        assert [e for e in opened.errors if "ERR_CONNECTION_REFUSED" not in e] == []
    finally:
        opened.close()
        own.stop()
