"""Caribbean Stud Poker (N.J.A.C. 19:47-16), with its progressive payout."""
