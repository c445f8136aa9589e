// A game a person can follow, on top of app.js (loaded after it, sharing its globals): the
// fights marked on the board, the opponent's events played back one by one, several things
// chosen by clicks before anything is sent, the game's end with a rematch and its log, a long
// graveyard folded, and the replay's autoplay. Every choice the page offers is one the server
// listed (the menu's entries and their marks): no rule of the game is written here.
"use strict";

const PACE = 900; // ms an event of the opponent's stays alone in sight
const FOLDED = 3; // a graveyard longer than this shows its top card and a count
const opened = new Set(); // the graveyards a person unfolded, by player

// -- the board: fights, words, graveyards -----------------------------------------------------

function unitOf(ref) {
  return [...document.querySelectorAll("#board .unit")].find((n) => n.dataset.keys.split(" ").includes(`unit:${ref}`));
}

function markFights(board) {
  const units = board.players.flatMap((p) => p.field);
  let pair = 0;
  for (const attacker of units.filter((u) => u.attacking)) {
    pair += 1;
    const node = unitOf(attacker.ref);
    const blockers = units.filter((u) => u.blocking === attacker.ref);
    if (!node) continue;
    node.classList.add("fight", `fight-${((pair - 1) % 4) + 1}`);
    const said = blockers.length
      ? say("app", "blocked by", { blockers: blockers.map((b) => (b.face_up ? b.ref : say("app", "face-down unit", { name: b.name }))).join("・") })
      : say("app", "unblocked");
    node.append(el("div", "fight-tag", say("app", "fight", { pair, said })));
    for (const blocker of blockers) {
      const other = unitOf(blocker.ref);
      if (!other) continue;
      other.classList.add("fight", `fight-${((pair - 1) % 4) + 1}`);
      other.append(el("div", "fight-tag", say("app", "fight", { pair, said: say("app", "blocks", { attacker: attacker.ref }) })));
    }
  }
}

function keepWords() {
  // a state is one word: the line breaks between words, never inside one (アタッ/ク中)
  for (const line of document.querySelectorAll("#board .unit-state")) {
    const words = line.textContent.split("・");
    // the dot ends a word: a line may break after it, never before (it cannot start a line)
    line.replaceChildren(...words.map((word, n) => el("span", "word", n < words.length - 1 ? `${word}・` : word)));
  }
}

function foldGraveyards() {
  for (const player of document.querySelectorAll("#board .player")) {
    const name = player.dataset.keys;
    for (const pile of player.querySelectorAll(".pile")) {
      const title = pile.querySelector(".pile-title");
      const cards = [...pile.querySelectorAll(".cards > .card")];
      if (!title || !title.textContent.startsWith(say("table", "graveyard")) || cards.length <= FOLDED) continue;
      const fold = el("button", "fold", "");
      fold.type = "button";
      const draw = () => {
        const open = opened.has(name);
        cards.forEach((card, n) => {
          card.hidden = !open && n < cards.length - 1; // the top card is the last one
        });
        fold.textContent = open ? say("app", "fold") : say("app", "unfold", { rest: cards.length - 1, count: cards.length });
        fold.setAttribute("aria-expanded", String(open));
      };
      fold.addEventListener("click", () => {
        if (opened.has(name)) opened.delete(name);
        else opened.add(name);
        draw();
      });
      draw();
      pile.append(fold);
    }
  }
}

const drawBoard = renderBoard;
renderBoard = function renderBoardFollowed(board, me) {
  drawBoard(board, me);
  markFights(board);
  keepWords();
  foldGraveyards();
};

// -- the end of a game ------------------------------------------------------------------------

function endingNode(ending, me) {
  const box = el("section", "ending");
  box.append(el("p", "ending-result", say("results", "ended", { outcome: outcome(ending.winner, me) })), el("p", "ending-reason", ending.reason));
  return box;
}

async function saveLog() {
  download(await api(`/api/seat/${key}/log`), "application/x-ndjson", `game-${state.decision}.jsonl`);
}

async function watchReplay() {
  const opened = await post("/api/replays", await api(`/api/seat/${key}/log`), true);
  window.location.assign(opened.page);
}

async function rematch() {
  const made = await post(`/api/seat/${key}/rematch`, {});
  window.backend.open(window.hotseat ? await window.hotseat.rematch(made.page) : made.page);
}

function button(text, className, action) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", () => action().then(() => showError(""), (error) => showError(error.message)));
  return node;
}

function showEnding() {
  const box = document.getElementById("menu");
  box.replaceChildren(endingNode(state.ending, state.seat));
  const tools = el("p", "ending-tools");
  tools.append(button(say("app", state.rematch ? "rematch started" : "rematch"), "rematch", rematch));
  if (state.can_save_log) {
    tools.append(button(say("app", "save log"), "save-log", saveLog));
    if (window.backend.replays) tools.append(button(say("app", "watch log"), "watch-log", watchReplay));
  } else {
    tools.append(el("span", "note", say("app", "no log")));
  }
  box.append(tools);
  if (state.match) box.append(matchNode(state)); // match.js
  if (!state.rematch && state.people === 2 && !window.hotseat) poller = setTimeout(refresh, 2000); // the other's rematch
}

// -- the opponent's events, one by one --------------------------------------------------------

const playback = { seen: new Map(), timer: null, left: [] };

function newLines(lines) {
  // the lines since this seat's page last drew (the log keeps its last 300: match the end seen)
  const before = playback.seen.get(key);
  playback.seen.set(key, lines.slice(-20));
  if (!before || !before.length) return 0;
  for (let start = lines.length - before.length; start >= 0; start -= 1) {
    if (before.every((line, n) => lines[start + n] === line)) return lines.length - start - before.length;
  }
  return 0;
}

function stopPlayback() {
  clearTimeout(playback.timer);
  for (const item of playback.left) item.hidden = false;
  playback.left = [];
  const box = document.getElementById("playback");
  if (box) box.remove();
}

function finishPlayback() {
  // the table as it is now, drawn again over the last board played back
  stopPlayback();
  renderBoard(state.board, state.seat);
  if (state.ending) showEnding();
  else {
    renderMenu();
    drawPicking();
  }
}

function playBack(count) {
  const items = [...document.querySelectorAll("#log li")].slice(-count);
  if (items.length < 2 || !state.log.slice(-count).some((line) => !line.startsWith(`${state.seat}:`) && /^p[12]:/.test(line))) return;
  const box = el("div", "playback");
  box.id = "playback";
  box.setAttribute("role", "status");
  const line = el("p", "playback-line", "");
  const skip = el("button", "skip", say("app", "skip"));
  skip.type = "button";
  skip.addEventListener("click", finishPlayback);
  box.append(el("span", "playback-title", say("app", "playback")), line, skip);
  document.body.append(box);
  for (const item of items) {
    item.hidden = true;
    item.classList.add("fresh");
  }
  playback.left = items;
  let said = state.said - count; // the log's lines said before the first one played back
  const next = () => {
    const item = playback.left.shift();
    if (!item) {
      finishPlayback();
      return;
    }
    said += 1;
    // the board after the decision that said this line (the server's frames: the seat's own view)
    const shown = (state.frames || []).find((f) => f.said >= said);
    if (shown) renderBoard(shown.board, state.seat);
    item.hidden = false;
    line.textContent = item.textContent;
    document.getElementById("log").scrollTop = document.getElementById("log").scrollHeight;
    playback.timer = setTimeout(next, PACE);
  };
  next();
}

// -- choosing several things ------------------------------------------------------------------

const picking = { decision: null, chosen: "", picked: [] };

function markSet(node) {
  const keys = [];
  for (let n = node; n; n = n.parentElement.closest("[data-keys]")) keys.push(...n.dataset.keys.split(" "));
  return keys;
}

// A later step whose entries each use several cards (a payment of $DD): the cards are toggled
// on the board, and each click leaves only the entries that use every card picked so far. The
// first step's entries are whole options, not one part's cards: an action with two key cards
// beside エンド and パス (marks none) is chosen by its entry, with no picking bar.
function toggledStep(menu) {
  return menu && menu.chosen.length > 0 && menu.entries.some((entry) => entry.marks.length > 1) && menu.entries.every((entry) => entry.marks.every((m) => m.startsWith("card:")));
}

function fits(marks) {
  return picking.picked.every((m) => marks.includes(m));
}

function freshPicking(menu) {
  const at = `${state.decision}/${menu ? menu.chosen.join("›") : ""}`;
  if (picking.decision !== at) {
    picking.decision = at;
    picking.picked = [];
  }
}

function drawPicking() {
  const menu = state.menu;
  for (const node of document.querySelectorAll(".picked")) node.classList.remove("picked");
  const several = menu && menu.several;
  const candidates = several ? several.items : toggledStep(menu) ? menu.entries : [];
  if (!candidates.length) return; // a one-pick step: renderMenu marked what its entries pick
  for (const node of document.querySelectorAll(".pickable")) node.classList.remove("pickable");
  const open = several ? candidates : candidates.filter((entry) => fits(entry.marks));
  const marks = new Set(open.flatMap((entry) => entry.marks));
  for (const node of document.querySelectorAll("#board [data-keys]")) {
    const own = node.dataset.keys.split(" ");
    if (picking.picked.some((m) => own.includes(m))) node.classList.add("picked");
    else if (own.some((m) => marks.has(m)) && !node.querySelector("[data-keys].card")) node.classList.add("pickable");
  }
  const box = document.getElementById("menu");
  let bar = box.querySelector(".picking");
  if (!bar) {
    bar = el("div", "picking");
    box.querySelector(".entries").before(bar);
  }
  const exact = several ? null : open.find((entry) => entry.marks.length === picking.picked.length);
  const names = picking.picked.map((m) => document.querySelector(`[data-keys~="${m}"] .card, .card[data-keys="${m}"]`)).map((n) => (n ? n.textContent : "?"));
  bar.replaceChildren(el("span", "", picking.picked.length ? say("app", "picked", { names: names.join(" ") }) : say("app", several ? "pick several" : "pick one")));
  if (!several) {
    for (const row of box.querySelectorAll(".entry-row")) {
      const entry = menu.entries.find((e) => e.value === row.querySelector(".entry").dataset.value);
      row.hidden = !fits(entry.marks);
    }
  }
  if (exact) bar.append(button(say("app", "decide", { entry: exact.text }), "send-picked", async () => step(exact.value)));
  if (several && picking.picked.length) bar.append(button(say("app", "decide several", { count: picking.picked.length }), "send-picked", sendSeveral));
  if (picking.picked.length) {
    bar.append(
      button(say("app", "unpick"), "unpick", async () => {
        picking.picked.pop();
        drawPicking();
      }),
    );
  }
}

async function sendSeveral() {
  // one decision after another, each found in the menu the server sends back (with one pick
  // left the menu lists it as a plain entry), then the answer that ends the choice
  const wanted = [...picking.picked];
  const done = state.menu.several.done;
  picking.picked = [];
  for (const mark of wanted) {
    const menu = state.menu;
    const item = menu && menu.several && menu.several.items.find((i) => i.marks.includes(mark));
    const entry = menu && !item && menu.entries.find((e) => e.marks.includes(mark));
    if (item) await send("choose", item.chosen, item.chosen.map(() => false));
    else if (entry) await send("choose", [...menu.chosen, entry.value], [...menu.auto, false]);
    else break;
  }
  const menu = state.menu;
  if (menu && menu.chosen.length === 0 && menu.entries.some((e) => e.value === done)) await send("choose", [done], [false]);
}

document.addEventListener(
  "click",
  (event) => {
    const menu = state && state.menu;
    if (kind !== "play" || !menu || !event.target.closest("#board")) return;
    if (event.target.closest("button")) return; // the board's own buttons (a trump's ?, a fold) pick nothing
    const several = menu.several;
    if (!several && !toggledStep(menu)) return;
    const keys = markSet(event.target.closest("[data-keys]") || event.target);
    event.stopPropagation(); // app.js's click: one entry at once
    const candidates = several ? several.items : menu.entries;
    const already = picking.picked.find((m) => keys.includes(m));
    if (already) picking.picked = picking.picked.filter((m) => m !== already);
    else {
      const room = candidates.filter((entry) => (several ? true : fits(entry.marks)));
      const mark = room.flatMap((entry) => entry.marks).find((m) => keys.includes(m) && !picking.picked.includes(m));
      if (mark) picking.picked.push(mark);
    }
    const left = several ? [] : candidates.filter((entry) => fits(entry.marks));
    if (left.length === 1) step(left[0].value); // settled: taken as a click naming one entry is
    else drawPicking();
  },
  true,
);

// -- the table's page: render with all of the above -------------------------------------------

const drawTable = render;
render = function renderFollowed(next) {
  stopPlayback();
  const fresh = newLines(next.log);
  drawTable(next);
  freshPicking(next.menu);
  if (next.ending) showEnding();
  else drawPicking();
  if (fresh > 1 && !next.ending) playBack(fresh); // a finished game shows its end at once
};

const backOne = goBack;
goBack = function goBackFollowed() {
  if (picking.picked.length) {
    picking.picked.pop();
    drawPicking();
    return;
  }
  backOne();
};

// -- the replay viewer: autoplay --------------------------------------------------------------

function startAutoplay() {
  const controls = document.getElementById("controls");
  if (!controls) return;
  let timer = null;
  const play = el("button", "autoplay", say("app", "autoplay"));
  play.type = "button";
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = say("app", "autoplay");
    play.setAttribute("aria-pressed", "false");
  };
  play.addEventListener("click", () => {
    if (timer) {
      stop();
      return;
    }
    play.textContent = say("app", "pause");
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (!frame || frame.step >= frame.steps) stop();
      else showFrame(frame.step + 1);
    }, PACE);
  });
  controls.querySelector(".steps").after(play);
}

const drawFrame = showFrame;
showFrame = async function showFrameFollowed(at) {
  await drawFrame(at);
  const old = document.querySelector("#controls .ending");
  if (old) old.remove();
  if (frame && frame.ending && frame.step === frame.steps) document.getElementById("controls").append(endingNode(frame.ending, null));
};

if (kind === "replay") document.addEventListener("DOMContentLoaded", startAutoplay);
