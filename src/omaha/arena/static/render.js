// Draws a TableState into the page: seats around the oval, the board, the pots, the result
// and the last actions. Messages only mark the picture stale; it is drawn at most once per
// animation frame, whatever the rate of the stream.

import { showCards } from "./cards.js";
import { describeAward } from "./state.js";

export class Renderer {
  constructor(state, { afterDraw } = {}) {
    this.state = state;
    this.afterDraw = afterDraw || (() => {});
    this.pending = false;
    this.drawnVersion = -1;
    this.draws = 0;
    this.drawnHand = 0;
    this.seatEls = new Map();
    this.el = {
      title: document.getElementById("table-title"),
      seats: document.getElementById("seats"),
      board: document.getElementById("board"),
      pots: document.getElementById("pots"),
      result: document.getElementById("result"),
      log: document.getElementById("log"),
    };
    this.logSeq = -1;
    // the action clock counts down between messages
    setInterval(() => { if (this.state.remainingMs(performance.now()) !== null) this.schedule(true); }, 200);
  }

  schedule(clockOnly = false) {
    if (clockOnly) this.clockDue = true;
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.draw());
  }

  draw() {
    this.pending = false;
    const state = this.state;
    if (state.version !== this.drawnVersion) {
      this.drawnVersion = state.version;
      this.draws += 1;
      this.drawnHand = state.hand;
      this.drawTable();
      this.drawLog();
      this.afterDraw();
    }
    this.drawClock();
  }

  seatEl(seat, count) {
    let el = this.seatEls.get(seat);
    if (el) return el;
    el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = String(seat);
    // around the oval, seat 1 at the bottom, clockwise
    const angle = Math.PI / 2 + (2 * Math.PI * (seat - 1)) / count;
    el.style.left = `${50 + 44 * Math.cos(angle)}%`;
    el.style.top = `${50 + 40 * Math.sin(angle)}%`;
    for (const part of ["name", "stack", "cards", "bet", "clock", "marker"]) {
      const child = document.createElement(part === "cards" ? "div" : "span");
      child.className = part;
      el.append(child);
    }
    this.el.seats.append(el);
    this.seatEls.set(seat, el);
    return el;
  }

  drawTable() {
    const { state } = this;
    const view = state.view;
    this.el.title.textContent = `Table ${state.table}` + (state.hand ? `, hand ${state.hand}` : "") +
      (state.seat !== null ? ` (you: seat ${state.seat})` : " (watching)");
    const count = state.settings ? state.settings.seats : 0;   // no seats before the settings
    if (count !== this.seatCount) {
      this.seatCount = count;
      this.seatEls.clear();
      this.el.seats.replaceChildren();
    }
    const inHand = new Map();
    if (view) for (const p of view.players) inHand.set(p.seat, p);
    for (let seat = 1; seat <= count; seat += 1) {
      const el = this.seatEl(seat, count);
      const name = state.names[String(seat)];
      const player = inHand.get(seat);
      el.classList.toggle("empty", !name && !player);
      el.classList.toggle("mine", seat === state.seat);
      el.classList.toggle("to-act", Boolean(view && view.to_act === seat));
      el.classList.toggle("folded", Boolean(player && (player.state === "folded" || player.state === "mucked")));
      setText(el.children[0], name || (player ? `seat ${seat}` : "empty seat"));
      setText(el.children[1], player ? `${player.stack} chips` + (player.state === "all_in" ? " (all-in)" : "") : (name ? "waiting" : ""));
      // stud (E2): the viewer's down cards, then everyone's up cards; a flop game's hole cards
      const shown = player && "up" in player ? (player.down || "") + player.up : (player ? player.cards : "");
      showCards(el.children[2], shown, player ? holeCount(state) : 0);
      setText(el.children[3], player && player.bet ? `bet ${player.bet}` : "");
      setText(el.children[5], view && view.button === seat ? "D" : "");
      el.children[5].classList.toggle("button", Boolean(view && view.button === seat));
    }
    showCards(this.el.board, view ? view.board : "");
    if (!view) {
      setText(this.el.pots, "waiting for a hand");
      setText(this.el.result, "");
      return;
    }
    // a stud view (E7) gives the total only: its pots are not split out while the hand plays
    const pots = (view.pots || []).map((p, i) => (i === 0 ? "pot" : `side pot ${i}`) + ` ${p.amount}`);
    setText(this.el.pots, `total ${view.pot_total}` + (pots.length ? ` \u2014 ${pots.join(", ")}` : ""));
    if (view.is_over && view.result) {
      const nameOf = (s) => state.nameOf(s);
      setText(this.el.result, view.result.pots.map((p) => describeAward(p, nameOf)).join("\n"));
    } else {
      setText(this.el.result, "");
    }
  }

  drawClock() {
    const { state } = this;
    const left = state.remainingMs(performance.now());
    const seat = state.view && state.view.clock ? state.view.clock.seat : null;
    for (const [number, el] of this.seatEls) {
      const text = number === seat && left !== null ? `${(left / 1000).toFixed(1)} s` : "";
      setText(el.children[4], text);
    }
  }

  drawLog() {
    const log = this.state.log;
    const last = log.length ? log[log.length - 1].seq : -1;
    if (last === this.logSeq && this.el.log.childElementCount === log.length) return;
    this.logSeq = last;
    const items = log.slice().reverse().map((line) => {
      const li = document.createElement("li");
      li.textContent = line.text;
      return li;
    });
    this.el.log.replaceChildren(...items);
  }
}

function holeCount(state) {
  const game = state.settings && state.settings.game;
  return (game && game.variant && game.variant.hole_cards) || 4;
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
