"""check-log's bulk reading of big logs finds what line-by-line reading finds.

`_Replay._skim` reads runs of lines whose times are close together without parsing each line;
the findings, their line numbers, checkpoints and throughput must equal the line-by-line read
(`_RUN` set beyond the log's length), and the format counts must be close.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from activities.logs import checklog
from activities.logs.checklog import CheckReport, check_log
from analysis.lines import has_elision
from tests.blocks import candidate_starts

pytestmark = pytest.mark.unit

START = 1_722_349_304  # 2024-07-30 14:21:44 UTC
NAME = "gpt3_4242_date_24-07-30_time_14-21-44.log"


def stamp(t: float) -> str:
    return time.strftime("[%Y-%m-%d %H:%M:%S]", time.gmtime(t))


def big_log(
    iterations: int = 300, *, crash_at: int | None = None, pause_at: int | None = None
) -> list[str]:
    """A 16-rank Megatron-like log: per-rank noise, an iteration every 3 s, saves every 50."""
    out, t = [f"    0: {stamp(START)} building GPT model ..."], float(START)
    for i in range(1, iterations + 1):
        for r in range(16):
            out.append(f"{r:5d}: {stamp(t + r * 0.1)} [INFO] rank {r}: step {i} micro-batch 3 "
                       f"forward done (3.{r} ms)")  # fmt: skip
            out.append(f"{r:5d}: {stamp(t + r * 0.1)} [DEBUG] rank {r}: grad scale 65536.0, "
                       f"step {i}")  # fmt: skip
        out.append(
            f"   15: {stamp(t + 2)} iteration {i:8d}/ 100000 | elapsed time per iteration (ms): "
            f"3000.0 | throughput per GPU (TFLOP/s/GPU): 38{i % 7}.0 | lm loss: 2.3E+00 |"
        )
        if i % 50 == 0:
            out.append(f"    0: {stamp(t + 2)} saving checkpoint at iteration {i:7d} to /ckpt")
            out.append(
                f"    0: {stamp(t + 2)}   successfully saved checkpoint at iteration {i:7d} to /c"
            )
        if i == crash_at:
            out.append(f"    3: {stamp(t + 2)} Segmentation fault (core dumped)")
        t += 3.0
        if i == pause_at:
            t += 600.0
    return out


def both(tmp_path: Path, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[
    CheckReport, CheckReport
]:  # fmt: skip
    path = tmp_path / NAME
    path.write_text("".join(f"{x}\n" for x in lines))
    bulk = check_log(str(path))
    with monkeypatch.context() as patch:
        patch.setattr(checklog, "_RUN", 10**9)  # never a full run: every line one by one
        exact = check_log(str(path))
    return bulk, exact


@pytest.mark.parametrize(
    "lines",
    [
        big_log(),
        big_log(crash_at=200),
        big_log(pause_at=150),  # a 10-minute silence mid-run: a HANG at its line
        [*big_log(100), "...", *big_log(100)[1:]],  # an excerpt's cut
    ],
    ids=["healthy", "crash", "silence", "cut"],
)
def test_bulk_reading_finds_what_line_by_line_reading_finds(
    lines: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bulk, exact = both(tmp_path, lines, monkeypatch)
    assert bulk.sampled and not exact.sampled  # the bulk path was taken
    assert [(d.kind, d.line, d.summary) for d in bulk.findings] == [
        (d.kind, d.line, d.summary) for d in exact.findings
    ]
    assert bulk.lines == exact.lines
    assert bulk.tflops == exact.tflops
    assert [(c.step, c.line) for c in bulk.checkpoint_saves] == [
        (c.step, c.line) for c in exact.checkpoint_saves
    ]
    assert bulk.largest_gap_s == exact.largest_gap_s or bulk.skimmed_gap_s < bulk.hang_timeout_s
    for counted in ("nonempty", "timestamped", "ranked"):
        assert getattr(bulk, counted) == pytest.approx(getattr(exact, counted), rel=0.02)
    assert [p.rule for p in bulk.problems] == [p.rule for p in exact.problems]


# --- the text mechanics of the bulk path ---------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    lengths=st.lists(st.sampled_from([0, 1, 3, 40, 113, 700, 3000]), max_size=300),
    first=st.integers(min_value=0, max_value=300),
    n=st.integers(min_value=1, max_value=400),
    avg=st.sampled_from([1, 7, 64, 113, 5000, 10**6]),
)
def test_run_ends_are_found_by_counting(lengths: list[int], first: int, n: int, avg: int) -> None:
    lines = ["x" * k for k in lengths]
    text = "\n".join(lines)
    first = min(first, len(lines) - 1) if lines else 0
    start = sum(k + 1 for k in lengths[:first])
    newlines = [i for i, c in enumerate(text) if c == "\n" and i >= start]
    assert checklog._nth_newline(text, start, n, avg) == (
        newlines[n - 1] if len(newlines) >= n else -1
    )
    ends = (*newlines, len(text))  # the end of each line from `start`
    assert checklog._lines_end(text, start, n, avg) == (ends[n - 1] if len(ends) >= n else -1)
    for length in (2, 5, 1024):
        assert checklog._has_line_of(text, length) == (max(map(len, lines), default=0) >= length)


cut_fragments = st.lists(
    st.sampled_from(
        [
            "    0: [2024-07-30 14:21:44] [INFO] rank 0: fetched batch 3",
            " 1023: [2024-07-30 14:21:47] iteration 12/ 100 | throughput per GPU (TFLOP/s/GPU): 1",
            "    0:     forward-backward ...............................: (1.2, 3.4)",
            "...",
            "  3: [...]",
            "(200 lines omitted)",
            "[snip] error",
            "lines\tremoved",
            "3 LINES SKIPPED",
            "elided, said the Traceback",
            "",
        ]
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(lines=cut_fragments)
def test_one_pass_finds_the_candidates_and_the_cuts(lines: list[str]) -> None:
    data = "\n".join(lines).encode()
    found = candidate_starts(data)
    assert checklog._candidates(data) == (None if has_elision(data) else found)
