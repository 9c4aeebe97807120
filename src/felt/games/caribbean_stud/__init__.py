"""Caribbean Stud Poker by N.J.A.C. 19:47-16 as dealt in New Jersey: configuration and rules data
(:mod:`.config`), hands (:mod:`.hand`), actions (:mod:`.actions`), the round with its progressive
payout (:mod:`.round`), what a position sees (:mod:`.view`), the table across rounds
(:mod:`.table`), scripts (:mod:`.script`) and the game interface (:mod:`.game`).  The seed text
holds 16.1 to 16.5(b)7 and the titles of 16.6-16.13; docs/interpretations.md ("Caribbean Stud
Poker") names the sources of the rest."""
