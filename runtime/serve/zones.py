"""The declared zones of a player's board for the browser (the edition's `core.zones`: the
fog, the trumps 切札, a regulation's pack): each card as the view shows it, and what it is.

* A zone whose cards have faces (the trumps): every place in order, a card the viewer sees
  (their own, or one lying face up) with whether it lies face up, a face-down card of the
  opponent as an empty place named as the options name it (`p2:trump#1`), never by card.
  Each card seen carries its ability text from the rule set's data (its trump's actions).
* A public zone (the fog): each card with what it does, as `ZoneNotes` saw it arrive.
"""

from __future__ import annotations

from collections.abc import Mapping

from blackpoker.runtime.engine.game import Game
from blackpoker.runtime.engine.options import RequestOption, target_text
from blackpoker.runtime.engine.refs import HiddenZoneCard
from blackpoker.runtime.engine.view import View, ZoneView, hidden_from, masked, reference_text
from blackpoker.runtime.play.labels import labels_for
from blackpoker.runtime.rules.model import RuleSet, Visibility
from blackpoker.runtime.serve.cards import Json, card_json

UNTIL_END = "このターンが終わるまで"  # a size change's duration (engine: Unit.size_mod)


def zones_json(game: Game, index: int, zones: tuple[ZoneView, ...], notes: Mapping[int, str]) -> list[Json]:
    """Player `index`'s zones as the viewer of `zones` sees them."""
    rules = game.rules.ruleset
    side = game.state.players[index]
    kinds = {z.id: z.visibility for z in rules.edition.core.zones}
    found = []
    for zone in zones:
        shown: Json = {"id": zone.id, "name": zone.name, "count": zone.count, "kind": kinds[zone.id].value}
        if kinds[zone.id] is Visibility.FACES:
            seen = set(zone.cards or ())
            shown["places"] = [
                {**card_json(c), "face_up": c in side.face_up}
                if c in seen
                else {"hidden": target_text(HiddenZoneCard(index, zone.id, place))}
                for place, c in enumerate(side.zones[zone.id], 1)
            ]
            shown["cards"] = None
        else:
            shown["cards"] = None if zone.cards is None else [_noted(c, notes) for c in zone.cards]
        found.append(shown)
    return found


def trumps_json(rules: RuleSet) -> Json:
    """The trump table: every trump of the rule set (the extra format's), by its card's face,
    its name and what its abilities' actions do, as the rule set's data words them (public: the
    list is printed). Some 10 KB, the same all game: a page asks for it once, from its own
    route (`/api/seat/KEY/trumps`, `/api/replay/KEY/trumps`), not with every board."""
    found = []
    for trump in rules.trumps:
        actions = [rules.action(a) for a in trump.actions]
        about = [f"{a.name}: {a.effect}" for a in actions if a.effect]
        found.append({"card": str(trump.card), "name": trump.name, "about": "\n".join(about)})
    return {"trumps": found}


def _noted(cid: int, notes: Mapping[int, str]) -> Json:
    shown = card_json(cid)
    if cid in notes:
        shown["note"] = notes[cid]
    return shown


def noted(game: Game) -> bool:
    """Whether the game's rules have a public zone (the fog), whose cards ZoneNotes explains."""
    return any(z.visibility is Visibility.PUBLIC for z in game.rules.ruleset.edition.core.zones)


class ZoneNotes:
    """What each card lying in a public zone (the fog) does, as one seat may read it: the
    request whose key card it was (its fog entry's name, or the action's), its target as the
    seat's view names it (in words), and the size change it made there, watched as the game goes."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.notes: dict[int, str] = {}
        self._keys: dict[int, tuple[str, str | None]] = {}
        self._sizes: dict[str, int] = {}

    def before(self, game: Game, seen: View, option: object) -> None:
        """Before a decision is played: the key cards on the stage, resolving and in the option."""
        keys: dict[int, tuple[str, str | None]] = {
            c: (r.action, None if r.target is None else reference_text(r.target))
            for r in (*seen.stage, *seen.resolving)
            for c in r.key_cards
        }
        if isinstance(option, RequestOption):
            said = masked(game.state, option, hidden_from(game.state, self.seat))
            target = (
                None
                if not isinstance(said, RequestOption) or said.target is None
                else target_text(said.target)
            )
            keys |= {c: (option.action, target) for c in option.keys}
        self._keys = keys
        self._sizes = _sizes(seen)

    def after(self, game: Game, seen: View) -> None:
        rules = game.rules.ruleset
        public = {z.id for z in rules.edition.core.zones if z.visibility is Visibility.PUBLIC}
        lying = {c for p in seen.players for z in p.zones if z.id in public for c in z.cards or ()}
        self.notes = {c: n for c, n in self.notes.items() if c in lying}
        sizes = _sizes(seen)
        words = labels_for(rules)
        for cid in sorted(lying - self.notes.keys()):
            if cid not in self._keys:
                continue
            action, target = self._keys[cid]
            fog = next((f for f in rules.fogs if f.action == action), None)
            name = fog.name if fog is not None else rules.action(action).name
            change = None if target is None else sizes.get(target, 0) - self._sizes.get(target, 0)
            if target is not None and change:
                self.notes[cid] = f"{name} {change:+d} → {words.target(target)}（{UNTIL_END}）"
            elif target is not None:
                self.notes[cid] = f"{name} → {words.target(target)}"
            else:
                self.notes[cid] = f"{name}: {fog.ability if fog is not None else rules.action(action).effect}"


def _sizes(seen: View) -> dict[str, int]:
    """Each character's size the view shows, by its reference."""
    return {target_text(u.ref): u.size for p in seen.players for u in p.field if u.size is not None}
