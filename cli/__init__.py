"""Command-line interface: the `blackpoker` console script."""
