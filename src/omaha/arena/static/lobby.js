// The lobby: every table (the server's `tables` message) with a link to watch it, on the
// page of the process that plays it (an arena of several processes).

// ws://host:port/path -> http://host:port/path/?table=N; this page's own when the owner
// is this server or not known (between owners).
export function pageOf(owner, table) {
  const own = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}`;
  if (!owner || owner.replace(/\/$/, "") === own) return `/?table=${table}`;
  const http = owner.replace(/^ws(s?):/, "http$1:").replace(/\/?$/, "/");
  return `${http}?table=${table}`;
}

export function drawLobby(tables) {
  const body = document.querySelector("#tables tbody");
  const rows = tables.map((entry) => {
    const tr = document.createElement("tr");
    tr.dataset.table = String(entry.table);
    const game = entry.game || {};
    const variant = (game.variant && game.variant.name) || "";
    const cells = [`Table ${entry.table}`, `${variant}, ${game.structure || ""} ${game.small_blind}/${game.big_blind}`,
      `${entry.players} / ${entry.seats}`, String(entry.seats_free), String(entry.buy_in)];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const td = document.createElement("td");
    const link = document.createElement("a");
    link.href = pageOf(entry.owner, entry.table);
    link.textContent = entry.seats_free > 0 ? "watch or play" : "watch";
    td.append(link);
    tr.append(td);
    return tr;
  });
  body.replaceChildren(...rows);
}
