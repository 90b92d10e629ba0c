"""Issue 26 in a real browser: a stud seat in the web client. Playwright drives Chromium (the
fixtures and the skip rule of ``tests/test_web_client.py``: Debian's ``chromium``, and
``OMAHA_REQUIRE_BROWSER=1`` turns a missing browser into a failure) against a real ``omaha
serve --variant F7S`` on 127.0.0.1 with two real ``omaha bots``. A person takes the free seat:
the page draws its own down and up cards and only the up cards of the others (E2: another
seat's down cards are never in a frame the page receives, nor in the DOM, until shown at the
showdown), and the call and raise (complete) buttons act: the server takes the action and
the stored hand has it (E3-E5). The docs' picture of a stud seat (docs/images/web-stud.png)
is taken here."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from test_web_client import (  # noqa: F401 (browser: the fixture)
    Arena,
    Page,
    browser,
    shot,
    until,
    wait_my_turn,
)


@pytest.fixture(scope="module")
def stud_arena(tmp_path_factory):
    """``omaha serve`` (one F7S table of 3 seats) and 2 strength bots: one seat is free."""
    running = Arena(tmp_path_factory.mktemp("web-stud"), 150,
                    game=("--tables", "1", "--seats", "3", "--variant", "F7S", "--stakes", "2/4",
                          "--ante", "1", "--bring-in", "1"),
                    bots=("--count", "2", "--seed", "26", "--policy", "strength"))
    yield running
    running.stop()


@pytest.fixture
def page(browser):  # noqa: F811 (the browser fixture of test_web_client)
    opened = Page(browser)
    yield opened
    assert opened.errors == []   # no script error, CSP violation or missing file
    opened.close()


def _cards(text: str | None) -> list[str]:
    return re.findall(r"..", text or "")


def drawn(page: Page) -> tuple[int, dict[int, list[str]], dict[str, Any]]:
    """(hand, {seat: the cards the DOM shows face up}, the view they were drawn from), read
    at once when the page has drawn the view it holds."""
    until(page, "window.omahaPage.renderer.drawnVersion === window.omahaPage.state.version")
    hand, seats, view = page.page.evaluate("""() => {
        const seats = {};
        for (const el of document.querySelectorAll('.seat')) {
            seats[el.dataset.seat] = Array.from(el.querySelectorAll('.cards [data-card]'))
                .map(c => c.dataset.card);
        }
        const page = window.omahaPage;
        return page.renderer.drawnVersion === page.state.version
            ? [page.renderer.drawnHand, seats, page.state.view] : [null, null, null];
    }""")
    if hand is None:   # a message arrived in between: read the next picture
        return drawn(page)
    return hand, {int(seat): cards for seat, cards in seats.items()}, view


def acts_sent(page: Page) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, page.sent) if m["type"] == "act"]


def my_events(page: Page, seat: int, after: int) -> list[dict[str, Any]]:
    """The events of ``seat`` the server streamed after sequence number ``after``."""
    return [item["event"] for m in page.messages("update") for item in m["events"]
            if item["seq"] > after and item["event"].get("seat") == seat]


def act_and_land(page: Page, seat: int, button: str) -> dict[str, Any]:
    """Click ``button`` at this seat's turn; the event the server streams back for it."""
    decision, after = page.state("decision"), page.state("lastSeq")
    page.page.click(button)
    until(page, f"window.omahaPage.state.decision !== {decision}", timeout=15_000)
    until(page, f"window.omahaPage.state.lastSeq > {after}", timeout=15_000)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        acted = [e for e in my_events(page, seat, after)
                 if e["type"] in ("called", "checked", "bet_or_raised", "posted")]
        if acted:
            return acted[0]
        page.page.wait_for_timeout(50)
    raise AssertionError(f"no action of seat {seat} came back after {button}")


def test_e2_e5_a_stud_seat_sees_its_down_cards_only_and_its_buttons_act(stud_arena, page):
    page.page.goto(stud_arena.http + "/?table=1")
    page.page.wait_for_selector("#seat-form:not([hidden])")
    page.page.fill("#seat-name", "Ada")
    page.page.click("#take-seat")
    until(page, "window.omahaPage.state.seat !== null", timeout=15_000)
    seat = page.state("seat")
    samples: list[tuple[int, dict[int, list[str]], dict[str, Any]]] = []
    landed: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + 90
    while len(landed) < 2 and time.monotonic() < deadline:   # a call, then a raise
        legal = wait_my_turn(page, timeout=40_000)
        samples.append(drawn(page))
        if len(samples) == 1:
            shot(page, "stud")
        if "call" not in landed:
            landed["call"] = act_and_land(page, seat, "#act-call")
            assert acts_sent(page)[-1]["action"] == "check_or_call"
        elif legal["min_raise_to"] is not None:
            to = legal["min_raise_to"]
            assert page.page.input_value("#raise-to") == str(to)
            landed["raise"] = act_and_land(page, seat, "#act-raise")
            assert acts_sent(page)[-1] == {**acts_sent(page)[-1], "action": "bet_or_raise",
                                           "to": to}
            assert landed["raise"] == {**landed["raise"], "type": "bet_or_raised", "to": to}
        else:
            act_and_land(page, seat, "#act-call")
    assert set(landed) == {"call", "raise"}, landed
    assert landed["call"]["type"] in ("called", "checked", "posted")   # posted: the bring-in
    assert page.messages("error") == []

    # what the page drew at its turns: its own down and up cards, the others' up cards only
    for hand, dom, view in samples:
        players = {p["seat"]: p for p in view["players"]}
        me = players[seat]
        assert len(_cards(me["down"])) >= 2 and dom[seat] == _cards(me["down"] + me["up"])
        for other, player in players.items():
            if other != seat:
                assert player["down"] is None and dom[other] == _cards(player["up"])

    # and the server's truth: the others' down cards were never sent nor drawn unless shown
    last = samples[-1][0]
    deadline = time.monotonic() + 60   # play the hand out (calling) so that it is stored
    while page.state("hand") <= last and time.monotonic() < deadline:
        if page.page.evaluate("window.omahaPage.state.legal() !== null") and \
                page.page.is_visible("#act-call"):
            page.page.keyboard.press("c")
        page.page.wait_for_timeout(100)
    until(page, f"window.omahaPage.state.hand > {last}", timeout=5_000)
    hands = {hand: f for (_, hand), f in stud_arena.finished_hands().items()}
    frames, dom = "\n".join(page.received), page.page.content()
    played = {hand for hand, _, _ in samples}
    checked = 0
    for number in played:
        finished = hands[number]
        shown = {e["seat"] for e in finished.events if e["type"] == "shown"}
        mine = [e for e in finished.events if e.get("seat") == seat
                and e["type"] in ("called", "checked", "bet_or_raised", "posted")]
        assert mine   # the stored hand has this seat's actions
        for event in finished.events:
            if event["type"] == "stud_dealt" and event["seat"] != seat and event["down"]:
                if event["seat"] not in shown:
                    assert event["down"] not in frames and event["down"] not in dom
                for _, dom_cards, _ in (s for s in samples if s[0] == number):
                    assert not set(_cards(event["down"])) & set(dom_cards[event["seat"]])
                checked += 1
    assert checked > 0
    for message in page.messages("update"):   # every frame hides them as the server says
        for item in message["events"]:
            if item["event"]["type"] == "stud_dealt" and item["event"]["seat"] != seat:
                assert item["event"]["down"] is None
