// Two people at one screen (hot-seat): the page holds both seats' links — p1's in its path,
// p2's token in the fragment, which never reaches the server — and shows one seat's view at a
// time. When the other seat is to decide, a cover hides the table until its person asks to
// see it; only then is that seat's view fetched and drawn.
"use strict";

function hotseatPage(seats) {
  return `${seats.p1}#hotseat=${seats.p2.split("/").pop()}`;
}

function startHotseat() {
  const other = window.location.hash.match(/^#hotseat=([A-Za-z0-9_-]{1,64})$/);
  if (kind !== "play" || !other) return;
  const keys = { [key]: null, [other[1]]: null }; // seat name by token, as each state says
  let cover = null;

  const uncover = () => {
    if (cover) cover.remove();
    cover = null;
    document.body.classList.remove("covered");
  };

  const showCover = (seat) => {
    uncover();
    cover = el("div", "cover");
    cover.setAttribute("role", "dialog");
    cover.append(
      el("p", "cover-title", say("app", "cover title", { seat })),
      el("p", "", say("app", "cover text", { seat })),
    );
    const show = el("button", "cover-show", say("app", "cover show", { seat }));
    show.type = "button";
    show.addEventListener("click", () => {
      key = Object.keys(keys).find((token) => keys[token] === seat) || Object.keys(keys).find((token) => keys[token] === null);
      refresh();
    });
    cover.append(show);
    document.body.append(cover);
    document.body.classList.add("covered");
  };

  const inner = render;
  render = function renderHotseat(next) {
    keys[key] = next.seat;
    inner(next);
    const waiting = !next.menu && !next.ending && next.to_move !== null && next.to_move !== next.seat;
    if (waiting) showCover(next.to_move);
    else uncover();
  };

  window.hotseat = {
    // the other seat's page of the game just made (a rematch, or a match's next game)
    async rematch(page, route = "rematch") {
      const theirs = await post(`/api/seat/${Object.keys(keys).find((token) => token !== key)}/${route}`, {});
      const mine = state.seat;
      return hotseatPage({ [mine]: page, [mine === "p1" ? "p2" : "p1"]: theirs.page });
    },
  };
  document.getElementById("title").dataset.hotseat = "";
}

startHotseat();
