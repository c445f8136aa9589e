"""The two sides of `simulate --compare A B`: each any rule source, in any mix — a built-in
edition (`v8.2`) or one of its formats (`v8.2:std`, or `std` alone), an edition file
(`v7.1.yaml`, `v7.1.yaml:std`), a local-rule file, an extra list (a file or a built-in id), or a
regulation (`マスター+ランダムハーフ p1=DECK.yaml`). What a side leaves open comes from the other:
a bare format or regulation is played in the edition the other side is about (a based edition
file's base, a local rule's edition), and an edition alone in the format the other side plays,
else in the format both editions have (docs/simulate.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn

from blackpoker.cli.report import option_error, report
from blackpoker.cli.rule_set import declared_edition, regulation_setup
from blackpoker.compiler import Diagnostic
from blackpoker.compiler.documents.extra import EXTRA_FORMAT, ExtraSource
from blackpoker.compiler.documents.regulation import PLUS
from blackpoker.compiler.environment import Environment, is_path
from blackpoker.compiler.parse import EditionSource, OverlaySource
from blackpoker.runtime.play.regulation import Setup
from blackpoker.runtime.play.simulation import RulesSource
from blackpoker.runtime.rules.diagnostics import Location

OPTION = "--compare"


@dataclass(frozen=True, slots=True)
class Side:
    text: str  # as given on the command line
    edition: str | None = None  # None: the other side's edition (or --edition, or the newest)
    format: str | None = None  # None (an edition alone): the format the other side plays
    rules: Path | None = None  # a local-rule file
    extra: str | None = None  # the extra format's list: a built-in id or a file
    regulation: str | None = None  # a regulation with its deck words (PLAYER=FILE)
    about: str | None = None  # the edition a side left open beside this one is played in
    where: Location | None = None  # in the user's file this side names: blamed for an impossible pair


def compare_sides(
    env: Environment, texts: tuple[str, str], edition: str | None
) -> list[tuple[RulesSource, Setup | None]]:
    """Both sides as rule sources (a regulation side with its set-up), or exit 1 located at
    the user's input: an unknown name, a bad file, a pair with no format in common."""
    sides = [_parse(env, text) for text in texts]
    sides = [
        _listed(env, s if s.edition else replace(s, edition=edition or other.about or env.default("edition")))
        for s, other in zip(sides, sides[::-1], strict=True)
    ]
    setups: list[Setup | None] = []
    for position, side in enumerate(sides):
        assert side.edition is not None
        if side.regulation is None:
            setups.append(None)
            continue
        words = side.regulation.split()
        decks = tuple(w for w in words if "=" in w)
        setup, format_id = regulation_setup(side.edition, " ".join(w for w in words if "=" not in w), decks)
        setups.append(setup)
        sides[position] = replace(side, format=format_id)
    plays = [_plays(env, side) for side in sides]
    formats = [_formats(env, side) for side in sides]
    for position, side in enumerate(sides):
        if side.format is not None:
            _known(env, side, formats[position])
    chosen = _common(env, sides, plays, formats)
    sources = [RulesSource(str(s.edition), f, s.rules, s.extra) for s, f in zip(sides, chosen, strict=True)]
    # an edition alone in the extra format plays its newest list, named as if given
    sources = [
        replace(source, extra=source.builtin_extra(env)) if side.format is None else source
        for source, side in zip(sources, sides, strict=True)
    ]
    return list(zip(sources, setups, strict=True))


def _parse(env: Environment, text: str) -> Side:
    head, colon, tail = text.partition(":")
    if colon and not Path(text).exists() and (head in env.builtin_editions() or _is_edition_file(env, head)):
        edition = _parse(env, head)
        named = Side(text, regulation=tail) if _is_regulation(tail) else Side(text, format=tail)
        return replace(named, edition=head, about=edition.about, where=edition.where)
    if text in env.builtin_editions():
        return Side(text, edition=text, about=env.default("edition"))
    if _is_regulation(text):
        return Side(text, regulation=text)
    if text.endswith((".yaml", ".yml")) or Path(text).exists():
        return _file(env, text)
    return Side(text, format=text)


def _listed(env: Environment, side: Side) -> Side:
    """A side naming one of its edition's built-in extra lists by id plays it in the extra format."""
    if side.format in [p.stem for p in env.builtin_extras(str(side.edition))]:
        return replace(side, format=EXTRA_FORMAT.id, extra=side.format)
    return side


def _is_regulation(text: str) -> bool:
    """A side naming a regulation (フォーマット+フレーム…), not a format or a file."""
    return any(plus in text for plus in PLUS) and not Path(text).exists()


def _is_edition_file(env: Environment, text: str) -> bool:
    return is_path(text) and Path(text).is_file() and isinstance(env.read(Path(text))[0], EditionSource)


def _file(env: Environment, text: str) -> Side:
    path = Path(text)
    source, problems = env.read(path)
    if problems:
        report(env.all_problems(path))
    assert source is not None
    own = source.edits if isinstance(source, EditionSource) and source.edits is not None else source.doc
    where = own.locate(("formats",), key=True)  # a based edition's own file, not its base's
    if isinstance(source, ExtraSource):
        return Side(
            text, source.edition_id, EXTRA_FORMAT.id, extra=text, about=source.edition_id, where=where
        )
    if isinstance(source, OverlaySource):
        edition = declared_edition(path, OPTION)
        return Side(
            text, edition, source.format.id, rules=path, about=edition, where=source.doc.locate(("base",))
        )
    base = own.data.get("base")
    sibling = path.parent / f"{base}.yaml"
    about = (str(sibling) if sibling.is_file() else str(base)) if isinstance(base, str) else None
    return Side(text, edition=text, about=about or env.default("edition"), where=where)


def _formats(env: Environment, side: Side) -> list[str]:
    """The formats a side's edition can play: its own, and the extra format if it has a list."""
    assert side.edition is not None
    source = env.edition(side.edition)
    extras = env.extras_of(source)
    return [f.id for f in source.edition.formats] + ([EXTRA_FORMAT.id] if extras else [])


def _plays(env: Environment, side: Side) -> str | None:
    """The official format a side plays, that an edition alone beside it takes: a local rule's
    base format, an extra list's extra format, a format's own."""
    return side.format if side.rules is None else env.official_base(side.rules)


def _known(env: Environment, side: Side, formats: list[str]) -> None:
    """A format named by a side must be one of its edition's (or a local rule's own)."""
    if side.rules is not None or side.regulation is not None or side.format in formats:
        return
    extras = ", ".join([p.stem for p in env.builtin_extras(str(side.edition))]) or "none"
    option_error(
        OPTION,
        f"'{side.text}' is not a format of {side.edition} ({', '.join(formats)}; extra lists: {extras}), "
        f"a built-in edition ({', '.join(env.builtin_editions())}), a regulation or a file",
    )


def _common(
    env: Environment, sides: list[Side], plays: list[str | None], formats: list[list[str]]
) -> list[str]:
    """Each side's format: its own, else the one the other side plays, else the one both
    editions have (the registry's play format first); else the pair is refused."""
    if all(s.format is not None for s in sides):
        return [str(s.format) for s in sides]
    both = [f for f in formats[0] if f in formats[1]]
    wanted = next((p for p in plays if p is not None), None)
    if wanted is None:
        default = env.default("play_format")
        wanted = default if default in both else next(iter(both), None)
    if wanted is not None and all(
        s.format is not None or wanted in f for s, f in zip(sides, formats, strict=True)
    ):
        return [s.format or wanted for s in sides]
    _refuse(sides, plays, formats)


def _refuse(sides: list[Side], plays: list[str | None], formats: list[list[str]]) -> NoReturn:
    """No format both sides can play: said at the user's file (else the option), with a pair
    of sides that would work."""
    lacking = next(i for i, s in enumerate(sides) if s.format is None)
    other = 1 - lacking
    asked = plays[other]
    what = f"plays {asked}" if asked is not None else f"has the formats {', '.join(formats[other])}"
    message = (
        f"{OPTION}: {sides[lacking].text} has no format in common with {sides[other].text} "
        f"({sides[other].text} {what}; {sides[lacking].text} has {', '.join(formats[lacking])}); "
        "name a format of each, e.g. --compare "
        f"{_example(sides[0], formats[0])} {_example(sides[1], formats[1])}"
    )
    where = next((s.where for s in (sides[lacking], sides[other]) if s.where is not None), None)
    report([Diagnostic(where or Location(OPTION, 0, 0), message)])


def _example(side: Side, formats: list[str]) -> str:
    if side.format is not None or side.rules is not None or side.regulation is not None:
        return side.text
    return f"{side.text}:{formats[0]}"
