"""Rank -> node from the job's node list (block distribution), and attribution that uses it."""

import pytest

from analysis.attribution import attribute
from analysis.detectors import GPU, Signal
from analysis.layout import block_layout, node_of_rank

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("nodes", "ntasks", "layout"),
    [
        (("n1", "n2"), 4, ("n1", "n1", "n2", "n2")),
        (("n1", "n2", "n3"), 4, ("n1", "n1", "n2", "n3")),  # the first nodes take one more
        (("n1",), 3, ("n1", "n1", "n1")),
        (("n1", "n2"), 0, ()),
        ((), 8, ()),
    ],
)
def test_block_layout(nodes, ntasks, layout):
    assert block_layout(nodes, ntasks) == layout


@pytest.mark.parametrize(("rank", "node"), [(0, "n1"), (3, "n2"), (4, ""), (None, ""), (-1, "")])
def test_node_of_rank(rank, node):
    assert node_of_rank(("n1", "n1", "n2", "n2"), rank) == node


def test_a_gpu_error_naming_only_its_rank_excludes_that_ranks_node():
    ecc = Signal(
        name="cuda_ecc",
        category=GPU,
        summary="uncorrectable ECC error",
        immediate=True,
        line="5: CUDA error: uncorrectable ECC error encountered",
        rank=5,
        exclude=True,
    )
    attribution = attribute([ecc], rank_nodes=block_layout(("gpu01", "gpu02"), 16))
    assert attribution is not None and attribution.culprit_nodes == ("gpu01",)
    late = attribute([ecc], rank_nodes=block_layout(("gpu01", "gpu02"), 8))
    assert late is not None and late.culprit_nodes == ("gpu02",)
    assert attribute([ecc]) is not None and attribute([ecc]).culprit_nodes == ()  # type: ignore[union-attr]
