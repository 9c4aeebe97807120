"""The poker room of N.J.A.C. 19:47-14: a table's settings, one hand over PokerKit, the table.

Not registered as a felt game yet (issue 24: the server, browser and registry come next)."""
