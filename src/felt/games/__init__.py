"""One sub-package per game, each holding only what is particular to that game: its rules (the
round), its data and configuration, its suggested strategy and what carries between rounds."""
