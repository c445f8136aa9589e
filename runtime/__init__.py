"""The rules engine that runs a compiled rule set."""
