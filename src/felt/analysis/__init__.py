"""Exact game mathematics: full enumeration of every game's outcomes under any pay table."""
