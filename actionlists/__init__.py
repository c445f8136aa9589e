"""The built-in official action lists, one YAML file per edition."""
