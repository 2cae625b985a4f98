// cogwork table page: draws what the server sends for this seat; sends answers. No build step, no CDN.
"use strict";
(function () {
  const parts = location.pathname.split("/");          // /t/TABLE/TOKEN
  const table = parts[2], token = parts[3];
  let state = null, socket = null, retry = 500;
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else if (k.startsWith("on")) node[k] = v; else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }
  const seatName = (s) => (s === state.seat ? "You" : "P" + (s + 1));
  const name = (id) => state.names[id] || id;

  function showCard(title, text) { $("card").textContent = title + (text ? "\n\n" + text : ""); }

  function item(it) {
    const text = state.cards[it.id] || "";
    const node = el("span", {class: "item", "data-uid": it.uid, title: text}, it.name);
    node.onmouseenter = () => showCard(it.name, text);
    node.onclick = () => showCard(it.name, text);
    return node;
  }

  function grid(items, spec) {
    const xs = items.map((i) => i[spec.x]), ys = items.map((i) => i[spec.y]);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const node = el("div", {class: "grid", style: `grid-template-columns: repeat(${maxX - minX + 1}, auto)`});
    for (const it of items) {
      const row = spec.origin === "bottom" ? maxY - it[spec.y] : it[spec.y] - minY;
      const value = spec.show ? it[spec.show] : "";
      const cell = el("div", {class: "cell v-" + value, title: it.name,
                              style: `grid-column: ${it[spec.x] - minX + 1}; grid-row: ${row + 1}`},
                      spec.show && value && value !== 0 ? String(value) : "");
      node.append(cell);
    }
    return node;
  }

  function zone(id, items) {
    const spec = (state.layout.zones || {})[id] || {as: "list"};
    const node = el("div", {class: "zone as-" + spec.as, "data-zone": id}, el("h3", {}, name(id)));
    if (spec.as === "off") return null;
    if (!Array.isArray(items)) {
      // hidden: how many items the seat may not see (null: how many is secret too)
      node.append(el("span", {class: "hidden-items"}, items.hidden === null ? "hidden" : items.hidden + " hidden"));
    } else if (spec.as === "grid" && items.length) {
      node.append(grid(items, spec));
    } else {
      node.append(items.length ? el("div", {class: "items"}, ...items.map(item)) : el("span", {class: "hidden-items"}, "empty"));
    }
    return node;
  }

  function counters(values) {
    const box = el("div", {class: "counters"});
    for (const [id, v] of Object.entries(values)) {
      const spec = (state.layout.counters || {})[id];
      if (spec && spec.as === "track") {
        const track = el("span", {class: "track"});
        for (let i = spec.min || 0; i <= (spec.max || v); i++) track.append(el("span", {class: i === v ? "on" : ""}, String(i)));
        box.append(el("span", {class: "counter", "data-counter": id}, el("b", {}, name(id) + ": "), track));
      } else if (v) {
        box.append(el("span", {class: "counter", "data-counter": id}, el("b", {}, name(id) + ": "), String(v)));
      }
    }
    return box;
  }

  function dice(pools) {  // dice pools (a pack's `dice` section): each die's face, on the table
    const box = el("div", {class: "dice"});
    for (const [id, faces] of Object.entries(pools || {})) {
      box.append(el("span", {class: "pool", "data-dice": id}, el("b", {}, name(id) + ": "),
                    ...faces.map((f) => el("span", {class: "die"}, String(f)))));
    }
    return box;
  }

  function area(title, data, mine) {
    const node = el("div", {class: "area" + (mine ? " mine" : "")}, el("h2", {}, title), counters(data.counters));
    if (data.dice) node.append(dice(data.dice));
    for (const [id, items] of Object.entries(data.zones)) {
      if (!Array.isArray(items) && items.hidden === 0) continue;
      const drawn = zone(id, items);
      if (drawn) node.append(drawn);
    }
    return node;
  }

  function drawDecision() {
    const box = $("decision");
    box.replaceChildren();
    const d = state.decision;
    $("decision-panel").classList.toggle("waiting", !d);
    const drawnAt = state.version;   // a button answers the decision it was drawn for, not a later one
    if (d) {
      box.append(el("p", {id: "prompt"}, d.prompt));
      const opts = el("div", {class: "options"});
      for (const o of d.options) {
        const b = el("button", {class: "option", type: "button", "data-index": o.index, "data-label": o.label, title: o.text},
                     o.short, o.text ? el("div", {class: "rules"}, o.text) : null);
        b.onmouseenter = () => showCard(o.short, o.text);
        b.onclick = () => send({type: "answer", index: o.index, version: drawnAt});
        opts.append(b);
      }
      box.append(opts);
    } else if (state.to_move !== null) {
      box.append(el("p", {}, "Waiting for " + seatName(state.to_move) + "…"));
    } else {
      box.append(el("p", {}, "The game is over."));
    }
    $("undo").disabled = !state.can_undo;
  }

  function drawResult() {
    const r = state.result, box = $("result");
    box.hidden = !r;
    if (!r) return;
    const rows = r.scores.slice().sort((a, b) => b.score - a.score).map((s) =>
      el("tr", {}, el("td", {}, seatName(s.seat)), el("td", {}, String(s.score)),
         el("td", {}, Object.entries(s.breakdown || {}).map(([k, v]) => k + " " + v).join(", "))));
    const winners = r.winners.map(seatName).join(", ") || "nobody";
    box.replaceChildren(el("h2", {}, "Final result: " + (r.verdict === "draw" ? "a draw" : "won by " + winners)),
                        el("table", {class: "scores"}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Score"), el("th", {}, "Details")), ...rows));
  }

  function draw() {
    document.title = state.pack + " — seat " + (state.seat + 1);
    $("title").textContent = state.pack + " · table " + state.table + " · you are seat " + (state.seat + 1);
    $("status").textContent = state.result ? "game over" : state.decision ? "your turn" :
      state.to_move === null ? "" : seatName(state.to_move) + " to move";
    drawDecision();
    drawResult();
    const board = $("board");
    board.replaceChildren(area("Table", state.view, false));
    const players = state.view.players.slice().sort((a, b) => (a.seat === state.seat ? -1 : b.seat === state.seat ? 1 : a.seat - b.seat));
    for (const p of players) board.append(area(seatName(p.seat) + " (seat " + (p.seat + 1) + ", " + state.seats[p.seat].kind + ")", p, p.seat === state.seat));
    const log = $("log");  // newest last
    log.replaceChildren(...state.events.map((e) => el("li", {class: e.new ? "new" : ""}, e.text)));
    log.scrollTop = log.scrollHeight;
  }

  function message(text) {
    const m = $("message");
    m.textContent = text;
    m.hidden = !text;
  }

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) { message(""); socket.send(JSON.stringify(msg)); }
    else message("not connected: reconnecting…");
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/${table}/${token}`);
    socket.onopen = () => { retry = 500; };
    socket.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "refused") message(msg.message);
      else if (msg.type === "state") { state = msg; draw(); document.body.dataset.version = String(state.version); }
    };
    socket.onclose = () => { $("status").textContent = "disconnected: reconnecting…"; setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); };
  }

  $("undo").onclick = () => send({type: "undo", version: state.version});
  connect();
})();
