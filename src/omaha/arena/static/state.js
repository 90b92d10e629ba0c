// What the page knows of one table: the latest view the server sent, the players' names,
// the last actions and the seat this tab plays (if any). Updating it is cheap and never
// touches the page; the renderer reads it once per animation frame.

const LOG_LINES = 40;
const STREETS = { 1: "flop", 2: "turn", 3: "river" };

export class TableState {
  constructor(table) {
    this.table = table;
    this.view = null;          // the server's view of the hand (clocked_view), or null
    this.viewAt = 0;           // performance.now() when the view arrived (for the clock)
    this.names = {};           // seat (string) -> name
    this.hand = 0;
    this.decision = null;
    this.lastSeq = 0;
    this.seat = null;          // this tab's seat once joined or resumed
    this.settings = null;
    this.log = [];             // [{seq, text}], the last LOG_LINES actions
    this.messages = 0;         // messages applied (for tests and the heap benchmark)
    this.version = 0;          // bumped by every change: the renderer draws when it moved
  }

  nameOf(seat) {
    return this.names[String(seat)] || `seat ${seat}`;
  }

  // Apply one server message; returns true when the table's picture changed.
  apply(message) {
    this.messages += 1;
    switch (message.type) {
      case "joined":
      case "resumed":
        this.seat = message.seat;
        if (message.settings) this.settings = message.settings;
        break;
      case "watching":
        this.settings = message.settings;
        break;
      case "tables": {   // the lobby: the seat count and game when no settings came (resumed)
        const entry = message.tables.find((t) => t.table === this.table);
        if (!entry || this.settings) return false;
        this.settings = { seats: entry.seats, game: entry.game, buy_in: entry.buy_in };
        break;
      }
      case "update":
        this.applyUpdate(message);
        break;
      case "left":
        if (message.seat === this.seat) this.seat = null;
        this.addLine(this.lastSeq, `you left the seat with ${message.amount} chips`);
        break;
      default:
        return false;
    }
    this.version += 1;
    return true;
  }

  applyUpdate(message) {
    this.hand = message.hand;
    this.decision = message.decision;
    if (message.names) this.names = message.names;
    if (message.view !== undefined) {
      this.view = message.view;
      this.viewAt = performance.now();
    }
    for (const item of message.events) {
      if (item.seq <= this.lastSeq) continue;
      this.lastSeq = item.seq;
      const text = describe(item.event, (s) => this.nameOf(s));
      if (text) this.addLine(item.seq, `#${item.hand} ${text}`);
    }
  }

  addLine(seq, text) {
    this.log.push({ seq, text });
    if (this.log.length > LOG_LINES) this.log.splice(0, this.log.length - LOG_LINES);
  }

  // The legal actions when it is this tab's turn (the server's, never computed here).
  legal() {
    const view = this.view;
    return view && this.seat !== null && view.seat === this.seat ? view.legal : null;
  }

  // Milliseconds left on the action clock now, or null.
  remainingMs(now) {
    const clock = this.view && this.view.clock;
    if (!clock || clock.remaining_ms === null || clock.seat === null) return null;
    return Math.max(0, clock.remaining_ms - (now - this.viewAt));
  }
}

// One event as a line of the log (null: not worth a line).
export function describe(event, nameOf) {
  switch (event.type) {
    case "hand_started": return `hand starts, button ${nameOf(event.button)}`;
    case "posted": return `${nameOf(event.seat)} posts ${event.what.replace("_", " ")} ${event.amount}`;
    case "board_dealt": return `${STREETS[event.street] || "board"}: ${event.cards}`;
    case "folded": return `${nameOf(event.seat)} folds`;
    case "checked": return `${nameOf(event.seat)} checks`;
    case "called": return `${nameOf(event.seat)} calls ${event.amount}`;
    case "bet_or_raised": return `${nameOf(event.seat)} bets/raises to ${event.to}`;
    case "timed_out": return `${nameOf(event.seat)} ran out of time`;
    case "protected_all_in": return `${nameOf(event.seat)} is all-in, protected`;
    case "shown": return `${nameOf(event.seat)} shows ${event.cards}`;
    case "mucked": return `${nameOf(event.seat)} mucks`;
    case "returned": return `${event.amount} returned to ${nameOf(event.seat)}`;
    case "pot_awarded": return describeAward(event, nameOf);
    default: return null;
  }
}

// "pot 1 (40): high ann 20, low bob 20"
export function describeAward(event, nameOf) {
  const halves = [];
  if (event.high.length) halves.push("high " + event.high.map(([s, a]) => `${nameOf(s)} ${a}`).join(", "));
  if (event.low.length) halves.push("low " + event.low.map(([s, a]) => `${nameOf(s)} ${a}`).join(", "));
  return `pot ${event.pot + 1} (${event.amount}): ${halves.join("; ")}`;
}
