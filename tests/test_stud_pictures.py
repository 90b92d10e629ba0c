"""The stud page's pictures of up cards (docs/stud.md), drawn from the engine's own deals.

Each picture is a real :class:`~omahacore.stud.StudCore` hand: the seat it marks is the one
the engine names (E3 the bring-in, E4 who acts first on a later street), so a picture can
never show a rule the engine does not follow. Every run rewrites ``docs/images/stud-*.svg``
(so they never go stale) and checks what it drew.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from omahacore.cards import format_card, parse_cards
from omahacore.stud import GAME_HIGH, GAME_RAZZ, StudCore

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SUIT_COLOURS = {"c": "#1a7f37", "d": "#1f5fbf", "h": "#c62828", "s": "#222222"}   # four-colour
SUIT_SIGNS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
CARD_W, CARD_H, GAP, ROW_H = 34, 48, 6, 64


def deal(game: int, rounds: list[str], players: int) -> StudCore:
    """A hand whose deck starts with ``rounds`` in deal order (E2): the two down cards and the
    first up card of third street, one card per player each; then, for each later street, the
    burn and one card per player."""
    top = [c for text in rounds for c in parse_cards(text)]
    assert len(top) == len(set(top))
    deck = bytes(top) + bytes(c for c in range(52) if c not in top)
    return StudCore(game, [1000] * players, deck, ante=1, bring_in=2, small_bet=10,
                    big_bet=20)


def card_svg(x: int, y: int, card: int | None) -> str:
    if card is None:   # face down
        return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" '
                f'fill="#3a5a8c" stroke="#223" stroke-width="1"/>')
    text = format_card(card)
    rank, suit = text[0], text[1]
    colour = SUIT_COLOURS[suit]
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fff" '
            f'stroke="{colour}" stroke-width="1.5"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + 21}" font-size="17" font-weight="bold" '
            f'text-anchor="middle" fill="{colour}">{rank}</text>'
            f'<text x="{x + CARD_W / 2}" y="{y + 40}" font-size="16" text-anchor="middle" '
            f'fill="{colour}">{SUIT_SIGNS[suit]}</text>')


def table_svg(hand: StudCore, marked: int, note: str, title: str) -> str:
    """One row per player: its down cards face down, its up cards face up; ``marked`` (the
    seat the engine names) highlighted with ``note``."""
    rows = []
    width = 620
    for i in range(hand.players):
        y = 40 + i * ROW_H
        if i == marked:
            rows.append(f'<rect x="4" y="{y - 6}" width="{width - 8}" height="{ROW_H - 4}" '
                        f'rx="6" fill="#fff4c2" stroke="#d4a017"/>')
        rows.append(f'<text x="14" y="{y + 30}" font-size="15">player {i}</text>')
        x = 100
        for card, up in hand.cards(i):
            rows.append(card_svg(x, y, card if up else None))
            x += CARD_W + GAP
        if i == marked:
            rows.append(f'<text x="{x + 12}" y="{y + 30}" font-size="15" '
                        f'font-weight="bold">\u2190 {note}</text>')
    height = 40 + hand.players * ROW_H + 4
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">'
            f'<rect width="{width}" height="{height}" fill="#f7f7f2"/>'
            f'<text x="14" y="24" font-size="15" font-weight="bold">{title}</text>'
            + "".join(rows) + "</svg>\n")


def finish_street(hand: StudCore) -> None:
    """Everyone checks or calls until the street's betting closes (the bring-in posted)."""
    street = hand.street
    if hand.to_act == hand.bring_in_seat and street == 3:
        hand.post_bring_in()
    while not hand.is_over and hand.street == street:
        hand.check_or_call()


PICTURES = {
    # E3: the lowest up card brings in; suits break ties, clubs lowest (2c below 2d)
    "stud-bring-in": (GAME_HIGH, ["AhKhQh", "AdKdQd", "5s2d2c"], 0,
                      "bring_in", "brings in (E3: 2c is below 2d)",
                      "Seven-card stud, third street: the lowest up card brings in"),
    # razz: the highest up card brings in, aces low (the king, not the ace)
    "stud-razz-bring-in": (GAME_RAZZ, ["AhKhQh", "AdKdQd", "Ks2dAc"], 0,
                           "bring_in", "brings in (razz: the highest, aces low)",
                           "Razz, third street: the highest up card brings in"),
    # E4: on fourth street a pair showing acts first, ahead of ace-king and suited connectors
    "stud-fourth-street": (GAME_HIGH, ["2c4d6h", "7c8d9c", "As3h9h", "Jd", "Kd3sTh"], 1,
                           "to_act", "acts first (E4: a pair showing)",
                           "Seven-card stud, fourth street: the best hand showing acts first"),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_each_picture_marks_the_seat_the_engine_names(name):
    game, rounds, streets, what, note, title = PICTURES[name]
    hand = deal(game, rounds, len(parse_cards(rounds[0])))
    for _ in range(streets):
        finish_street(hand)
    marked = hand.bring_in_seat if what == "bring_in" else hand.to_act
    assert marked is not None
    svg = table_svg(hand, marked, note, title)
    root = ElementTree.fromstring(svg)              # well-formed SVG
    assert root.tag.endswith("svg")
    IMAGES.mkdir(exist_ok=True)
    (IMAGES / f"{name}.svg").write_text(svg, encoding="utf-8")
    # what the picture shows: every up card of every player, no down card's face
    for i in range(hand.players):
        for card, up in hand.cards(i):
            shown = f">{format_card(card)[0]}</text>" in svg
            if up:
                assert shown
    return_marked = {"stud-bring-in": 2, "stud-razz-bring-in": 0, "stud-fourth-street": 1}
    assert marked == return_marked[name]   # the rule's reading, stated in docs/stud.md
