"""`blackpoker regulation check TEXT`: a regulation (フォーマット + フレーム + オプション) and decks."""

from __future__ import annotations

import click
from blackpoker.cli.options import deck_option
from blackpoker.cli.report import report
from blackpoker.cli.rule_set import edition_of, read_regulation
from blackpoker.compiler.documents.deck import Deck
from blackpoker.compiler.documents.regulation import (
    Regulation,
    deck_problems,
    parse_regulation,
)


@click.group()
def regulation() -> None:
    """Regulations: formats, frames, options, and the decks played under them."""


@regulation.command()
@click.argument("text")
@click.option(  # not edition_option: built-in regulations and their files are named here too
    "--edition",
    help="The edition whose regulations apply (a built-in id; default: the registry's), built-in "
    "regulations by their id (their file's name in actionlists/regulations), or the path of a "
    "regulations file.",
)
@deck_option("A deck file of p1 or p2; twice for a player who brings two decks.")
def check(text: str, edition: str | None, decks: tuple[str, ...]) -> None:
    """Check a regulation, e.g. 'マスター + ランダムハーフ + プリセット2' or 'mast+random-half+preset2',
    and the players' decks against its frame; print the regulation.

    Reports every problem as path:line:col: message and exits 1 if there is any.
    """
    chosen, by_player, problems = read_regulation(edition_of(edition), text, decks)
    if not problems:
        for player, player_decks in by_player.items():
            problems += deck_problems(chosen, player, player_decks)
    if problems:
        report(problems)
    click.echo("\n".join(describe(chosen, by_player)))


def describe(chosen: Regulation, decks: dict[str, list[Deck]]) -> list[str]:
    """The regulation as a player reads it: its parts, the deck condition, the match."""
    frame, match = chosen.frame, chosen.frame.match
    lines = [
        f"{chosen.name} ({chosen.id}): {chosen.regulations.title}",
        f"format: {chosen.format}",
        " ".join(filter(None, (f"frame: {frame} [{frame.build}]", frame.text, f"({frame.rule})"))),
    ]
    if frame.cards is not None:
        lines.append(f"  cards: {' '.join(str(card) for card in frame.cards)}")
    if frame.size is not None:
        lines.append(f"  each deck: {frame.size} cards")
    if frame.together is not None:
        lines.append(f"  a player's decks together: {frame.together} cards, from one set")
    lines += _building(chosen)
    lines += [f"  start: {step}" for step in frame.start]
    lines += [f"  adds: {action}" for action in frame.actions]
    lines += [f"  not playable yet: {frame.unplayable}"] if frame.unplayable else []
    lines += [
        f"  {a['what']}: 完全公開 {a['public']} / 個人公開 {a['owner']} / 非公開 {a['hidden']}"
        for a in frame.access
    ]
    wins = f"the first to win {match.wins} wins the match"
    lines.append(
        f"match: {match} ({match.rule}): {match.decks} deck(s) each, up to {match.games} game(s), {wins}"
    )
    if match.retire_winning_deck:
        lines.append("  a deck that has won a game cannot be used again")
    lines += [f"  {line}" for line in match.visibility]
    for option in chosen.options:
        lines.append(f"option: {option} ({option.rule}): {option.text}")
        lines += [f"  start: {step}" for step in option.start]
        lines += [f"  adds: {action}" for action in option.actions]
    for player, player_decks in decks.items():
        files = ", ".join(f"{deck.doc.path} ({len(deck.cards)} cards)" for deck in player_decks)
        lines.append(f"{player}: {files}: fits the frame")
    recommended = chosen.regulations.recommended
    if recommended is not None:
        first = parse_regulation(recommended.regulation, chosen.regulations)
        lines.append(
            f"recommended first game: {first.name} ({first.id}): {recommended.text} ({recommended.rule})"
        )
    return lines


# a frame's build type, when the rules word no deck
_BUILDS = {"fixed": "a fixed deck", "random": "dealt at random", "built": "the player's own deck"}


def _building(chosen: Regulation) -> list[str]:
    """The frame's two building steps, named as its regulations name them (デッキ構築,
    シナリオ構築): how the deck is made, and the cards each player chooses before the game."""
    frame, preparation = chosen.frame, chosen.regulations.preparation
    deck, scenario = (
        ("deck", "chosen before the game")
        if preparation is None
        else (preparation.deck_building, preparation.scenario_building)
    )
    lines = [f"  {deck}: {frame.text or _BUILDS[frame.build]}"]
    if frame.draft is not None:
        draft = frame.draft
        lines.append(
            f"  {scenario}: drafted: {draft.packs} mini-packs of {draft.size} from the top of the "
            f"shuffled deck, one card taken from each, the rest shuffled back"
        )
    for part in frame.scenario:
        shown = f", {part.face_up} turned face up at the start" if part.face_up else ""
        lines.append(f"  {scenario}: {part.part.name} {part.count}枚 ({part.part.zone}{shown})")
        if part.part.rest:
            lines.append(f"  {scenario}: the rest of the hand is {part.part.rest}, drawn at the start")
    return lines
