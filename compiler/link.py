"""Stage 4 — link: one format of an edition into the rule set the engine runs.

An edition is linked once its checks passed (compiler/checks.py; the environment runs them
once per edition, whatever number of its formats it then links). A local rule's format is
linked by compiler/documents/overlay.py, an extra list's by compiler/documents/extra.py; both
end, like this stage, in `finish`.
"""

from __future__ import annotations

from dataclasses import replace

from blackpoker.compiler.emit_json import hashed
from blackpoker.compiler.parse import EditionSource
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic, Location
from blackpoker.runtime.rules.matcher import compile_matcher
from blackpoker.runtime.rules.model import Format, RuleSet


def link(source: EditionSource, format_id: str) -> RuleSet:
    """The official format `format_id` of an edition whose checks passed."""
    fmt = next((f for f in source.edition.formats if f.id == format_id), None)
    if fmt is None:
        known = ", ".join(f.id for f in source.edition.formats)
        message = f"edition {source.edition.id} has no format '{format_id}' (known: {known})"
        raise CompileError([Diagnostic(Location("--format", 0, 0), message)])
    return finish(official(source, fmt))


def official(source: EditionSource, fmt: Format) -> RuleSet:
    """The entries of an official format, as they are written (no matcher, no hash yet)."""
    return RuleSet(
        source.edition,
        fmt,
        tuple(a for a in source.actions if fmt.id in a.formats),
        tuple(c for c in source.characters if fmt.id in c.formats),
        tuple(f for f in source.fogs if fmt.id in f.formats),
    )


# How the sheets print a `may` step (必要であれば、…): the words that open the clause a
# player may do, the same in every edition
MAY_MARKER = "必要であれば"


def finish(ruleset: RuleSet) -> RuleSet:
    """The rule set as the engine runs it: each key's matcher compiled, the clause a player
    may do found in each effect, and its hash."""
    actions = tuple(
        replace(a, matcher=compile_matcher(a.key) if a.key else None, may_clause=may_clause(a.effect))
        for a in ruleset.actions
    )
    return hashed(replace(ruleset, actions=actions))


def may_clause(effect: str) -> str:
    """The clause after the marker on the first line of the effect that prints one, without
    its comma and full stop ("" when none does): `更にライフの一番上からカードを1枚引き、手札に加える`."""
    for line in effect.splitlines():
        if MAY_MARKER in line:
            return line.split(MAY_MARKER, 1)[1].lstrip("、,").rstrip("。")
    return ""
