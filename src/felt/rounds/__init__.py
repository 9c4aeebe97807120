"""The shared round machinery every game uses: actions, the shoe, discard rack, ledger and events
(:mod:`.engine`), the verify/can/do round (:mod:`.round_core`) and shuffles (:mod:`.shuffle`)."""
