// The WebSocket to the arena: JSON frames in and out, "reconnecting" with back-off when the
// connection drops, and a notice for frames the page does not understand.

const MAX_BACKOFF_MS = 5000;

export class Connection {
  // hello(): the messages to send on every (re)connection (join, resume, watch...);
  // onMessage(msg): a parsed message whose type the schema knows;
  // onStatus(text): "connecting", "connected", "reconnecting in 1 s"...;
  // onNotice(text): a frame that was not understood.
  constructor({ url, knownTypes, hello, onMessage, onStatus, onNotice }) {
    this.url = url;
    this.knownTypes = knownTypes;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onNotice = onNotice;
    this.backoff = 250;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
  }

  open() {
    this.stopped = false;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.backoff = 250;
      this.onStatus("connected");
      for (const message of this.hello()) this.send(message);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.stopped) return;
      const wait = this.backoff;
      this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
      this.onStatus(`reconnecting in ${(wait / 1000).toFixed(1)} s`);
      this.timer = setTimeout(() => this.open(), wait);
    });
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      this.onNotice("ignored a frame that is not JSON");
      return;
    }
    if (message === null || typeof message !== "object" || !this.knownTypes.has(message.type)) {
      this.onNotice(`ignored a message of unknown type ${String(message && message.type).slice(0, 40)}`);
      return;
    }
    this.onMessage(message);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // Close for good (a new connection takes over, e.g. a spectator taking a seat).
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

// The server message types the shipped JSON Schema names (served as /schema.json).
export async function serverMessageTypes() {
  const response = await fetch("/schema.json");
  const schema = await response.json();
  const types = new Set();
  for (const option of schema.$defs.server_message.oneOf) {
    const kind = option.properties && option.properties.type && option.properties.type.const;
    if (kind) types.add(kind);
  }
  return types;
}

// ws://host:port of the page's own server.
export function arenaUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/`;
}
