"""The rules compiler: load → validate → parse → check → link → emit (docs/architecture.md).

`compile(edition, format)` returns the immutable rule set the sheets and the engine consume.
"""

from blackpoker.compiler.pipeline import compile_edition, compile_ruleset
from blackpoker.runtime.rules.diagnostics import CompileError, Diagnostic
from blackpoker.runtime.rules.model import RuleSet

compile = compile_ruleset  # the name the rest of the project (and its users) call it by

__all__ = ["CompileError", "Diagnostic", "RuleSet", "compile", "compile_edition", "compile_ruleset"]
