"""Craps (N.J.A.C. 19:47-1): a continuous dice game for a full table.  The shooter's come out roll,
points and come points (1.1), every wager of 1.2(a), the buy and lay wagers of 1.5 and the odds
of 1.6.  The places a wager can lie (:mod:`.spots`), the configuration and rules data
(:mod:`.config`), the actions (:mod:`.actions`), one roll as a round of the shared machinery
(:mod:`.round`), the layout carried from roll to roll (:mod:`.table`), what a position sees
(:mod:`.view`), the exact analysis (:mod:`.analysis`) and the game interface (:mod:`.game`),
registered as the entry point ``craps``.  The seed text holds 1.1 and 1.2(a) and the titles of
1.3-1.11; docs/interpretations.md ("Craps") names the sources of the rest."""
