"""Whether a job still fits its partition once nodes are excluded."""

import pytest

from models.placement import fit_after_exclusion

pytestmark = pytest.mark.unit

NODES = {"node1": "IDLE", "node2": "MIXED", "node3": "ALLOCATED", "node4": "DOWN"}


@pytest.mark.parametrize(
    ("excluded", "needed", "fits", "usable"),
    [
        ([], 3, True, 3),  # node4 is down: not usable
        (["node2"], 3, False, 2),
        (["node2"], 2, True, 2),
        (["node4"], 3, True, 3),  # excluding a down node costs nothing
        (["node1", "node2", "node3"], 1, False, 0),
        ([], 0, True, 3),  # a job always needs at least one node
    ],
)
def test_fit_after_exclusion(excluded, needed, fits, usable):
    fit = fit_after_exclusion(NODES, excluded, needed)
    assert (fit.fits, fit.usable) == (fits, usable)
    assert "partition 'gpu'" in fit.explain("gpu")
