"""The rules compiler: load → validate → parse → check → link → emit (docs/architecture.md).

`compile(edition, format)` returns the immutable rule set the sheets and the engine consume.
The pipeline is imported on first use of `compile` or `compile_edition` (PEP 562), so that a
module that only names rule-set types or files (`blackpoker.compiler.paths`, the rule-set
cache) loads no stage and none of the parser packages.
"""

from typing import TYPE_CHECKING, Any

from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic
from blackpoker.runtime.rules.model import RuleSet

if TYPE_CHECKING:
    from blackpoker.compiler.pipeline import compile_edition, compile_ruleset

    compile = compile_ruleset  # the name the rest of the project (and its users) call it by

# the pipeline's names, each with its function there
_PIPELINE = {
    "compile": "compile_ruleset",
    "compile_edition": "compile_edition",
    "compile_ruleset": "compile_ruleset",
}

__all__ = ["CompileError", "Diagnostic", "RuleSet", "compile", "compile_edition", "compile_ruleset"]


def __getattr__(name: str) -> Any:
    if name not in _PIPELINE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from blackpoker.compiler import pipeline

    return getattr(pipeline, _PIPELINE[name])
