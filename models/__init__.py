"""ajr's vocabulary: plain dataclasses and pure functions, no I/O. Safe to import from workflows."""
