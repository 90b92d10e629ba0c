// The player's controls: fold, check/call, raise (the range is the server's legal actions,
// never computed here), show and muck, by mouse or keyboard (F, C, R then Enter, S, M).

export class Controls {
  // send(message) sends an act; notice(text) shows a line to the user.
  constructor(state, { send, notice }) {
    this.state = state;
    this.send = send;
    this.notice = notice;
    this.el = {
      box: document.getElementById("controls"),
      fold: document.getElementById("act-fold"),
      call: document.getElementById("act-call"),
      raise: document.getElementById("act-raise"),
      raiseTo: document.getElementById("raise-to"),
      range: document.getElementById("raise-range"),
      show: document.getElementById("act-show"),
      muck: document.getElementById("act-muck"),
    };
    this.decision = null;   // the decision the controls were last set up for
    this.el.fold.addEventListener("click", () => this.act("fold"));
    this.el.call.addEventListener("click", () => this.act("check_or_call"));
    this.el.raise.addEventListener("click", () => this.raise());
    this.el.show.addEventListener("click", () => this.act("show"));
    this.el.muck.addEventListener("click", () => this.act("muck"));
    this.el.raiseTo.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); this.raise(); }
      if (event.key === "Escape") this.el.raiseTo.blur();
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    const legal = this.state.legal();
    if (!legal) return;
    const key = event.key.toLowerCase();
    if (key === "f" && legal.can_fold) this.act("fold");
    else if (key === "c") this.act("check_or_call");
    else if (key === "r" && legal.min_raise_to !== null) {
      event.preventDefault();
      this.el.raiseTo.focus();
      this.el.raiseTo.select();
    } else if (key === "s" && legal.can_show) this.act("show");
    else if (key === "m" && legal.can_muck) this.act("muck");
    else return;
    event.preventDefault();
  }

  act(action, to) {
    const message = { type: "act", action, hand: this.state.hand };
    if (this.state.decision !== null) message.decision = this.state.decision;
    if (to !== undefined) message.to = to;
    if (!this.send(message)) this.notice("not connected; the action was not sent");
  }

  raise() {
    const text = this.el.raiseTo.value.trim();
    if (!/^[0-9]+$/.test(text)) {
      this.notice("enter the total to raise to, in whole chips");
      return;
    }
    this.act("bet_or_raise", Number(text));
  }

  // Called after every draw: show the controls for this tab's turn only.
  draw() {
    const legal = this.state.legal();
    const el = this.el;
    el.box.hidden = !legal;
    if (!legal) { this.decision = null; return; }
    const betting = legal.min_raise_to !== null || legal.can_fold || legal.can_check || legal.call_amount > 0;
    el.fold.hidden = !legal.can_fold;
    el.call.hidden = !betting;
    el.call.firstChild.textContent = legal.can_check ? "Check " : `Call ${legal.call_amount} `;
    const canRaise = legal.min_raise_to !== null;
    el.raise.hidden = !canRaise;
    el.raiseTo.parentElement.hidden = !canRaise;
    el.range.textContent = canRaise ? `${legal.min_raise_to} to ${legal.max_raise_to}` : "";
    el.show.hidden = !legal.can_show;
    el.muck.hidden = !legal.can_muck;
    if (this.state.decision !== this.decision) {   // a new decision: start at the minimum
      this.decision = this.state.decision;
      if (canRaise) {
        el.raiseTo.min = String(legal.min_raise_to);
        el.raiseTo.max = String(legal.max_raise_to);
        el.raiseTo.value = String(legal.min_raise_to);
      }
    }
  }
}
