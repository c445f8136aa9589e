"""The words a person at the table reads, from one data file: `labels.json` beside this module.

The terminal (`blackpoker play`), the log lines (chronicle.py) and the server's responses
(`blackpoker serve`) print through `Labels`; the browser app gets the same file with its
labels script (`browser_script`) for the words it writes itself. The engine says refusals by id
(runtime/engine/refusals.py): their Japanese is the file's `refusals`, under the same ids.
The command notation (`pass`, `block ♣9 with ♡3`, `stage:1`) stays as it is in commands and
command logs: these are only the words shown beside or instead of it. docs/play.md lists the
file's sections.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from blackpoker.runtime.engine.options import Choice, Option, Pass, RequestOption, target_text
from blackpoker.runtime.engine.refusals import Refusal
from blackpoker.runtime.engine.zones import label
from blackpoker.runtime.rules.model import RuleSet, ZoneRule

FILE = "labels.json"

# The target notation (runtime/engine/options.py's target_text) a person reads in words.
_TARGET = re.compile(
    r"(?P<gone>^gone$)"
    r"|(?P<stage>stage:(?P<position>\d+))"
    r"|(?P<resolving>resolving:(?P<depth>\d+))"
    r"|(?P<face>face-down#(?P<number>\d+))"
    r"|(?P<hidden>(?P<hplayer>p[12]):(?P<hzone>[^\s:#]+)#(?P<hposition>\d+))"
    r"|(?P<zone>(?P<zplayer>p[12]):(?P<zzone>[^\s:#♠♡♢♣]+):(?P<zcard>\S+))"
)


@cache
def raw() -> bytes:
    """The file as shipped."""
    return resources.files(__package__).joinpath(FILE).read_bytes()


def browser_script(script: bytes) -> bytes:
    """The browser app's labels script (runtime/serve/app/labels.js) with the file above it as
    `LABELS`: what `serve` and the static play page hand the page."""
    return b"const LABELS = " + raw() + b";\n" + script


@dataclass(frozen=True)
class Labels:
    """The file's sections (section → id → text with `{field}`s) and the zones of the rule set
    being played (id → printed name; `labels_for`), by which a zone's card is named."""

    sections: MappingProxyType[str, MappingProxyType[str, str]]
    zones: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __getitem__(self, section: str) -> MappingProxyType[str, str]:
        return self.sections[section]

    def say(self, section: str, key: str, **values: Any) -> str:
        return self.sections[section][key].format_map(values)

    # -- refusals ------------------------------------------------------------------------

    def refusal(self, refusal: Refusal) -> str:
        """A refusal with the rule it names: `できません: …（ルール: タイミング）`."""
        rule = self["rules"].get(refusal.rule, refusal.rule)
        said = refusal.said
        # a zone is named in the message by its id (`trump`): the rule set prints its name
        named = tuple((k, self.zone(v) if k == "zone" and isinstance(v, str) else v) for k, v in said.values)
        reason = replace(said, values=named).words(self["refusals"])
        return self.say("command", "refused", reason=reason, rule=rule)

    def zone(self, zone: str) -> str:
        """A zone's printed name (切札) for its id (`trump`); one the rule set lacks stays."""
        return self.zones.get(zone, zone)

    def agent(self, name: str) -> str:
        """An agent as `--opponent` names it, in words: `search:32` → 探索:32."""
        kind, budget = name.partition(":")[::2]
        word = self["agents"].get(kind, kind)
        return f"{word}:{budget}" if budget else word

    # -- the notation in words -----------------------------------------------------------

    def target(self, text: str) -> str:
        """A target (or a text holding targets) as a person reads it: `stage:2` → ステージ2,
        `face-down#7` → 裏向き#7, a view's `gone` (it left), a zone's card by the zone's printed
        name (`p2:trump:♢4` → p2の切札の♢4); a character by its card (`p2:♣9`) and a player
        stay."""
        words = self["targets"]

        def said(found: re.Match[str]) -> str:
            if found["gone"]:
                return words["gone"]
            if found["stage"]:
                return words["stage"].format(position=found["position"])
            if found["resolving"]:
                return words["resolving"].format(depth=found["depth"])
            if found["face"]:
                return words["face-down"].format(number=found["number"])
            if found["hidden"]:
                return words["hidden zone card"].format(
                    player=found["hplayer"], zone=self.zone(found["hzone"]), position=found["hposition"]
                )
            return words["zone card"].format(
                player=found["zplayer"], zone=self.zone(found["zzone"]), card=found["zcard"]
            )

        return _TARGET.sub(said, text)

    def word(self, word: str) -> str:
        """An answer's word as a menu entry: the engine's (`done` → 選び終える) or a
        choose_one label of the rule set (`one_charged`); one the file lacks stays."""
        return self["answer words"].get(word) or self["choices"].get(word) or word

    def choice(self, option: Choice) -> str:
        """An answer whole, in words: `block ♣9 with ♡3` → ♡3で♣9をブロック."""
        a = "" if option.a is None else label(option.a)
        b = "" if option.b is None else label(option.b)
        target = "" if option.target is None else self.target(option.rest_text.rsplit("→ ", 1)[-1])
        if not option.rest_text:
            return self.word(option.word)
        entries = self["answer entries"]
        if option.word in entries and (b or "{b}" not in entries[option.word]):
            return entries[option.word].format(a=a, b=b, target=target)
        return entries["other"].format(word=self.word(option.word), rest=self.target(option.rest_text))

    def head(self, option: RequestOption) -> str:
        """A request's action, and the character that causes it: スラッシュ（♠5が起因）."""
        if option.source is None:
            return option.name
        return self.say("menu", "caused", name=option.name, card=label(option.source))

    def option(self, option: Option) -> str:
        """An option as a person reads it: a request's action (and causing character) in
        words, its cards in the notation, its target in words; an answer in words; a pass
        as パス."""
        if isinstance(option, Pass):
            return self["menu"]["pass"]
        if isinstance(option, Choice):
            return self.choice(option)
        target = "" if option.target is None else "→ " + self.target(target_text(option.target))
        return " ".join(p for p in (self.head(option), option.key_text, option.payment_text, target) if p)


@cache
def labels(zones: tuple[ZoneRule, ...] = ()) -> Labels:
    """The file's words; with a rule set's declared zones, also their printed names."""
    if zones:
        return replace(labels(), zones=MappingProxyType({z.id: z.name for z in zones}))
    data = json.loads(raw().decode("utf-8"))
    return Labels(MappingProxyType({k: MappingProxyType(v) for k, v in data.items()}))


def labels_for(ruleset: RuleSet) -> Labels:
    """The words at a table of `ruleset`: a target in one of its declared zones (the trumps 切札,
    the fog) names the zone as the rule set prints it, not by its id."""
    return labels(ruleset.edition.core.zones)
