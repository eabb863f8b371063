"""The deskact CPU group weighs one ordinary process per world (not one process for all worlds)."""

from __future__ import annotations

import uuid

import pytest
from deskact.runtime.world import cgroups


def _weight() -> int:
    kind, parents = cgroups.layout()
    cpu = parents[2] if kind == "v1" else parents[0]
    return int((cpu / ("cpu.shares" if kind == "v1" else "cpu.weight")).read_text())


def _worlds() -> int:
    kind, parents = cgroups.layout()
    cpu = parents[2] if kind == "v1" else parents[0]
    return sum(1 for d in cpu.iterdir() if d.is_dir())


def _settles_to_count() -> bool:
    """weigh_parent() sets one ordinary process's weight per world: retried, since other tests on
    the machine make and remove worlds (and recount) at the same time."""
    kind = cgroups.layout()[0]
    for _ in range(50):
        before = _worlds()
        cgroups.weigh_parent()
        weight = _weight()
        if _worlds() == before and weight == min(cgroups.WEIGHT_PER_WORLD[kind] * max(1, before),
                                                 cgroups._MAX_WEIGHT[kind]):
            return True
    return False


@pytest.mark.skipif(cgroups.layout()[0] == "none", reason="no cgroup to make here (not root, or no controllers)")
def test_parent_weight_follows_the_worlds() -> None:
    kind = cgroups.layout()[0]
    group = cgroups.WorldCgroup(f"deskact-test-weight-{uuid.uuid4().hex[:8]}", cgroups.Limits(256, 64, 1.0))
    try:
        assert _worlds() >= 1
        assert _weight() >= cgroups.WEIGHT_PER_WORLD[kind]
        assert _settles_to_count()
    finally:
        group.remove()
    assert _settles_to_count()
