"""Three Card Poker by N.J.A.C. 19:47-20 as dealt in New Jersey: configuration and rules data
(:mod:`.config`), hands (:mod:`.hand`), actions (:mod:`.actions`), the round (:mod:`.round`),
what a position sees (:mod:`.view`), the suggested play (:mod:`.strategy`), the table across
rounds (:mod:`.table`) and the exact analysis (:mod:`.analysis`).  The seed text holds only the
titles of 20.1-20.12; docs/interpretations.md ("Three Card Poker") names the sources of the rest."""
