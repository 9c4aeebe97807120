"""The shared core, pure and without I/O or hidden randomness: cards, money, errors, the hand
rankings as written (:mod:`.ranking`), their lookup tables and evaluators, pay tables, and the
reading of table files."""
