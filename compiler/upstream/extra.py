"""Convert an upstream extra list (extra.yaml: `data`, `abiList`, `actList` of trump
operations) into the data of one extra file of the model, every problem located upstream.

Upstream gives an ability's actions no id: each takes its ability's id (suit letter and
number, as a frame list's trump list writes it: sA, h10) and its place (sA1, sA2)."""

from __future__ import annotations

from typing import Any

from blackpoker.compiler.load import Document, PathKey
from blackpoker.compiler.upstream.convert import EDITION_ID, EXTRA_ACTIONS, Conversion, Converter, Data
from blackpoker.compiler.upstream.vocabulary import Vocabulary

NUMBERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_ABILITY_KEYS = ("suit", "num", "output", "beta", "name", "ability", "acts", "chars")
_CHARACTER = {
    "charName": "name",
    "charType": "type",
    "charKey": "cards",
    "charNote": "note",
    "charAbility": "ability",
    "ruby": "ruby",
    "devNote": "dev_note",
}
# A card's trump in a frame list's trump list: upstream key → model key (trumpKey gives suit and number).
_TRUMP = {
    "trumpId": "id",
    "trumpName": "name",
    "ruby": "ruby",
    "trumpType": "type",
    "trumpAbility": "ability",
    "devNote": "dev_note",
}
# The keys of an operation that say how upstream prints it, not what it is.
_PRINTING = ("output", "etc", "beta", "type", "name")


def convert_extra(doc: Document, words: Vocabulary, list_id: str | None = None) -> Conversion:
    """The extra list in `doc`; its edition is derived from `data.ver` (第七版 extra → v7)."""
    converter = Converter(doc, words, ("", {}), [])
    data = _Extra(converter).extra_list(list_id)
    return Conversion(data, (), tuple(converter.notes), tuple(converter.problems))


class _Extra:
    def __init__(self, converter: Converter) -> None:
        self.c = converter
        self.doc = converter.doc

    def problem(self, path: PathKey, message: str) -> None:
        self.c.problems.append(self.doc.at(path, message))

    def extra_list(self, list_id: str | None) -> Data:
        root = self.doc.data
        if not isinstance(root, dict):
            self.problem((), "expected a mapping with data, abiList and actList")
            return {}
        for key in root:
            if key not in ("data", "abiList", "actList"):
                self.c.unknown((key,))
        header: dict[str, Any] = root["data"] if isinstance(root.get("data"), dict) else {}
        title = self.c.text(("data", "ver"), header.get("ver"))
        version = self.c.text(("data", "v"), header.get("v"))
        for key, value in (("ver", title), ("v", version), ("lastupdate", header.get("lastupdate"))):
            if not value:
                self.problem(("data", key), f"data.{key}: expected text")
        if list_id is None and version and not EDITION_ID.fullmatch(f"v{version}"):
            # the id names the file written: upstream text with path parts must not reach it
            message = f"data.v: the id 'v{version}' made from it is no file name"
            self.problem(("data", "v"), f"{message} (letters, digits, '.', '_', '-'); give --id")
        return {
            "kind": "extra",
            "id": list_id or f"v{version}",
            "edition": self.c.derive_id(title),
            "title": title,
            "published": self.c.text(("data", "lastupdate"), header.get("lastupdate")),
            "operations": self.operations(root.get("actList")),
            "trumps": self.trumps(root.get("abiList")),
        }

    def operations(self, groups: Any) -> list[Data]:
        if not isinstance(groups, list):
            self.problem(("actList",), "actList: expected a list of groups")
            return []
        found = []
        for g, group in enumerate(groups):
            acts = group.get("acts") if isinstance(group, dict) else None
            if not isinstance(acts, list):
                self.problem(("actList", g), "expected a group with a type and acts")
                continue
            for i, raw in enumerate(acts):
                path = ("actList", g, "acts", i)
                if isinstance(raw, dict) and raw.get("name", raw.get("actName")) != raw.get("actName"):
                    self.problem((*path, "name"), "name: differs from actName")
                if isinstance(raw, dict) and self.c.text((*path, "etc"), raw.get("etc")):
                    self.c.unknown((*path, "etc"))
                action = self.action(path, raw, ("actId",), _PRINTING)
                if action is not None:
                    found.append(action)
        return found

    def action(
        self, path: PathKey, raw: Any, required: tuple[str, ...], skipped: tuple[str, ...] = ()
    ) -> Data | None:
        if isinstance(raw, dict):
            missing = [key for key in required if key not in raw]
            if missing:
                self.problem(path, f"missing {', '.join(missing)}")
                return None
            raw = {key: value for key, value in raw.items() if key not in skipped}
        return self.c.entry(EXTRA_ACTIONS, path, raw, "", ())

    def trumps(self, abilities: Any) -> list[Data]:
        if not isinstance(abilities, list):
            self.problem(("abiList",), "abiList: expected a list")
            return []
        found = []
        for a, raw in enumerate(abilities):
            path: PathKey = ("abiList", a)
            if not isinstance(raw, dict):
                self.problem(path, "expected a mapping")
                continue
            for key in raw:
                if key not in _ABILITY_KEYS:
                    self.c.unknown((*path, key))
            suit = self.c.words.suits.get(str(raw.get("suit")))
            number = str(raw.get("num"))
            if suit is None:
                self.problem(
                    (*path, "suit"),
                    f"suit '{raw.get('suit')}': expected one of {', '.join(self.c.words.suits)}",
                )
            if number not in NUMBERS:
                self.problem((*path, "num"), f"num '{number}': expected one of {', '.join(NUMBERS)}")
            if "name" not in raw:  # a card without an ability
                continue
            trump = self.trump(path, raw, f"{raw.get('suit')}{number}")
            found.append({"suit": suit, "number": number, **trump})
        return found

    def trump(self, path: PathKey, raw: dict[str, Any], ability_id: str) -> Data:
        mark = self.c.words.mark
        trump: Data = {
            "id": ability_id,
            "name": self.c.text((*path, "name"), raw["name"]),
            "ability": self.c.text((*path, "ability"), raw.get("ability")),
        }
        for key in ("beta", "output"):
            value = self.c.text((*path, key), raw.get(key))
            if value not in ("", mark):
                self.problem((*path, key), f"{key} '{value}': expected {mark} or nothing")
        if self.c.text((*path, "beta"), raw.get("beta")) == mark:
            trump["beta"] = True
        if self.c.text((*path, "output"), raw.get("output")) != mark:
            trump["output"] = False
        acts = raw.get("acts") or []
        actions = []
        for i, act in enumerate(acts if isinstance(acts, list) else []):
            action = self.action((*path, "acts", i), act, ())
            if action is not None:
                actions.append({"id": f"{ability_id}{i + 1}", **action})
        if actions:
            trump["actions"] = actions
        chars = raw.get("chars") or []
        characters = [self.character((*path, "chars", i), c) for i, c in enumerate(chars)]
        if characters:
            trump["characters"] = characters
        return trump

    def character(self, path: PathKey, raw: Any) -> Data:
        character: Data = {}
        for key, value in raw.items() if isinstance(raw, dict) else ():
            if key == "charLabel":  # a trumpList prints the labels its characters have
                self.c.labels((*path, key), value, character)
            elif key not in _CHARACTER:
                self.c.unknown((*path, key))
            elif text := self.c.text((*path, key), value):
                character[_CHARACTER[key]] = text
        return character


def convert_trump_list(doc: Document, words: Vocabulary, list_id: str | None = None) -> Conversion:
    """The trump list in `doc` (act-frame.yaml: `trumpData`, `trumpList`), with the trump
    operations and each trump's actions and characters from the actList and charList groups of
    its type (切札♠A 革命); the other groups are the frames' (the regulations hold them)."""
    converter = Converter(doc, words, ("", {}), [])
    data = _TrumpList(converter).extra_list(list_id)
    return Conversion(data, (), tuple(converter.notes), tuple(converter.problems))


Groups = dict[str, tuple[PathKey, list[Any]]]  # a list's groups by type: where, and the entries


class _TrumpList(_Extra):
    def extra_list(self, list_id: str | None) -> Data:
        root = self.doc.data
        if not isinstance(root, dict):
            self.problem((), "expected a mapping with data, actList, charList and trumpList")
            return {}
        header: dict[str, Any] = root["data"] if isinstance(root.get("data"), dict) else {}
        title = self.c.text(("data", "ver"), header.get("ver"))
        published = self.c.text(("data", "lastupdate"), header.get("lastupdate"))
        for key, value in (("ver", title), ("lastupdate", published)):
            if not value:
                self.problem(("data", key), f"data.{key}: expected text")
        acts = self.groups(root, "actList", "acts")
        chars = self.groups(root, "charList", "chars")
        about = root.get("trumpData")
        edition = self.c.derive_id(title)  # 第N版 フレーム編 → vN: the edition it extends
        data: Data = {"kind": "extra", "id": list_id or edition, "edition": edition, "title": title}
        data["published"] = published
        if isinstance(about, dict) and (
            text := self.c.text(("trumpData", "description"), about.get("description"))
        ):
            data["description"] = text
        data["operations"] = self.actions(acts.get(self.c.words.trump_operations))
        data["trumps"] = self.trump_list(root.get("trumpList"), acts, chars)
        return data

    def groups(self, root: dict[str, Any], name: str, items: str) -> Groups:
        found: Groups = {}
        for g, group in enumerate(root.get(name) or []):
            if not isinstance(group, dict) or not isinstance(group.get(items), list):
                self.problem((name, g), f"expected a group with a type and {items}")
                continue
            found[str(group.get("type"))] = ((name, g, items), group[items])
        return found

    def kept(self, raw: Any) -> Any:
        """An entry without the keys of the frames, the art and the history."""
        ignored = self.c.words.ignored_trump_keys
        return {k: v for k, v in raw.items() if k not in ignored} if isinstance(raw, dict) else raw

    def actions(self, group: tuple[PathKey, list[Any]] | None) -> list[Data]:
        """A group's actions, each with its 起因 (actUnit) as `unit`."""
        path, entries = group or ((), [])
        found = []
        for i, raw in enumerate(entries):
            action = self.action((*path, i), self.kept(raw), ("actId",), ("actUnit",))
            if action is None:
                continue
            unit = self.c.text((*path, i, "actUnit"), raw.get("actUnit"))
            found.append({**action, "unit": unit} if unit else action)
        return found

    def characters(self, group: tuple[PathKey, list[Any]] | None) -> list[Data]:
        path, entries = group or ((), [])
        return [self.character((*path, i), self.kept(raw)) for i, raw in enumerate(entries)]

    def trump_list(self, groups: Any, acts: Groups, chars: Groups) -> list[Data]:
        if not isinstance(groups, list):
            self.problem(("trumpList",), "trumpList: expected a list of groups")
            return []
        found = []
        for g, group in enumerate(groups):
            entries = group.get("trumps") if isinstance(group, dict) else None
            if not isinstance(entries, list) or len(entries) != 1:
                self.problem(("trumpList", g), "expected a group with a type and one trump")
                continue
            raw = self.kept(entries[0])
            if not isinstance(raw, dict) or raw.get("trumpType") == self.c.words.face_down_trump:
                continue  # the face-down trump is a rule, not a card's ability
            trump = self.card_trump(("trumpList", g, "trumps", 0), raw)
            if trump is None:
                continue
            kind = str(group.get("type"))
            actions, characters = self.actions(acts.get(kind)), self.characters(chars.get(kind))
            trump |= {"actions": actions} if actions else {}
            found.append(trump | ({"characters": characters} if characters else {}))
        return found

    def card_trump(self, path: PathKey, raw: dict[str, Any]) -> Data | None:
        for key in raw:
            if key not in (*_TRUMP, "trumpKey"):
                self.c.unknown((*path, key))
        key = self.c.text((*path, "trumpKey"), raw.get("trumpKey"))
        suit, number = key[:1], key[1:]
        if suit not in self.c.words.suits.values() or number not in NUMBERS:
            self.problem((*path, "trumpKey"), f"trumpKey '{key}': expected a suit and a number such as ♠A")
            return None
        trump: Data = {"suit": suit, "number": number}
        for upstream, mine in _TRUMP.items():
            text = self.c.text((*path, upstream), raw.get(upstream))
            if text or mine in ("id", "name", "ability"):
                trump[mine] = text
        return trump
