"""The rule-set vocabulary the compiler emits and the engine executes: the rule-set model, the
program nodes, cards, key specs and their matchers, costs, diagnostics and the enums of a game.

It imports nothing of the compiler and no third-party package, so the engine runs where the
compiler is not installed (docs/architecture.md).
"""
