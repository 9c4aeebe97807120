"""The front ends: the ``felt`` command (:mod:`.main`), the terminal table (:mod:`.play`), round
scripts and reports (:mod:`.script`) and plots (:mod:`.plots`)."""
