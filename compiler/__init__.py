"""The rules compiler: load → validate → parse → link → emit.

`compile(edition, format)` returns the immutable rule set the sheets and the engine consume.
"""

from blackpoker.compiler.diagnostics import CompileError, Diagnostic
from blackpoker.compiler.model import RuleSet
from blackpoker.compiler.pipeline import compile_edition, compile_ruleset

compile = compile_ruleset  # the name the rest of the project (and its users) call it by

__all__ = ["CompileError", "Diagnostic", "RuleSet", "compile", "compile_edition", "compile_ruleset"]
