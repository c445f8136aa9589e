"""The document kinds beside an edition: extra lists and their local rules, regulations,
decks, local rules (overlays), based editions, and the diff of two rule sets. Each builds on
the pipeline's stages (compiler/); the environment reads them (docs/architecture.md)."""
