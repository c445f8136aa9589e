// A regulation's match at the table (runtime/serve/match.py): under a game's end, the match's
// score and each game's winner, then the next game's button (one per deck the seat may still
// play, against an agent) until the match is decided, and then the match's result. Its words
// are the labels' `match` section (labels.js).
"use strict";

function matchNode(state) {
  const match = state.match;
  const me = state.seat;
  const other = me === "p1" ? "p2" : "p1";
  const box = el("section", "match");
  const values = { name: match.name, game: match.game, games: match.games, needed: match.wins_needed };
  box.append(
    el("p", "match-score", say("match", "score", { ...values, mine: match.wins[me], theirs: match.wins[other] })),
    el("p", "match-deck", say("match", "your deck", { deck: match.deck })),
  );
  const winners = match.winners.map((winner, n) => `${say("match", "game", { n: n + 1 })} ${LABELS.results[winner || "draw"]}`);
  box.append(el("p", "match-winners", say("match", "winners", { winners: winners.join("、") })));
  if (match.over) {
    const result = match.winner === null ? "drawn" : match.winner === me ? "won" : "lost";
    box.append(el("p", "match-result", LABELS.match[result]));
    return box;
  }
  const tools = el("p", "match-tools");
  if (state.next_game) {
    tools.append(button(LABELS.match["next started"], "next-game", async () => window.location.assign(state.next_game)));
  } else if (state.people === 1 && match.decks.length > 1) {
    tools.append(el("span", "note", LABELS.match.pick));
    for (const deck of match.decks) {
      tools.append(button(say("match", "next with", { deck: deck.name, size: deck.size }), "next-game", () => nextGame(deck.index)));
    }
  } else {
    tools.append(button(LABELS.match.next, "next-game", () => nextGame(null)));
  }
  box.append(tools);
  return box;
}

async function nextGame(deck) {
  const made = await post(`/api/seat/${key}/next`, deck === null ? {} : { deck });
  window.location.assign(window.hotseat ? await window.hotseat.rematch(made.page, "next") : made.page);
}
