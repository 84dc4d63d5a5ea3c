"""Line parsing: rank prefixes, timestamps, srun chunk re-joining."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from analysis.lines import (
    SRUN_CHUNK_BYTES,
    ParsedLine,
    SrunJoiner,
    looks_split,
    parse_line,
    parse_timestamp,
    split_prefix,
    zone_shift,
)

pytestmark = pytest.mark.unit


def ts(*args: int, tz: timezone = UTC) -> float:
    return datetime(*args, tzinfo=tz).timestamp()  # type: ignore[arg-type, misc]


@pytest.mark.parametrize(
    ("raw", "rank", "label", "text"),
    [
        ("plain text", None, None, "plain text"),
        ("12: text", 12, 12, "text"),
        ("  3: text", 3, 3, "text"),  # space-padded label
        ("03: text", 3, 3, "text"),  # srun pads labels with zeros
        ("0: ", 0, 0, ""),
        ("0:", 0, 0, ""),
        ("[rank3]: hello", 3, None, "hello"),
        ("[rank3]:[E ProcessGroupNCCL.cpp:1] x", 3, None, "[E ProcessGroupNCCL.cpp:1] x"),
        ("1: [rank27]: boom", 27, 1, "boom"),  # the global rank wins over the task label
        # torchrun --tee: the launcher's prefix, then PyTorch's own for an uncaught exception
        ("[default1]:[rank1]: Traceback", 1, None, "Traceback"),
        ("[rank0]:[rank0]: RuntimeError: x", 0, None, "RuntimeError: x"),
        ("[rank1]:[rank9]: y", 9, None, "y"),  # --role rank: the outer is the local rank
        ("3: [default0]:[rank24]: z", 24, 3, "z"),
        ("[default5]: text", None, None, "text"),  # a local rank is no global rank
        ("2: [default5]:text", 2, 2, "text"),
        ("14:21:44 not a label", None, None, "14:21:44 not a label"),
        ("2024-07-30 14:21:44 x", None, None, "2024-07-30 14:21:44 x"),
        ("12:text", None, None, "12:text"),  # a label is always followed by a space
        ("[rankX]: y", None, None, "[rankX]: y"),
        # horovodrun's and `mpirun --tag-output`'s tags: the rank (after the job id)
        ("[0]<stderr>:RuntimeError: x", 0, None, "RuntimeError: x"),
        ("[1,3]<stdout>:Killed", 3, None, "Killed"),
        ("[2]<stdout>x", None, None, "[2]<stdout>x"),
        # pdsh's host prefix (DeepSpeed's multi-node launcher), then the usual ones
        ("192.168.205.202: [rank4]: Traceback", 4, None, "Traceback"),
        ("localhost: [rank0]:[E328 16:29:29 x.cpp:1] y", 0, None, "[E328 16:29:29 x.cpp:1] y"),
        ("v100x16-2: [2026-03-28 16:19:30] it 20", None, None, "[2026-03-28 16:19:30] it 20"),
        ("rdma-gpu-train-worker-0: NCCL WARN x", None, None, "NCCL WARN x"),
        ("gpu-node3.cluster: 0: text", 0, 0, "text"),
        # no host: a logger's name, a word with a colon, a time
        ("lightning.pytorch.core: GPU on", None, None, "lightning.pytorch.core: GPU on"),
        ("Epoch 3: loss 1.2", None, None, "Epoch 3: loss 1.2"),
        ("rank0: loss 1.2", None, None, "rank0: loss 1.2"),
        ("12:34:56: x", None, None, "12:34:56: x"),
        # Ray's actor tag, after srun's label; PyTorch's rank after it (round 32)
        ("0: (RayTrainWorker pid=688, ip=127.0.0.1) Received SIGTERM", 0, 0, "Received SIGTERM"),
        (
            "(RayTrainWorker pid=31, ip=10.0.0.3) [rank1]: RuntimeError: x",
            1,
            None,
            "RuntimeError: x",
        ),
        ("(pid=4121) hello", None, None, "hello"),
        ("(raylet) x", None, None, "(raylet) x"),
    ],
)
def test_split_prefix(raw: str, rank: int | None, label: int | None, text: str) -> None:
    assert split_prefix(raw) == (rank, label, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[2024-07-30 14:21:44] iteration 30/81380208", ts(2024, 7, 30, 14, 21, 44)),
        ("2024-07-30T14:21:44 x", ts(2024, 7, 30, 14, 21, 44)),
        ("2024-07-30T14:21:44.250Z x", ts(2024, 7, 30, 14, 21, 44) + 0.25),
        ("2024-07-30T14:21:44+02:00 x", ts(2024, 7, 30, 12, 21, 44)),
        ("2024-07-30T14:21:44.5-0130 x", ts(2024, 7, 30, 15, 51, 44) + 0.5),
        ("2024-07-30 14:21:44,123 - INFO - x", ts(2024, 7, 30, 14, 21, 44) + 0.123),
        ("[2024-03-08T00:15:02.047] error: x", ts(2024, 3, 8, 0, 15, 2) + 0.047),
        ("[NeMo I 2024-07-30 14:21:44 nemo_logging:349] x", ts(2024, 7, 30, 14, 21, 44)),
        ("2024/07/30 14:21:44 x", ts(2024, 7, 30, 14, 21, 44)),
        ("Jul 30 14:21:44 node1 kernel: NVRM: Xid", ts(2023, 7, 30, 14, 21, 44)),
        ("Jul  3 04:01:02 node1 kernel: x", ts(2023, 7, 3, 4, 1, 2)),
        # `date` and ctime state their year after the time: it wins over the assumed one
        ("Fri Oct 23 18:57:36 CDT 2020", ts(2020, 10, 23, 18, 57, 36)),
        ("Thu Aug 29 16:41:02 2019[3]<stderr>:  File x", ts(2019, 8, 29, 16, 41, 2)),
        # `date` in a locale with a 12-hour clock
        ("[Tue May 12 10:55:23 PM UTC 2026] starting phase4", ts(2026, 5, 12, 22, 55, 23)),
        ("[Sat May  9 12:00:18 AM UTC 2026] attempt #1", ts(2026, 5, 9, 0, 0, 18)),
        ("Sat May  9 12:53:33 PM UTC 2026 x", ts(2026, 5, 9, 12, 53, 33)),
        ("Jul 30 14:21:44 3021 not a year's place", ts(2023, 7, 30, 14, 21, 44)),
        # ... and after an ISO date (MLPerf's "STARTING TIMING RUN AT 2024-09-28 05:34:09 PM")
        ("STARTING TIMING RUN AT 2024-09-28 05:34:09 PM", ts(2024, 9, 28, 17, 34, 9)),
        ("2024-09-28 12:10:00 AM x", ts(2024, 9, 28, 0, 10, 0)),
        # detectron2's and MMEngine's month and day, without a year
        ("[11/25 08:40:09 d2.utils.events]:  eta: 0:01:36  iter: 849", ts(2023, 11, 25, 8, 40, 9)),
        ("11/25 08:22:37 - mmengine - INFO - Iter(train) [ 700/2400]", ts(2023, 11, 25, 8, 22, 37)),
        ("13/25 08:22:37 - no such month", None),
        ("Channel 00/32 : 0 1 08:22:37", None),
        # glog's prefix (torchrun's, ProcessGroupNCCL's, TensorFlow's C++ lines)
        (
            "W1123 20:48:03.076000 16236 torch/distributed/run.py:874] x",
            ts(2023, 11, 23, 20, 48, 3) + 0.076,
        ),
        (
            "[E0728 14:21:02.400169 1573 ProcessGroupNCCL.cpp:87] x",
            ts(2023, 7, 28, 14, 21, 2) + 0.400169,
        ),
        ("I1123 20:48:03 7 train.py:7] no fraction", ts(2023, 11, 23, 20, 48, 3)),
        ("W1123 20:48:03.0 16236 api.py:7 no bracket", None),
        ("no timestamp here", None),
        ("2024-13-30 14:21:44 bad month", None),
        ("Feb 30 10:00:00 bad day", None),
        ("[12345.678901] NVRM: uptime is not a wall time", None),
        ("x" * 100 + " 2024-07-30 14:21:44 too far in", None),
    ],
)
def test_parse_timestamp(text: str, expected: float | None) -> None:
    got = parse_timestamp(text, year=2023)
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected)


def test_a_glog_time_takes_the_logs_year_and_none_is_guessed() -> None:
    """glog's times have no year: they take the year of the log's latest stamp (`near`), so a
    2025 log's torchrun lines stay in 2025; with no stamp yet they are not read (a guessed year
    would put them ahead of every later line)."""
    line = "W1226 20:36:17.934 138614 ProcessGroupNCCL.cpp:1524] Warning: x"
    assert parse_timestamp(line, near=ts(2025, 12, 26, 19, 16, 24)) == pytest.approx(
        ts(2025, 12, 26, 20, 36, 17) + 0.934
    )
    assert parse_timestamp(line) is None


def test_naive_timestamps_use_the_given_zone() -> None:
    cet = timezone(timedelta(hours=1))
    assert parse_timestamp("2024-01-01 10:00:00 x", tz=cet) == ts(2024, 1, 1, 9, 0, 0)
    # an explicit zone wins over the default
    assert parse_timestamp("2024-01-01T10:00:00Z x", tz=cet) == ts(2024, 1, 1, 10, 0, 0)


def test_parse_line_combines_prefix_and_timestamp() -> None:
    got = parse_line("  7: [2024-07-30 14:21:44] iteration 30/100 | TFLOP/s/GPU): 386.7")
    assert got == ParsedLine(
        7,
        "[2024-07-30 14:21:44] iteration 30/100 | TFLOP/s/GPU): 386.7",
        ts(2024, 7, 30, 14, 21, 44),
        7,
    )


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("a" * SRUN_CHUNK_BYTES, True),
        ("a" * (SRUN_CHUNK_BYTES - 1), False),
        ("a" * (SRUN_CHUNK_BYTES + 1), False),
        ("é" * (SRUN_CHUNK_BYTES // 2), True),  # 1024 bytes in 512 characters
        ("é" * (SRUN_CHUNK_BYTES // 2 - 1) + "a", False),
        ("short", False),
    ],
)
def test_looks_split(text: str, split: bool) -> None:
    assert looks_split(text) is split


def test_joiner_rejoins_chunks_across_interleaved_tasks() -> None:
    j = SrunJoiner()
    first, second = "A" * SRUN_CHUNK_BYTES, "B" * SRUN_CHUNK_BYTES
    assert j.push(3, first) == []
    assert j.push(5, "other task") == [(5, "other task")]
    assert j.push(3, second) == []
    assert j.push(3, "tail") == [(3, first + second + "tail")]
    assert j.push(3, "next") == [(3, "next")]
    assert j.push(None, "unlabelled " * 200) == [(None, "unlabelled " * 200)]


def test_joiner_flushes_and_bounds_memory() -> None:
    j = SrunJoiner(max_chars=3 * SRUN_CHUNK_BYTES, max_pending=2)
    chunk = "x" * SRUN_CHUNK_BYTES
    assert j.push(1, chunk) == []
    assert j.push(1, chunk) == []
    assert j.push(1, chunk) == [(1, chunk * 3)]  # reached max_chars: released
    assert j.push(1, chunk) == []
    assert j.push(2, chunk) == []
    assert j.push(3, chunk) == [(1, chunk)]  # a third pending label evicts the oldest
    assert j.flush() == [(2, chunk), (3, chunk)]
    assert j.flush() == []


@pytest.mark.parametrize(
    ("before", "after", "gap", "shift"),
    [
        # a job script's `date -u` header, then the program's local time (UTC+8): 8 h and 8 s
        (
            "[start] 2026-03-11T10:33:09Z host=DGX2-1",
            "[2026-03-11 18:33:17,277] [INFO] x",
            28808,
            True,
        ),
        ("Tue May 12 10:55:23 PM UTC 2026", "[2026-05-13 04:25:30,001] x", 19807, True),  # +5:30
        ("[2026-03-11 18:33:17,277] x", "2026-03-11T10:33:20Z y", -28797, True),  # and back
        # both name their zone, or neither: the time really passed
        ("2026-03-11T10:33:09Z a", "2026-03-11T18:33:17Z b", 28808, False),
        ("[2026-03-11 10:33:09,000] a", "[2026-03-11 18:33:17,277] b", 28808, False),
        # no whole number of quarter hours, or more than any zone
        ("2026-03-11T10:33:09Z a", "[2026-03-11 18:40:17,277] b", 29228, False),
        ("2026-03-11T10:33:09Z a", "[2026-03-12 10:33:17,277] b", 86408, False),
        ("2026-03-11T10:33:09Z a", "[2026-03-11 10:35:17,277] b", 128, False),
    ],
)
def test_zone_shift(before: str, after: str, gap: float, shift: bool) -> None:
    assert zone_shift(before, after, gap) is shift
