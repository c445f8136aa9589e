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


def play_out(server: Running, tokens: list[str], rng: random.Random) -> dict[str, Any]:
    """The game played to its end by random choices, each seat (`tokens`, p1's first) when it
    decides; the first seat's last state."""
    session = server.session(tokens[0])
    for _ in range(5000):
        if session.game.over:
            return server.call("GET", f"/api/seat/{tokens[0]}").data
        token = tokens[session.game.to_move or 0] if len(tokens) > 1 else tokens[0]
        state = server.call("GET", f"/api/seat/{token}").data
        answer = server.choose_at_random(token, state, rng)
        assert answer.status == 200, answer.text
    raise AssertionError("the game did not end")
