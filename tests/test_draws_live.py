"""Live play and the draws (issue 26): each connected device adds its share to every draw.

The live table of tests/live_kit.py (real pages on the real shell, a fake network): the
guests send a fresh share after each update; the host's page mixes every share it holds
into the next draws, and the draws still recompute."""
from __future__ import annotations

from live import Guest
from live_kit import Net, play_steps, world_host
from world import WorldPage

from conquest.draws import check_draws, describe_contribution
from conquest.rng import Rng


def test_a_live_game_whose_draws_include_each_guests_share() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    cy = net.join("peer-c", WorldPage, "Cy", 2)
    assert isinstance(bob, Guest) and isinstance(cy, Guest)
    rng = Rng(4)
    for _ in range(160):
        for shell in (host_shell, *(g.shell for g in net.guests.values())):
            shell.host.advance(600)  # people (and a guest's share) at a person's pace
        play_steps(net, host_shell, rng, 1)
    m = host_shell.session.match
    assert m.draws is not None and m.draws.count > 3
    live = [c for c in m.draws.contributions if c.startswith("@")]
    assert live, m.draws.contributions
    # each draw after the guests joined carries the host's and both guests' shares
    for c in live:
        keys = sorted(part.split("=")[0] for part in c[1:].split())
        assert keys == ["1", "2", "h"], c
        assert describe_contribution(c, ["Ann", "Bob", "Cy"]) == "live: shares of the host's device and Bob, Cy"
    result = check_draws(m.game, m.states, m.log, m.undone, m.draws)
    assert result.status == "checked" and result.kinds.get("live") == len(live), result.summary()
    assert "live" in result.summary()


def test_a_malformed_share_is_refused_and_changes_nothing() -> None:
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    net.join("peer-b", WorldPage, "Bob", 1)
    device = next(iter(net.table.seating.devices.values()))
    before = device.share
    for bad in ('{"t": "share", "share": "<b>x</b>"}', '{"t": "share", "share": 12}', '{"t": "share"}'):
        net.table.receive("peer-b", bad, clock.clock() + 10_000)
        clock.advance(1000)
        assert device.share == before
    net.run()
    assert any("six hex digits" in g.refusals[-1] for g in net.guests.values() if g.refusals)


def test_a_share_held_back_by_the_rate_is_sent_when_the_rate_allows() -> None:
    """Two updates within ``share_every_ms``: the host forgets a guest's share when it sends
    new steps, so the guest's second share, held back by the rate, must still go out (it was
    dropped, and in the browser the next draws were automatic)."""
    host_shell, clock = world_host()
    net = Net(host_shell, clock)
    bob = net.join("peer-b", WorldPage, "Bob", 1)
    device = next(d for d in net.table.seating.devices.values() if d.seat == 1)
    bob.send_share()  # within the rate of the share its join sent: held back, not dropped
    assert bob.share_due
    device.share = None  # as the host's next update does
    bob.shell.host.run_timers()
    net.run()
    assert device.share is not None and not bob.share_due
