"""A regulation's match as the lobby offers it, found in the data by what it has (the frame
of most games whose decks are dealt, not brought), and a seat's game played out over the API
by random choices."""

from __future__ import annotations

import random
from typing import Any

from serve_support import Running


def match_frame(lobby: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """The edition, the format and the frame of the lobby's longest match without deck files."""
    found = [
        (frame["games"], edition["id"], (frame["formats"] or [edition["formats"][0]["id"]])[0], frame)
        for edition in lobby["editions"]
        if edition["regulations"]
        for frame in edition["regulations"]["frames"]
        if not frame["decks"] and not frame["extra"]
    ]
    games, edition, played, frame = max(found, key=lambda f: f[0])
    assert games > 1, "no regulation plays a match of several games"
    return edition, played, frame


def play_out(server: Running, token: str, rng: random.Random) -> dict[str, Any]:
    """The seat's game played to its end by random choices; the seat's last state."""
    for _ in range(5000):
        state = server.call("GET", f"/api/seat/{token}").data
        if state["ending"]:
            return state
        menu = state["menu"]
        value = rng.choice(menu["entries"])["value"]
        chosen = {
            "decision": state["decision"],
            "chosen": [*menu["chosen"], value],
            "auto": [*menu["auto"], False],
        }
        answer = server.post(f"/api/seat/{token}/choose", chosen)
        assert answer.status == 200, answer.text
    raise AssertionError("the game did not end")
