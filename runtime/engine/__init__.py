"""The rules engine: game state, the core flow, effect programs and legal options."""
