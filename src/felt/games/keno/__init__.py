"""Keno by N.J.A.C. 19:47-15: rate cards (:mod:`.ratecard`), tickets and their conditioning
(:mod:`.tickets`), the exact mathematics (:mod:`.exact`, :mod:`.analysis`), grading many tickets at
once (:mod:`.grading`), draw sources (:mod:`.draw`) and the keno computer system as a pure state
machine (:mod:`.system`)."""

from felt.games.keno.analysis import CardAnalysis, TicketAnalysis, analyze_card, analyze_ticket
from felt.games.keno.ratecard import RateCard, Validity, example_rate_card, load_rate_card
from felt.games.keno.tickets import KINDS, TICKET_TYPES, Condition, Ticket, quick_pick, read_request

__all__ = [
    "KINDS",
    "TICKET_TYPES",
    "CardAnalysis",
    "Condition",
    "RateCard",
    "Ticket",
    "TicketAnalysis",
    "Validity",
    "analyze_card",
    "analyze_ticket",
    "example_rate_card",
    "load_rate_card",
    "quick_pick",
    "read_request",
]
