// The hand-history pane: finished hands from the server's stored events (the `history`
// request, in bounded pages, filtered by the server for this connection), stepped back and
// forward one hand at a time.

import { describe } from "./state.js";

const PAGE = 10;
const KEEP = 30;   // hands held in memory; older ones are asked for again
const REFRESH_MS = 3000;   // the newest page at most this often while hands end

export class HistoryPane {
  constructor(table, { send }) {
    this.table = table;
    this.send = send;
    this.hands = [];       // newest first
    this.index = 0;
    this.before = null;    // the next older page, or null at the oldest hand
    this.asked = false;
    this.live = true;          // showing the newest hand and following new ones
    this.askedBefore = null;   // the last page asked for (null: the newest)
    this.lastAsked = -Infinity;
    this.timer = null;
    this.el = {
      older: document.getElementById("hist-older"),
      newer: document.getElementById("hist-newer"),
      label: document.getElementById("hist-label"),
      lines: document.getElementById("hist-lines"),
    };
    this.el.older.addEventListener("click", () => this.older());
    this.el.newer.addEventListener("click", () => this.newer());
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement) return;
      if (event.key === "[") this.older();
      if (event.key === "]") this.newer();
    });
  }

  // The newest page again (on connecting, and when the user asks for newer hands).
  refresh() {
    this.request(null);
  }

  // The newest page when a hand ends while the newest is shown: at most every few seconds,
  // so a fast table does not turn every spectator into a stream of history requests.
  refreshSoon() {
    if (this.timer !== null) return;   // already due
    const wait = Math.max(0, this.lastAsked + REFRESH_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.live && !this.asked) this.refresh();
    }, wait);
  }

  request(before) {
    this.asked = true;
    this.askedBefore = before;
    this.lastAsked = performance.now();
    const message = { type: "history", table: this.table, limit: PAGE };
    if (before !== null) message.before = before;
    this.send(message);
  }

  receive(message) {
    this.asked = false;
    if (message.table !== this.table) return;
    if (message.hands.length === 0) {   // nothing (older): the oldest hand is shown
      if (this.askedBefore !== null) this.before = null;
      this.pendingStep = false;
      this.draw();
      return;
    }
    const page = message.hands;   // newest first, consecutive
    const shownHand = this.hands.length ? this.hands[this.index].hand : null;
    let held = this.hands;
    if (held.length && (page[page.length - 1].hand > held[0].hand + 1 ||
                        page[0].hand < held[held.length - 1].hand - 1)) {
      held = [];   // the page does not join the hands held (many ended since): start again
    }
    const known = new Set(held.map((h) => h.hand));
    const oldestBefore = held.length ? held[held.length - 1].hand : Infinity;
    let hands = held.concat(page.filter((h) => !known.has(h.hand))).sort((a, b) => b.hand - a.hand);
    if (page[page.length - 1].hand < oldestBefore) this.before = message.before;
    let at = this.live || shownHand === null ? 0 : hands.findIndex((h) => h.hand === shownHand);
    if (at < 0) at = 0;
    if (hands.length > KEEP) {   // forget the hands at the far end from this page
      const drop = hands.length - KEEP;
      if (this.askedBefore !== null) {   // an older page: drop the newest
        hands = hands.slice(drop);
        at = Math.max(0, at - drop);
      } else {
        hands = hands.slice(0, KEEP);
        this.before = hands[KEEP - 1].hand;
      }
    }
    this.hands = hands;
    this.index = at;
    this.draw();
  }

  older() {
    this.live = false;
    if (this.index + 1 < this.hands.length) {
      this.index += 1;
      this.draw();
    } else if (this.before !== null && !this.asked) {
      this.pendingStep = true;
      this.request(this.before);
    }
  }

  newer() {
    if (this.index > 0) {
      this.index -= 1;
      this.draw();
    } else if (!this.asked) {
      this.live = true;   // at the newest: follow the hands as they end
      this.refresh();
    }
  }

  draw() {
    if (this.pendingStep && this.index + 1 < this.hands.length) {
      this.pendingStep = false;
      this.index += 1;
    }
    const hand = this.hands[this.index];
    if (!hand) {
      this.el.label.textContent = "no hand yet";
      this.el.lines.replaceChildren();
      return;
    }
    this.el.label.textContent = `hand ${hand.hand}`;
    const nameOf = (s) => hand.names[String(s)] || `seat ${s}`;
    const lines = [];
    for (const event of hand.events) {
      const text = event.type === "hole_dealt"
        ? (event.cards ? `${nameOf(event.seat)} holds ${event.cards}` : null)
        : describe(event, nameOf);
      if (text) lines.push(text);
    }
    this.el.lines.replaceChildren(...lines.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    this.el.older.disabled = this.index + 1 >= this.hands.length && this.before === null;
  }
}
