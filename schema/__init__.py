"""JSON Schemas for every YAML kind the compiler reads."""
