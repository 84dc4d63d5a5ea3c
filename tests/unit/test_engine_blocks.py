"""Block fast paths equal the per-line ones: read_blocks/read_lines, feed_block/feed, prefilter."""

from __future__ import annotations

import math
import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from activities.logs.scanner import LogScanner, _may_hold_long_line
from analysis import detectors
from analysis.analyzer import AnalyzerContext, Finding
from analysis.detectors import may_matter
from analysis.engine import LogEngine
from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS
from tests.blocks import candidate_starts
from tests.fakes import engine_settings

pytestmark = pytest.mark.unit

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _corpus_lines() -> list[str]:
    lines: list[str] = []
    for path in sorted(CORPUS.glob("*.log")):
        lines += path.read_text(encoding="utf-8", errors="replace").split("\n")
    return lines


# Real signal, progress, checkpoint, straggler and noise lines, plus edge cases of the block
# encoding (non-ASCII, lone surrogates, CR, empty lines, tokens at line ends).
POOL = [
    *_corpus_lines(),
    "",
    "\r",
    "  17: [2024-07-30 14:21:44] [INFO] rank 17: fetched batch 12 in 3.2 ms",
    " 1023: [2024-07-30 14:21:47] iteration       12/  508626 | elapsed time per iteration (ms): "
    "3000.0 | throughput per GPU (TFLOP/s/GPU): 386.7 | lm loss: 2.3E+00 |",
    " 1023: [2024-07-30 14:21:50] iteration       13/  508626 | throughput per GPU (TFLOP/s/GPU): "
    "120.0 | lm loss: nan |",
    "3: Traceback (most recent call last):",
    '3:   File "/train.py", line 1, in step',
    "3: RuntimeError: CUDA error: an illegal memory access was encountered",
    "4: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    "0: saving checkpoint at iteration       2 to /fsx/checkpoints",
    "0:   successfully saved checkpoint at iteration       2 to /fsx/checkpoints",
    "my-site-ckpt done step 7",
    "STRAGGLER DETECTION WARNING: Some GPUs perf dropped. Affected ranks: [3, 5]",
    "Rank=3 Node=node2 Score=0.41",
    "héllo wörld 中文 error",
    "ünïcode iteration 5 ✓",
    "lone \udc80 surrogate",
    "tail token rror",
]

line = st.one_of(
    st.sampled_from(POOL),
    st.text(max_size=40).map(lambda t: t.replace("\n", " ")),
)
batches = st.lists(
    st.tuples(
        st.lists(line, min_size=1, max_size=30),
        st.floats(min_value=0, max_value=60),  # time since the previous batch
        st.booleans(),  # the watcher polls silence after the batch
    ),
    min_size=1,
    max_size=12,
)
contexts = st.builds(
    lambda confirm, site, nodes: AnalyzerContext(
        job_nodes=nodes,
        settings=engine_settings(
            checkpoint_patterns=(*DEFAULT_CHECKPOINT_PATTERNS, *site),
            crash_confirm_s=confirm,
            tflops_warmup=1,
            tflops_sustained=2,
        ),
    ),
    st.sampled_from(["0", "5", "30"]),
    st.sampled_from([(), (r"my-site-ckpt done step (?P<iteration>\d+)",)]),
    st.sampled_from([(), ("node1", "node2", "node3")]),
)


def snapshot(obj: Any, depth: int = 0) -> Any:
    """Everything an engine holds, as plain comparable values (NaN-safe)."""
    if depth > 8:
        return repr(obj)
    if isinstance(obj, float):
        return repr(obj) if math.isnan(obj) else obj
    if obj is None or isinstance(obj, (bool, int, str, bytes)):
        return obj
    if isinstance(obj, re.Pattern):
        return obj.pattern
    if isinstance(obj, (list, tuple, deque)):
        return [snapshot(x, depth + 1) for x in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(repr(x) for x in obj)
    if isinstance(obj, dict):
        return {repr(k): snapshot(v, depth + 1) for k, v in obj.items()}
    fields: dict[str, Any] = {}
    if hasattr(obj, "__dict__"):
        fields.update(vars(obj))
    fields.pop("last_progress", None)  # what the last `feed` call read: per call by design
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                fields[name] = getattr(obj, name)
    if not fields:
        return repr(obj)
    return {type(obj).__name__: {k: snapshot(v, depth + 1) for k, v in fields.items()}}


def per_line(engine: LogEngine, lines: list[str], at: float) -> list[Finding]:
    return [f for text in lines if (f := engine.feed(text, at)) is not None]


@settings(max_examples=400, deadline=None)
@given(context=contexts, script=batches, by_block=st.booleans())
def test_feed_block_equals_feed_per_line(
    context: AnalyzerContext,
    script: list[tuple[list[str], float, bool]],
    by_block: bool,
) -> None:
    reference, fast = LogEngine(context), LogEngine(context)
    at = 1000.0
    for lines, dt, poll in script:
        at += dt
        want = per_line(reference, lines, at)
        got = fast.feed_block("\n".join(lines), at) if by_block else fast.feed_lines(lines, at)
        assert got == want
        assert snapshot(fast) == snapshot(reference)
        if poll:
            assert fast.silence(dt, at + dt) == reference.silence(dt, at + dt)
            assert snapshot(fast) == snapshot(reference)


def test_feed_lines_of_nothing_is_nothing() -> None:
    engine = LogEngine(AnalyzerContext())
    assert engine.feed_lines([], 5.0) == []
    assert snapshot(engine) == snapshot(LogEngine(AnalyzerContext()))


def test_one_block_reports_a_straggler_and_then_a_crash() -> None:
    """Several findings in one block all come back, in log order."""
    lines = [
        "STRAGGLER DETECTION WARNING: Some GPUs perf dropped. Affected ranks: [3]",
        "Rank=3 Node=node2 Score=0.41",
        "0: [2024-07-30 14:21:44] [INFO] noise",
        "Rank0: (1) segmentation fault: artificial segfault",
    ]
    engine = LogEngine(AnalyzerContext(job_nodes=("node1", "node2")))
    reference = LogEngine(AnalyzerContext(job_nodes=("node1", "node2")))
    got = engine.feed_lines(lines, 10.0)
    assert got == per_line(reference, lines, 10.0)
    assert [f.kind.value for f in got] == ["STRAGGLER", "CRASH"]


# --- the prefilter -----------------------------------------------------------------------------


fragments = st.lists(
    st.one_of(
        st.sampled_from(
            [
                *detectors._TOKENS,
                "iteratio",
                "rro",
                "NCC",
                "Ran",
                "é",
                "中",
                " ",
                "step 5, ",
                "Step: 3",
                "step 1 micro",
                "step 2 loss",
                "STEP=7]",
                "rank host fwd opt",
                " rank a b",
                "0: rank x y z",
            ]
        ),
        st.text(alphabet="abcXYZ=:Rrio \r", max_size=6),
    ),
    max_size=8,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(lines=st.lists(fragments, min_size=1, max_size=20))
def test_next_candidate_finds_exactly_the_lines_may_matter_accepts(lines: list[str]) -> None:
    data = "\n".join(lines).encode()
    starts, pos = [], 0
    for text in lines:
        starts.append(pos)
        pos += len(text.encode()) + 1
    found = candidate_starts(data)
    assert found == [s for s, text in zip(starts, lines, strict=True) if may_matter(text)]


# --- the scanner ---------------------------------------------------------------------------------

raw_lines = st.one_of(
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")),
    st.text(max_size=30).map(lambda t: t.replace("\n", "").encode()),
    st.sampled_from([b"", b"\r", b"x\r", b"x\r\r", "é中\U0001f600".encode(), b"\xe2\x82", b"\xff"]),
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(raw_lines, max_size=30),
    tail=st.binary(max_size=10).map(lambda b: b.replace(b"\n", b"")),
    limit=st.integers(min_value=1, max_value=48),
    budgets=st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=10),
)
def test_read_blocks_hold_the_lines_read_lines_returns(
    tmp_path: Path, lines: list[bytes], tail: bytes, limit: int, budgets: list[int]
) -> None:
    path = tmp_path / "blocks.log"
    path.write_bytes(b"".join(raw + b"\n" for raw in lines) + tail)
    with (
        LogScanner(str(path), max_line_bytes=limit) as a,
        LogScanner(str(path), max_line_bytes=limit) as b,
    ):
        for step in range(10_000):
            budget = budgets[step % len(budgets)]
            want = a.read_lines(budget)
            blocks = b.read_blocks(budget)
            assert [text for block in blocks for text in block.split("\n")] == want
            assert (a.offset, a.pending_bytes) == (b.offset, b.pending_bytes)
            if a.offset == len(lines) + sum(map(len, lines)) and not want:
                break


@pytest.mark.parametrize("limit", [8191, 8192, 8193, 65536])
@pytest.mark.parametrize("seed", range(20))
def test_the_long_line_check_never_misses_one(limit: int, seed: int) -> None:
    rng = __import__("random").Random(seed * 7919 + limit)
    # Line lengths around the limit and the check's window size, in a block several windows long.
    sizes = [
        rng.choice([0, 1, 100, limit // 2, limit // 2 + 1, limit - 1, limit, limit + 1, limit + 2])
        for _ in range(12)
    ]
    block = b"\n".join(b"x" * n for n in sizes)
    if max(sizes) > limit:
        assert _may_hold_long_line(block, limit)
    elif len(block) > 4 * limit and max(sizes) <= limit // 2:
        assert not _may_hold_long_line(block, limit)  # and it does say "no" when it can


def test_long_lines_are_still_cut_on_the_fast_path(tmp_path: Path) -> None:
    path = tmp_path / "long.log"
    path.write_bytes(b"a\n" * 50_000 + b"b" * 70_000 + b"\nz\n")
    with LogScanner(str(path)) as scanner:
        lines = scanner.read_lines()
    assert lines[-1] == "z"
    assert lines[-2].startswith("b" * 65536) and lines[-2].endswith("…[truncated 4464 bytes]")
