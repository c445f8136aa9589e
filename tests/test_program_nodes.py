"""The program nodes' reflection that a build compiled with mypyc cannot take from the classes
(docs/engine.md, "The compiled engine"): their field types, read from the module's source,
and the words they are written under, kept in tables."""

from __future__ import annotations

from typing import get_type_hints

from blackpoker.runtime.rules import program
from blackpoker.runtime.rules.program import ABILITIES, STEPS, Ability, Node, Step, source_field_types


def _subclasses(cls: type[Node]) -> set[type[Node]]:
    """The module's classes below `cls` (a dataclass with slots leaves its first class behind)."""
    below = {found for sub in cls.__subclasses__() for found in (sub, *_subclasses(sub))}
    return {sub for sub in below if getattr(program, sub.__name__, None) is sub}


def test_the_field_types_read_from_the_source_are_the_classes_own() -> None:
    classes = _subclasses(Node)
    assert len(classes) > 40
    for cls in classes:
        assert source_field_types(cls) == get_type_hints(cls, include_extras=True), cls.__name__


def test_every_step_and_ability_class_has_its_word() -> None:
    assert set(STEPS.values()) == _subclasses(Step)
    assert set(ABILITIES.values()) == _subclasses(Ability)
    assert len(set(STEPS) | set(ABILITIES)) == len(STEPS) + len(ABILITIES)
