"""The runtime: the engine (`engine/`), the tools that play it (`play/`), ruling scenarios (`scenario/`)."""
