"""The front ends: the ``felt`` command (:mod:`.main`), the terminal table (:mod:`.play`), round
scripts and reports (:mod:`.script`) and plots (:mod:`.plots`)."""

from felt.cli.main import main

__all__ = ["main"]
