"""Let It Ride Poker (N.J.A.C. 19:47-18): three equal wagers, the first two of which a player may
take back, a hand of three cards and two community cards, and the optional bonus wagers of 18.6A
and 18.6B.  Configuration and rules data (:mod:`.config`), hands (:mod:`.hand`), actions
(:mod:`.actions`), the round (:mod:`.round`), what a position sees (:mod:`.view`), the table
across rounds with the card change schedule of 18.4(e) (:mod:`.table`), scripts (:mod:`.script`)
and the game interface (:mod:`.game`), registered as the entry point ``let_it_ride``.  The seed
text holds 18.1 to 18.4 and the titles of 18.5-18.12; docs/interpretations.md ("Let It Ride
Poker") names the sources of the rest."""
