"""`blackpoker serve`: the browser app — play against an agent or a person, replays, positions."""
