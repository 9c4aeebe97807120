"""Let It Ride Poker (N.J.A.C. 19:47-18): three equal wagers, the first two of which a player may
take back, a hand of three cards and two community cards, and the optional bonus wagers of 18.6A
and 18.6B.  Registered as the entry point ``let_it_ride`` (:mod:`.game`)."""
