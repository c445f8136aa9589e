// The browser app of `blackpoker serve`: the lobby, a seat's table and the replay viewer.
// Everything shown comes from the server's JSON, by way of the page's back end (backend_server.js,
// or backend_pyodide.js on the static play page); text goes in with textContent only.
"use strict";

const body = document.body;
let kind = body.dataset.kind;
let key = body.dataset.key; // hot-seat (hotseat.js) switches it between the two seats

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function api(path, options) {
  return window.backend.request(path, options);
}

function post(path, data, raw) {
  return api(path, {
    method: "POST",
    headers: { "Content-Type": raw ? "application/x-ndjson" : "application/json" },
    body: raw ? data : JSON.stringify(data),
  });
}

// -- cards and the board ----------------------------------------------------------------------

function cardNode(card) {
  const node = el("span", `card suit-${card.suit}`, card.label);
  node.dataset.keys = `card:${card.id}`;
  return node;
}

function backNode(text) {
  return el("span", "card back", text || "");
}

function pile(title, cards, extra) {
  const box = el("div", "pile");
  box.append(el("span", "pile-title", title));
  const row = el("span", "cards");
  for (const card of cards) row.append(cardNode(card));
  if (extra) row.append(extra);
  box.append(row);
  return box;
}

function unitNode(unit) {
  const node = el("div", `unit ${unit.charged ? "charged" : "driven"}${unit.face_up ? "" : " face-down"}`);
  node.dataset.keys = [`unit:${unit.ref}`, ...unit.cards.map((c) => `card:${c.id}`)].join(" ");
  const cards = el("div", "unit-cards");
  if (unit.cards.length) for (const card of unit.cards) cards.append(cardNode(card));
  else cards.append(backNode(say("table", "back")));
  node.append(cards);
  const word = (name, values) => say("board", name, values || {});
  const states = [word(unit.charged ? "charged" : "driven")];
  if (unit.new) states.push(word("new"));
  if (!unit.face_up) states.push(word("face down"));
  if (unit.size !== null) states.push(word("size", { size: unit.size }) + (unit.size_mod ? `(${unit.size_mod > 0 ? "+" : ""}${unit.size_mod})` : ""));
  if (unit.attacking) states.push(word("attacking"));
  if (unit.blocking) states.push(word("blocking", { target: unit.blocking }));
  node.append(el("div", "unit-name", unit.name), el("div", "unit-state", states.join("・")));
  return node;
}

function playerNode(player, mine, label) {
  const box = el("section", `player${mine ? " mine" : ""}`);
  box.dataset.keys = `player:${player.name}`;
  const head = el("h2", "player-head", `${player.name}（${label}）`);
  head.append(el("span", "count", " " + say("table", "life count", { count: player.life })));
  if (player.life_cards) head.append(el("span", "count", " ・ " + say("app", "life in order")));
  box.append(head);
  if (player.life_cards) box.append(pile(say("table", "life"), player.life_cards));
  if (player.hand) box.append(pile(say("table", "hand"), player.hand, player.hand.length ? null : el("span", "empty", say("board", "none"))));
  else {
    const backs = el("span", "cards");
    for (let i = 0; i < player.hand_count; i += 1) backs.append(backNode());
    const hand = el("div", "pile");
    hand.append(el("span", "pile-title", `${say("table", "hand")} ${say("table", "count", { count: player.hand_count })}`), backs);
    box.append(hand);
  }
  box.append(pile(say("table", player.hand ? "graveyard in order" : "graveyard top"), player.graveyard));
  for (const zone of player.zones) box.append(zoneNode(zone));
  const field = el("div", "field");
  field.append(el("span", "pile-title", say("table", "field")));
  if (!player.field.length) field.append(el("span", "empty", say("board", "none")));
  for (const unit of player.field) field.append(unitNode(unit));
  box.append(field);
  return box;
}

function requestsNode(title, requests, prefix) {
  const box = el("section", "requests");
  box.append(el("h2", "", title));
  const list = el("ol");
  requests.forEach((request, index) => {
    const item = el("li", "request");
    item.dataset.keys = `${prefix}:${index + 1}`;
    item.append(el("span", "request-name", request.name));
    for (const card of request.keys) item.append(cardNode(card));
    if (request.target) item.append(el("span", "", ` → ${request.target}`));
    item.append(el("span", "who", request.by_effect ? say("table", "by effect") : say("table", "by player", { player: request.player })));
    list.append(item);
  });
  if (!requests.length) list.append(el("li", "empty", say("board", "none")));
  box.append(list);
  return box;
}

function renderBoard(board, me) {
  const root = document.getElementById("board");
  root.replaceChildren();
  const chance = board.chance || say("board", "none");
  const status = el("p", "status", [say("table", "turn", { turn: board.turn }), say("table", "whose turn", { player: board.turn_player }), say("table", "chance", { chance })].join(" ・ "));
  if (board.result) {
    status.append(el("strong", "result", " ・ " + say("results", "ended", { outcome: outcome(board.result, me) })));
  }
  root.append(status);
  const order = me === "p2" ? [0, 1] : [1, 0]; // the opponent on top, the seat at the bottom
  const [top, bottom] = order.map((index) => board.players[index]);
  const label = (player) => (me === null ? "" : say("table", player.name === me ? "you" : "opponent"));
  root.append(playerNode(top, false, label(top) || top.name));
  const middle = el("div", "middle");
  middle.append(requestsNode(say("table", "stage in order"), board.stage, "stage"));
  if (board.resolving.length) middle.append(requestsNode(say("table", "resolving"), board.resolving, "resolving"));
  root.append(middle);
  root.append(playerNode(bottom, me !== null, label(bottom) || bottom.name));
}

function renderLog(lines) {
  const log = document.getElementById("log");
  log.replaceChildren(...lines.map((line) => el("li", line.startsWith("──") ? "turn" : "", line)));
  log.scrollTop = log.scrollHeight;
}

// -- a seat's table ---------------------------------------------------------------------------

let state = null;
let poller = null;

function renderMenu() {
  const box = document.getElementById("menu");
  box.replaceChildren();
  for (const node of document.querySelectorAll(".pickable")) node.classList.remove("pickable");
  const menu = state.menu;
  if (!menu) {
    const waiting = state.board.result ? say("results", "game over") : say("app", "waiting", { player: state.to_move });
    box.append(el("p", "question", waiting));
    return;
  }
  box.append(el("p", "question", menu.question));
  const help = el("p", "help", menu.effect);
  help.hidden = !menu.effect;
  const list = el("div", "entries");
  for (const entry of menu.entries) {
    const row = el("div", "entry-row");
    const button = el("button", "entry", entry.text);
    button.type = "button";
    button.title = entry.help;
    button.dataset.value = entry.value;
    button.dataset.marks = entry.marks.join(" ");
    button.addEventListener("click", () => step(entry.value));
    const about = el("button", "about", "?");
    about.type = "button";
    about.setAttribute("aria-label", say("app", "about", { entry: entry.text }));
    about.addEventListener("click", () => {
      help.textContent = entry.help;
      help.hidden = false;
    });
    row.append(button, about);
    list.append(row);
    for (const mark of entry.marks) {
      for (const node of document.querySelectorAll(`[data-keys]`)) {
        if (node.dataset.keys.split(" ").includes(mark)) node.classList.add("pickable");
      }
    }
  }
  box.append(list, help);
  const back = el("button", "back", say("app", "back"));
  back.type = "button";
  back.disabled = !menu.can_back;
  back.addEventListener("click", goBack);
  const typed = el("form", "command");
  const input = el("input");
  input.name = "command";
  input.placeholder = say("app", "command example");
  input.setAttribute("aria-label", say("app", "command"));
  const go = el("button", "", say("app", "send"));
  go.type = "submit";
  typed.append(input, go);
  typed.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) sendCommand(input.value.trim());
  });
  box.append(back, typed);
  cardTable(box);
}

async function sendCommand(text) {
  try {
    render(await post(`/api/seat/${key}/command`, { decision: state.decision, text }));
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

function render(next) {
  state = next;
  document.getElementById("title").textContent = `${state.title} ・ ${say("table", "you are", { seat: state.seat })}`;
  renderBoard(state.board, state.seat);
  renderMenu();
  renderLog(state.log);
  clearTimeout(poller);
  if (!state.menu && !state.board.result) poller = setTimeout(refresh, 1000); // the other person's move
}

async function refresh() {
  try {
    render(await api(`/api/seat/${key}`));
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

async function send(action, chosen, auto) {
  try {
    render(await post(`/api/seat/${key}/${action}`, { decision: state.decision, chosen, auto }));
    showError("");
  } catch (error) {
    showError(error.message);
    await refresh();
  }
}

function step(value) {
  const menu = state.menu;
  send("choose", [...menu.chosen, value], [...menu.auto, false]);
}

function goBack() {
  send("back", state.menu.chosen, state.menu.auto);
}

function boardClick(event) {
  const menu = state && state.menu;
  if (!menu) return;
  const keys = []; // a card's, and those of the character or player it belongs to
  for (let node = event.target.closest("[data-keys]"); node; node = node.parentElement.closest("[data-keys]")) {
    keys.push(...node.dataset.keys.split(" "));
  }
  if (!keys.length) return;
  const hits = menu.entries.filter((entry) => entry.marks.some((mark) => keys.includes(mark)));
  if (hits.length === 1) {
    step(hits[0].value);
    return;
  }
  for (const button of document.querySelectorAll(".entry")) {
    button.classList.toggle("hint", hits.some((entry) => entry.value === button.dataset.value));
  }
}

// A file the page was given, saved under `name` through a link followed once.
function download(text, type, name) {
  const link = el("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

async function exportScenario() {
  try {
    download(await api(`/api/seat/${key}/scenario`), "application/yaml", `position-${state.decision}.yaml`);
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

// -- the replay viewer ------------------------------------------------------------------------

let frame = null;

async function showFrame(step) {
  const who = document.getElementById("who").value;
  try {
    frame = await api(`/api/replay/${key}?step=${step}&who=${who}`);
    showError("");
  } catch (error) {
    showError(error.message);
    return;
  }
  document.getElementById("title").textContent = frame.title;
  document.getElementById("position").textContent = `${frame.step} / ${frame.steps}`;
  const slider = document.getElementById("slider");
  slider.max = String(frame.steps);
  slider.value = String(frame.step);
  renderBoard(frame.board, who === "all" ? null : who);
  renderLog(frame.log);
}

function startReplay() {
  const moves = {
    first: () => 0,
    back: () => Math.max(0, frame.step - 1),
    forward: () => Math.min(frame.steps, frame.step + 1),
    last: () => frame.steps,
  };
  for (const button of document.querySelectorAll("[data-go]")) {
    button.addEventListener("click", () => frame && showFrame(moves[button.dataset.go]()));
  }
  document.getElementById("slider").addEventListener("change", (event) => showFrame(event.target.value));
  document.getElementById("who").addEventListener("change", () => showFrame(frame ? frame.step : 0));
  document.addEventListener("keydown", (event) => {
    if (!frame || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "ArrowRight") showFrame(moves.forward());
    if (event.key === "ArrowLeft") showFrame(moves.back());
  });
  loadTrumps(`/api/replay/${key}/trumps`).then(() => showFrame(0));
}

// -- the lobby --------------------------------------------------------------------------------

async function startLobby() {
  const form = document.getElementById("new-game");
  const lobby = await api("/api/lobby");
  const fill = (select, values, chosen) => {
    // an agent by its name in words (labels.json's agents), its id the option's value
    select.replaceChildren(...values.map((value) => Object.assign(el("option", "", LABELS.agents[value] || value), { value })));
    if (values.includes(chosen)) select.value = chosen;
  };
  const rules = offerChoices(form, lobby); // lobby.js
  fill(form.opponent, lobby.agents, lobby.defaults.opponent);
  if (lobby.defaults.seed !== null) form.seed.value = String(lobby.defaults.seed);
  // a seed deals the whole game: in a game between two people the server draws a secret one
  const seeded = () => {
    form.seed.disabled = form.people.value !== "1";
  };
  form.people.addEventListener("change", seeded);
  seeded();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = {
      edition: form.edition.value,
      format: form.format.value,
      opponent: form.opponent.value,
      seat: form.seat.value,
      people: form.people.value === "1" ? 1 : 2,
    };
    if (!form.seed.disabled && form.seed.value.trim()) data.seed = Number(form.seed.value.trim());
    try {
      Object.assign(data, await rules());
      if (form.scenario.files.length) data.scenario = await form.scenario.files[0].text();
      const made = await post("/api/games", data);
      showError("");
      const seats = Object.entries(made.seats);
      if (form.people.value === "hotseat") {
        window.location.assign(hotseatPage(made.seats));
        return;
      }
      if (seats.length === 1) {
        window.backend.open(seats[0][1]);
        return;
      }
      const list = document.getElementById("link-list");
      list.replaceChildren(
        ...seats.map(([seat, path]) => {
          const item = el("li", "", `${seat}: `);
          const link = el("a", "", new URL(path, window.location.href).href);
          link.href = path;
          link.target = "_blank";
          item.append(link);
          return item;
        }),
      );
      document.getElementById("links").hidden = false;
    } catch (error) {
      showError(error.message);
    }
  });
  document.getElementById("open-replay").addEventListener("submit", async (event) => {
    event.preventDefault();
    const files = event.target.log.files;
    if (!files.length) {
      showError(say("app", "choose log"));
      return;
    }
    try {
      const opened = await post("/api/replays", await files[0].text(), true);
      window.backend.open(opened.page);
    } catch (error) {
      showError(error.message);
    }
  });
}

function startPage() {
  kind = body.dataset.kind;
  key = body.dataset.key;
  if (kind === "play") {
    document.getElementById("board").addEventListener("click", boardClick);
    document.getElementById("export").addEventListener("click", exportScenario);
    loadTrumps(`/api/seat/${key}/trumps`).then(refresh);
  } else if (kind === "replay") {
    startReplay();
  } else {
    startLobby().catch((error) => showError(error.message));
  }
}

// started once every script of the page ran: game.js and hotseat.js wrap the functions above
document.addEventListener("DOMContentLoaded", startPage);
