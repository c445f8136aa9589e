// A player's declared zones on the board (the fog, the trumps 切札, a regulation's pack), and
// the choice of a card out of a whole set (placing the trumps) as a table of cards instead of a
// list. Uses el, cardNode, backNode and pile of app.js; text goes in with textContent only.
"use strict";

let trumpAbilities = new Map(); // a card's face → {name, about}, from the rule set's trump table

// The rule set's trump table (public: the extra list prints it), asked once when a table or a
// replay opens, from its own route: the board of every poll leaves it out.
async function loadTrumps(path) {
  try {
    const table = await api(path);
    trumpAbilities = new Map(table.trumps.map((trump) => [trump.card, trump]));
  } catch (error) {
    showError(error.message);
  }
}

// A `?` that shows what a card's trump does (its name and its abilities' actions).
function aboutButton(face, shown) {
  const trump = trumpAbilities.get(face);
  if (!trump) return null;
  const button = el("button", "trump-help", "?");
  button.type = "button";
  button.setAttribute("aria-label", say("app", "trump ability", { face, name: trump.name }));
  button.title = `${trump.name}\n${trump.about}`;
  button.addEventListener("click", (event) => {
    event.stopPropagation(); // not a choice on the board
    shown.textContent = `${face} ${trump.name}: ${trump.about}`;
    shown.hidden = false;
  });
  return button;
}

function zoneNode(zone) {
  if (zone.places) return trumpZone(zone);
  if (!zone.cards) return pile(say("app", "zone count", { name: zone.name, count: zone.count }), [], zone.count ? null : el("span", "empty", say("board", "none")));
  const box = el("div", `pile zone zone-${zone.kind}`);
  box.append(el("span", "pile-title", zone.name));
  const rows = el("span", "cards");
  if (!zone.cards.length) rows.append(el("span", "empty", say("board", "none")));
  for (const card of zone.cards) {
    const row = el("span", "zone-card");
    row.append(cardNode(card));
    if (card.note) row.append(el("span", "note", card.note));
    rows.append(row);
  }
  box.append(rows);
  return box;
}

function trumpZone(zone) {
  const box = el("div", "pile zone trumps");
  const up = zone.places.filter((place) => place.face_up).length;
  box.append(el("span", "pile-title", say("app", "zone face up", { name: zone.name, count: zone.count, up })));
  const row = el("span", "cards");
  const shown = el("p", "trump-about");
  shown.hidden = true;
  if (!zone.places.length) row.append(el("span", "empty", say("board", "none")));
  for (const place of zone.places) {
    const slot = el("span", "trump");
    if (place.hidden) {
      // the opponent's face-down trump: named only by its place, as the options name it
      const back = backNode(say("table", "back"));
      back.dataset.keys = place.hidden;
      slot.append(back);
    } else {
      const node = cardNode(place);
      node.classList.add(place.face_up ? "face-up" : "face-down");
      slot.append(node, el("span", "face", say("table", place.face_up ? "face up" : "back")));
      const about = aboutButton(place.label, shown);
      if (about) slot.append(about);
    }
    row.append(slot);
  }
  box.append(row, shown);
  return box;
}

// When the rules have trumps and a step picks one card out of many that lie nowhere on the
// board (the trumps placed from the deck), the cards are laid out by suit, each with its
// trump's ability; the list stays, folded, for the keyboard.
function cardTable(box) {
  if (!trumpAbilities.size) return;
  const list = box.querySelector(".entries");
  const entries = list ? [...list.querySelectorAll(".entry")] : [];
  const onBoard = new Set();
  for (const node of document.querySelectorAll("#board [data-keys]")) {
    for (const key of node.dataset.keys.split(" ")) onBoard.add(key);
  }
  const cards = entries.filter((button) => {
    const marks = button.dataset.marks.split(" ").filter(Boolean);
    return marks.length === 1 && marks[0].startsWith("card:") && !onBoard.has(marks[0]);
  });
  if (cards.length < 13 || cards.length !== entries.length) return;
  const help = box.querySelector(".help");
  const table = el("div", "card-table");
  const suits = new Map();
  for (const button of cards) {
    const face = button.dataset.value;
    const suit = face === "Joker" ? "Joker" : face[0];
    if (!suits.has(suit)) suits.set(suit, el("div", "card-suit"));
    const cell = el("span", "trump-choice");
    const pick = el("button", `card pick suit-${suitName(suit)}`, face);
    pick.type = "button";
    pick.addEventListener("click", () => button.click());
    cell.append(pick);
    const about = aboutButton(face, help);
    if (about) cell.append(about);
    suits.get(suit).append(cell);
  }
  table.append(...suits.values());
  const folded = el("details", "entry-list");
  folded.append(el("summary", "", say("app", "all entries", { count: entries.length })));
  list.replaceWith(table, folded);
  folded.append(list);
}

function suitName(suit) {
  return { "♠": "spade", "♡": "heart", "♢": "diamond", "♣": "club" }[suit] || "joker";
}
