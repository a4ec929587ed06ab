"""The event hub: ordered ids, waiting, a resync instead of a growing queue, closing."""

from __future__ import annotations

import threading
import time

from live.bus import Bus


def test_messages_come_in_order_after_the_last_id_seen():
    bus = Bus()
    for i in range(3):
        bus.publish("verdict", {"n": i})
    assert [m.data["n"] for m in bus.since(1)] == [1, 2]
    assert bus.since(3) == []
    assert bus.since(0)[0].sse() == 'id: 1\nevent: verdict\ndata: {"n": 0}\n\n'


def test_a_client_too_far_behind_gets_a_resync_not_a_queue():
    bus = Bus(capacity=4)
    for i in range(10):
        bus.publish("status", {"n": i})
    msgs = bus.since(2)
    assert [m.kind for m in msgs] == ["resync"] and msgs[0].id == 10
    assert len(bus.since(6)) == 4


def test_wait_wakes_on_publish_and_on_close():
    bus = Bus()
    got = []

    def waiter():
        got.extend(bus.wait(0, 5.0))

    t = threading.Thread(target=waiter)
    t.start()
    time.sleep(0.05)
    bus.publish("verdict", {})
    t.join(2)
    assert [m.kind for m in got] == ["verdict"]
    t0 = time.monotonic()
    threading.Timer(0.05, bus.close).start()
    assert bus.wait(1, 5.0) == [] and time.monotonic() - t0 < 2 and bus.closed
