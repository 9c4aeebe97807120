"""A table loop's wake-up (:class:`felt.server.host.Wake`) sleeps as :func:`sleep_until` did."""

import asyncio
import time

from felt.server.host import Wake


def test_wake_sleep_ends_on_set_on_timeout_or_at_once() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        wake = Wake()
        began = time.monotonic()
        loop.call_later(0.01, wake.set)
        await wake.sleep(10.0)  # ended by the set, long before the timeout
        assert wake.is_set()
        assert time.monotonic() - began < 5.0
        await wake.sleep(10.0)  # already set: at once
        wake.clear()
        began = time.monotonic()
        await wake.sleep(0.02)  # ended by the timeout
        assert 0.015 <= time.monotonic() - began < 5.0
        assert not wake.is_set()
        await wake.sleep(-1.0)  # past: at once
        waiter = asyncio.ensure_future(wake.wait())  # an ordinary waiter still wakes
        await asyncio.sleep(0)
        wake.set()
        await asyncio.wait_for(waiter, 5.0)

    asyncio.run(run())
