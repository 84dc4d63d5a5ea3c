"""Suspect nodes: implicated in failures of several different jobs within a window."""

import pytest

from models.suspects import Suspect, SuspectQuery, suspects

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("incidents", "culprits", "expected"),
    [
        ([], [], []),
        ([("node2", 7)], [], []),  # one other job: not yet suspect
        ([("node2", 7)], ["node2"], [Suspect("node2", [7, 42])]),  # this failure names it too
        ([("node2", 7), ("node2", 9)], [], [Suspect("node2", [7, 9])]),
        ([("node2", 7), ("node2", 7)], [], []),  # the same job twice is one job
        ([("node9", 7), ("node9", 9)], [], []),  # not a node of this attempt
        (
            [("node1", 7), ("node1", 8), ("node2", 8)],
            ["node2"],
            [Suspect("node1", [7, 8]), Suspect("node2", [8, 42])],
        ),
    ],
)
def test_suspects(incidents, culprits, expected):
    query = SuspectQuery(cluster="c", job_id=42, nodes=["node1", "node2"], culprits=culprits)
    assert suspects(query, incidents) == expected
