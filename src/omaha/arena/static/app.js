// The page's entry: the lobby at /, a table at /?table=N (watched, or played from the seat
// this tab holds). The seat's token lives in this tab's session storage, never in a URL.

import { Connection, arenaUrl, serverMessageTypes } from "./connection.js";
import { Controls } from "./controls.js";
import { HistoryPane } from "./history.js";
import { drawLobby } from "./lobby.js";
import { Renderer } from "./render.js";
import { TableState } from "./state.js";

const statusEl = document.getElementById("status");
const noticeEl = document.getElementById("notice");

function notice(text) {
  noticeEl.textContent = text;
  noticeEl.hidden = !text;
}

function setStatus(text) {
  statusEl.textContent = text;
  statusEl.dataset.state = text.split(" ")[0];
}

function fourColourPreference() {
  const box = document.getElementById("four-colour");
  box.checked = localStorage.getItem("omaha.fourColour") === "1";
  document.body.classList.toggle("four-colour", box.checked);
  box.addEventListener("change", () => {
    localStorage.setItem("omaha.fourColour", box.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", box.checked);
  });
}

// A token for `join`, drawn here so a join repeated after a lost reply is the same seat.
function drawToken() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const seatKey = (table) => `omaha.seat.${table}`;

function loadSeat(table) {
  try {
    return JSON.parse(sessionStorage.getItem(seatKey(table)) || "null");
  } catch {
    return null;
  }
}

function saveSeat(table, seat) {
  if (seat) sessionStorage.setItem(seatKey(table), JSON.stringify(seat));
  else sessionStorage.removeItem(seatKey(table));
}

function lobby(knownTypes) {
  document.getElementById("lobby").hidden = false;
  const connection = new Connection({
    url: arenaUrl(), knownTypes,
    hello: () => [{ type: "tables" }],
    onMessage: (message) => {
      if (message.type === "tables") drawLobby(message.tables);
      else if (message.type === "error") notice(message.message);
    },
    onStatus: setStatus, onNotice: notice,
  });
  connection.open();
  setInterval(() => connection.send({ type: "tables" }), 5000);
}

function tablePage(table, knownTypes) {
  document.getElementById("table-page").hidden = false;
  const state = new TableState(table);
  let seat = loadSeat(table);   // {token, name, joined, lastSeq} while this tab holds a seat
  let connection = null;
  let savedSeq = 0;
  const send = (message) => connection !== null && connection.send(message);
  const history = new HistoryPane(table, { send });
  const controls = new Controls(state, { send, notice });
  const seatForm = document.getElementById("seat-form");
  const leaveButton = document.getElementById("leave-seat");
  const renderer = new Renderer(state, {
    afterDraw: () => {
      controls.draw();
      seatForm.hidden = seat !== null;
      leaveButton.hidden = seat === null;
      if (seat !== null && seat.joined && state.lastSeq !== savedSeq) {   // once a frame at most
        savedSeq = seat.lastSeq = state.lastSeq;
        saveSeat(table, seat);
      }
    },
  });
  window.omahaPage = { state, renderer, history };   // read by the browser tests

  function hello() {
    if (seat === null) {
      return [{ type: "watch", table, ...(state.lastSeq ? { last_seq: state.lastSeq } : {}) }];
    }
    if (!seat.joined) return [{ type: "join", name: seat.name, table, token: seat.token }];
    // `resumed` carries no settings: the lobby says the seat count and the game
    return [{ type: "resume", token: seat.token, last_seq: Math.max(state.lastSeq, seat.lastSeq || 0) },
      { type: "tables" }];
  }

  function onMessage(message) {
    if (message.type === "error" && message.code === "replaced") {
      connection.close();   // another tab resumed this seat: it plays, this one stops
      setStatus("closed: the seat is played in another tab");
    }
    if (message.type === "error") {
      notice(`${message.message}` + (message.rule ? ` (rule ${message.rule})` : ""));
      if (seat !== null && ["bad_token", "seat_left", "table_full", "no_table", "bad_message"].includes(message.code) &&
          !(seat.joined && message.code === "bad_message")) {
        saveSeat(table, null);   // the seat is refused or gone: watch instead
        seat = null;
        connect();
      }
      renderer.schedule();
      return;
    }
    if (message.type === "history") {
      history.receive(message);
      return;
    }
    if (message.type === "joined" || message.type === "resumed") {
      seat.joined = true;
      saveSeat(table, seat);
      notice("");
    }
    if (message.type === "leaving") {
      notice(`you leave the seat when hand ${message.hand} ends`);
      return;
    }
    if (message.type === "left") {   // cashed out: this connection holds nothing now
      saveSeat(table, null);
      seat = null;
      state.apply(message);
      notice(`you left the seat with ${message.amount} chips`);
      connect();   // and watch on
      return;
    }
    if (message.type === "redirect") {
      notice(message.message);
      return;
    }
    const wasOver = Boolean(state.view && state.view.is_over);
    if (state.apply(message)) {
      renderer.schedule();
      const over = Boolean(state.view && state.view.is_over);
      if (over && !wasOver && history.live) history.refreshSoon();
    }
  }

  function connect() {
    if (connection !== null) connection.close();
    connection = new Connection({
      url: arenaUrl(), knownTypes, hello, onMessage,
      onStatus: (text) => {
        setStatus(text);
        if (text === "connected") history.refresh();
      },
      onNotice: notice,
    });
    connection.open();
  }

  seatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = document.getElementById("seat-name").value.trim();
    if (!name) return;
    seat = { token: drawToken(), name, joined: false, lastSeq: 0 };
    saveSeat(table, seat);   // before the join: a reload repeats the same join
    state.seat = null;
    connect();
  });
  leaveButton.addEventListener("click", () => {
    if (seat !== null) send({ type: "leave", token: seat.token });
  });
  renderer.schedule();
  connect();
}

async function main() {
  fourColourPreference();
  let knownTypes;
  try {
    knownTypes = await serverMessageTypes();
  } catch {
    notice("could not load the protocol schema from the server");
    return;
  }
  const table = Number(new URLSearchParams(location.search).get("table"));
  if (Number.isInteger(table) && table >= 1) tablePage(table, knownTypes);
  else lobby(knownTypes);
}

main();
