"""Stragglers: TFLOP throughput vs the job's baseline, NVRx reports, and LogEngine's STRAGGLER."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.analyzer import AnalyzerContext, Finding
from analysis.detectors import parse_progress
from analysis.engine import LogEngine
from analysis.throughput import (
    Drop,
    ThroughputMonitor,
    ThroughputSettings,
    parse_nvrx,
    stated_step_seconds,
    throughput_readings,
)
from models.recovery import Observed
from tests.fakes import engine_settings

pytestmark = pytest.mark.unit

NODES = ("node1", "node2", "node3")
STEADY = [386.7, 386.2, 387.0, 385.9, 386.4, 386.8, 386.1, 386.5, 386.6, 386.3]


def tflop(i: int, tflops: float) -> str:
    return (
        f"[2024-07-30 14:21:44] iteration {i:8d}/81380208 | consumed samples: {i * 24} | "
        f"elapsed time per iteration (ms): 2986.9 | throughput per GPU (TFLOP/s/GPU): {tflops}"
    )


def run(lines: list[str], **extra: str) -> list[Finding]:
    engine = LogEngine(AnalyzerContext(job_nodes=NODES, settings=engine_settings(**extra)))
    found = [f for line in lines if (f := engine.feed(line, 1.0)) is not None]
    later = engine.silence(5.0, 6.0)
    return [*found, later] if later is not None else found


def reports(values: list[float], start: int = 1) -> list[str]:
    return [tflop(start + i, v) for i, v in enumerate(values)]


SAVE = "  successfully saved checkpoint at iteration {i} to /ckpt"
EVAL = " validation loss at iteration {i} | lm loss value: 2.31E+00 | lm loss PPL: 1.0E+01 |"

# (case, log lines, STRAGGLER findings expected)
CASES: list[tuple[str, list[str], int]] = [
    ("steady log", reports(STEADY * 3), 0),
    ("one-off dip", reports([*STEADY, 200.0, *STEADY]), 0),
    ("nine dips in a row, one short of sustained", reports([*STEADY, *[250.0] * 9, *STEADY]), 0),
    ("alternating dips never add up", reports([*STEADY, *[250.0, 386.0] * 10]), 0),
    ("slow warm-up steps are not the baseline", reports([90.0, 120.0, 200.0, *STEADY]), 0),
    (
        "dips right after checkpoint saves",
        [
            *reports(STEADY),
            *[
                line
                for i in range(11, 41)
                for line in (
                    [SAVE.format(i=i - 1), tflop(i, 150.0)] if i % 3 == 0 else [tflop(i, 386.0)]
                )
            ],
        ],
        0,
    ),
    (
        "dips right after evaluations",
        [
            *reports(STEADY),
            *[
                line
                for i in range(11, 41)
                for line in (
                    [EVAL.format(i=i - 1), tflop(i, 150.0)] if i % 2 else [tflop(i, 386.0)]
                )
            ],
        ],
        0,
    ),
    ("sustained 30% drop", reports([*STEADY, *[270.7] * 20]), 1),
    # A job that settles at a lower speed while its baseline is taken (the first step slow, the
    # next ones fast, then the steady pace: heldout/healthy_nccl_gpu_torchrun_1.log): the window
    # that ends on another level slides on.
    (
        "settling to a slower pace in the baseline window",
        reports([20.0, 300.0, 330.0, 150.0, 140.0, 160.0, *[100.0] * 30]),
        0,
    ),
    # ... but a job whose every report before the baseline (warm-up included) was faster did not
    # start slow and settle: it slowed down before its baseline was taken (DeepSpeed reports
    # every 25 steps: its 7th report was already slow).
    ("a drop before the baseline was taken", reports([*STEADY[:6], *[270.0] * 30]), 1),
    # Counter-example: a noisy window that ends within its own spread is the baseline, and a
    # drop after it is still found.
    (
        "noisy baseline window, then a sustained drop",
        reports([380.0, 390.0, 385.0, 350.0, 420.0, 386.0, 360.0, 400.0, *[250.0] * 12]),
        1,
    ),
    ("sustained drop after a recovered dip", reports([*STEADY, 200.0, *STEADY, *[270.0] * 12]), 1),
    # round 20: a window that begins on a higher level than its median straddles a slowdown
    # (Keras's epochs: 5 at ~50 it/s, then 6x slower): it slides on, and the readings before it
    # are the baseline; a drop below half the baseline is confirmed in 6 reports, not 10
    ("a deep drop of six reports", reports([*STEADY, *[150.0] * 6]), 1),
    ("a deep drop of five reports", reports([*STEADY, *[150.0] * 5, *STEADY]), 0),
    ("a 40% drop needs ten reports", reports([*STEADY, *[230.0] * 9, *STEADY]), 0),
]


@pytest.mark.parametrize(("case", "lines", "expected"), CASES, ids=[c[0] for c in CASES])
def test_throughput_drop(case: str, lines: list[str], expected: int) -> None:
    findings = run(lines)
    assert [f.kind for f in findings] == [Observed.STRAGGLER] * expected
    for f in findings:
        assert f.requeue_warranted is True
        assert f.category == "UNKNOWN" and f.culprit_nodes == ()  # slow, but nobody named
        assert "TFLOP/s vs baseline 386" in f.summary
        assert f.evidence and "TFLOP" in f.evidence[-1]


def test_a_window_straddling_a_slowdown_slides_on() -> None:
    """Keras's epochs (round 20): five at ~50/s, then six times slower. The first window holds
    both levels; it begins above its median, so it slides on, and the readings before it (all
    faster) are the baseline: the drop is found, against ~50, not ~9."""
    found = run(reports([58.8, 26.3, 52.6, 50.0, 52.6, 9.0, 7.8, 6.8, 7.2, 6.7, 6.1, 6.3, 6.6]))
    assert [f.kind for f in found] == [Observed.STRAGGLER]
    assert "vs baseline 5" in found[0].summary


def test_the_deep_drop_is_a_setting() -> None:
    """AJR_THROUGHPUT_DEEP_DROP / _DEEP_SUSTAINED: with the deep rule set to need 10 reports,
    six reports at 40% of the baseline confirm nothing."""
    lines = reports([*STEADY, *[150.0] * 6])
    assert [f.kind for f in run(lines)] == [Observed.STRAGGLER]
    assert run(lines, throughput_deep_sustained="10") == []


def test_a_deep_drop_of_reports_minutes_apart_is_confirmed_once_it_has_lasted() -> None:
    """Reports an epoch apart (60 s, round 31): three or more in a row at half speed or less,
    lasting `deep_span_s` (180 s) of the job's time from the report before them, confirm the
    drop; two, or three without their times, or a span set longer, do not."""

    def confirmed(slow: int, every_s: float | None, span_s: float = 180.0) -> list[int]:
        monitor = ThroughputMonitor(ThroughputSettings(deep_span_s=span_s))
        values = [*STEADY[:8], *[150.0] * slow, *STEADY[:3]]
        results = [
            monitor.report(v, i, i * every_s if every_s is not None else None)
            for i, v in enumerate(values)
        ]
        return [i for i, r in enumerate(results) if r is not None]

    assert confirmed(3, 60.0) == [10]  # 3 warm-up + 5 baseline, then the 3rd slow one at 180 s
    assert confirmed(2, 60.0) == []
    assert confirmed(3, None) == []
    assert confirmed(3, 60.0, span_s=240.0) == []
    assert confirmed(4, 60.0, span_s=240.0) == [11]


def test_drop_is_confirmed_on_the_sustained_report() -> None:
    monitor = ThroughputMonitor(ThroughputSettings(sustained=5))
    results = [monitor.report(v, i) for i, v in enumerate([*STEADY[:8], *[270.0] * 6])]
    confirmed = [i for i, r in enumerate(results) if r is not None]
    assert confirmed == [12]  # 3 warm-up + 5 baseline reports, then the 5th degraded one
    drop = results[12]
    assert drop is not None and drop.baseline == pytest.approx(386.4)
    assert drop.fraction == pytest.approx(1 - 270.0 / 386.4)


@pytest.mark.parametrize(
    ("extra", "drops"),
    [
        ({"tflops_drop": "0.5"}, 0),  # a 30% drop is within a 50% tolerance
        ({"tflops_sustained": "30"}, 0),
        ({"tflops_sustained": "2"}, 1),
    ],
)
def test_settings(extra: dict[str, str], drops: int) -> None:
    assert len(run(reports([*STEADY, *[270.0] * 6]), **extra)) == drops


# --- throughput in other frameworks' words ----------------------------------------------------


def torchtitan(step: int, tps: float) -> str:
    return (
        f"[titan] 2026-11-22 10:00:{step % 60:02d},000 - root - INFO - step: {step:2}  loss:  2.5"
        f"  memory: 30.1GiB(40.0%)  tps: {tps:,.0f}  tflops: {tps / 50:.1f}  mfu: {tps / 200:.1f}%"
    )


def deepspeed(step: int, samples: float) -> str:
    return (
        f"[2026-11-22 10:00:00,000] [INFO] [timer.py:264:stop] epoch=0/micro_step={step}/"
        f"global_step={step}, RunningAvgSamplesPerSec=1300.0, CurrSamplesPerSec={samples}, "
        "MemAllocated=0.37GB, MaxMemAllocated=0.37GB"
    )


def nanogpt(step: int, ms: float) -> str:
    return f"iter {step}: loss 2.1234, time {ms:.2f}ms, mfu 30.12%"


def json_lines(step: int, rate: float) -> str:
    return f'{{"step": {step}, "loss": 0.09, "tokens_per_s": {rate}, "mfu": 0.24}}'


def tqdm(step: int, rate: float) -> str:
    return f"\r 44%|####4     | {step}/450 [00:10<00:10, {rate:.2f}it/s]"


@pytest.mark.parametrize(
    ("make", "healthy", "slow"),
    [
        (torchtitan, 5100.0, 2400.0),
        (deepspeed, 1290.0, 610.0),
        (nanogpt, 50.0, 140.0),  # a time per step: higher is slower
        (tqdm, 33.0, 12.0),
        (json_lines, 30000.0, 6600.0),
    ],
    ids=["torchtitan tps", "DeepSpeed samples/s", "nanoGPT ms per step", "tqdm it/s", "JSON"],
)
def test_other_frameworks_throughput(make: Any, healthy: float, slow: float) -> None:
    steady = [make(i, healthy * (1 + 0.03 * (i % 3))) for i in range(1, 21)]
    assert run(steady) == []
    noisy = [*steady, make(21, slow), *[make(i, healthy) for i in range(22, 40)]]
    assert run(noisy) == []  # one slow step is noise
    found = run([*steady, *[make(i, slow) for i in range(21, 40)]])
    assert [f.kind for f in found] == [Observed.STRAGGLER]
    assert "lower" in found[0].summary


def lightning_bar(count: int, seconds: int) -> str:
    """Lightning's bar (tqdm smoothing=0): its rate is its count over its elapsed time."""
    clock = f"{seconds // 60:02d}:{seconds % 60:02d}"
    return (
        f"\rTraining: |          | {count}/? [{clock}<00:00, {count / seconds:.2f}it/s,"
        " v_num=0, train_loss=0.0363]"
    )


def test_a_resumed_bars_rate_counts_no_restored_step() -> None:
    """A run resumed at step 225 draws its bar from 225: the printed rate falls from 112 to 15
    it/s while the job does 10 steps a second throughout. A real slowdown after the resume is
    still one."""
    steady = [lightning_bar(225 + 10 * t, 2 + t) for t in range(0, 240, 2)]
    assert run(steady) == []
    slowed = steady + [lightning_bar(2625 + 3 * t, 242 + t) for t in range(2, 240, 2)]
    found = run(slowed)
    assert [f.kind for f in found] == [Observed.STRAGGLER]


def test_a_time_per_step_is_steps_per_second_whatever_its_unit() -> None:
    """Milliseconds and seconds per step are one rate, so that a drop's summary shows the time
    per step as printed (it showed "132200 ms per step" for Megatron's 132.2 ms)."""
    for line in ("elapsed time per iteration (ms): 250.0 |", "iter_ms=250", "0.25s/it",
                 "250ms/step", "0.25 sec/batch", "step_time: 250 ms", "75s 0.25s/step",
                 "250000us/step", "time: 0.2500  data_time: 0.0020",
                 "time: 0.25, data_time: 0.002", "Iteration took 0.250 s.",
                 "step 120 took 0.25s",
                 "1epoch:train:101-200batch: iter_time=5.7e-03, loss=0.37, train_time=0.25"
                 ):  # fmt: skip
        assert dict(throughput_readings(line))["step_time"] == pytest.approx(4.0), line
    drop = Drop(baseline=4.0, recent=(2.0, 2.0, 2.0), iteration=7)
    assert "500 ms per step vs baseline 250 ms" in drop.summary("step_time")


@pytest.mark.parametrize(
    ("line", "reading"),
    [
        ("step 10: loss=1.3832 lr=5.00e-04 samples/s=1069.6", ("samples", 1069.6)),
        ("lr 3e-4 | 1200 tok/s", ("tokens", 1200.0)),
        ("| 1,200 examples/sec | lr 1e-05", ("samples", 1200.0)),
        ('{"step": 50, "tokens_per_s": 30690.9}', ("tokens", 30690.9)),  # quoted keys: JSON
        ("epoch    3 | avg train utts/s  9692 | took 28.68 s", ("samples", 9692.0)),  # round 31
        # a magnitude suffix (Nanotron's humanized numbers) and Marian's words/s (round 33)
        ("iteration: 2000 / 4000 | tokens_per_sec: 99.7K | lm_loss: 0.0486", ("tokens", 99700.0)),
        ("iteration: 200 / 4000 | tokens_per_sec: 1.22M | lm_loss: 0.3687", ("tokens", 1.22e6)),
        (
            "Up. 601000 : Sen. 1,918,817,690 : Time 949.80s : 100786.61 words/s",
            ("tokens", 100786.61),
        ),
        ("{'step': 50, 'samples_per_second': 12.5}", ("samples", 12.5)),
        ("{'epoch': '0.05', 'samples_per_second': '117.3'}", ("samples", 117.3)),  # transformers 5
        ("{'epoch': '0.05', 'tokens_per_second': '1930'}", ("tokens", 1930.0)),
        ('{"step": 50, "step_ms": 33.4}', ("step_time", 1000 / 33.4)),  # steps per second
        ("[rank0|vm] step 50/2400 loss=4.9 tok_per_s=39472", ("tokens", 39472.0)),  # round 23
        ("[rank0|vm] step 50/2400 loss=4.9 ms_per_step=25.9", ("step_time", 1000 / 25.9)),
        # a key and its value a space apart (round 25), not the compute_ms before it
        (
            "vm:0 step 100/1800 loss 6.1708 compute_ms 128.1 comm_ms 0.1 step_ms 128.8",
            ("step_time", 1000 / 128.8),
        ),
    ],
)
def test_a_reading_is_its_own_number_not_the_value_before_it(
    line: str, reading: tuple[str, float]
) -> None:
    """ "lr=5.00e-04 samples/s=1069.6" is 1069.6 samples/s, not 4 ("04 samples/s")."""
    ((metric, rate),) = throughput_readings(line)
    assert (metric, rate) == (reading[0], pytest.approx(reading[1]))


def test_an_evaluation_progress_bar_is_neither_progress_nor_throughput() -> None:
    lines = [tqdm(i, 33.0) for i in range(1, 20)]
    lines += [
        f"Validation DataLoader 0:  {i}%|#     | {i}/50 [00:01<00:01, 3.1it/s]" for i in range(40)
    ]
    assert run(lines) == []


# --- NVRx -----------------------------------------------------------------------------------

WARNING_LIST = (
    "STRAGGLER DETECTION WARNING: Some GPUs have worse relative performance. "
    "Affected ranks: [76, 13, 45]"
)
WARNING_IDS = (
    "STRAGGLER DETECTION WARNING: Some GPUs performance dropped. Affected ranks: "
    "{StragglerId(rank=9, node='node3'), StragglerId(rank=2, node='node1.cluster.local')}"
)


@pytest.mark.parametrize(
    ("line", "ranks", "nodes", "score"),
    [
        (WARNING_LIST, (76, 13, 45), {}, None),
        (WARNING_IDS, (2, 9), {9: "node3", 2: "node1.cluster.local"}, None),
        ("  Rank=45 Node=h100-001-172-026 Score=0.94", (45,), {45: "h100-001-172-026"}, 0.94),
        ("STRAGGLER DETECTION WARNING: nothing. Affected ranks: []", None, None, None),
        ("GPU relative performance:", None, None, None),
    ],
)
def test_parse_nvrx(
    line: str, ranks: tuple[int, ...] | None, nodes: dict[int, str] | None, score: float | None
) -> None:
    report = parse_nvrx(line)
    if ranks is None:
        assert report is None
        return
    assert report is not None
    assert (report.ranks, report.nodes, report.score) == (ranks, nodes, score)


@pytest.mark.parametrize(
    ("case", "lines", "culprits"),
    [
        (
            "warning then the score rows naming its ranks' nodes",
            [
                "STRAGGLER DETECTION WARNING: Some GPUs have worse relative performance. "
                "Affected ranks: [7, 3]",
                "GPU relative performance:",
                "  Rank=7 Node=node2 Score=0.52",
                "  Rank=0 Node=node1 Score=1.00",
                "  Rank=3 Node=node3 Score=0.61",
            ],
            ("node2", "node3"),
        ),
        ("StragglerId warning names the nodes itself (FQDN to job node)", [WARNING_IDS],
         ("node1", "node3")),  # in rank order
        (
            "warning whose ranks no row names: reported when the report is over",
            [WARNING_LIST, tflop(5, 386.0)],
            (),
        ),
        ("warning, then silence", [WARNING_LIST], ()),
    ],
)  # fmt: skip
def test_nvrx_straggler(case: str, lines: list[str], culprits: tuple[str, ...]) -> None:
    findings = run(lines)
    assert len(findings) == 1
    f = findings[0]
    assert f.kind is Observed.STRAGGLER and f.category == "GPU" and f.requeue_warranted is True
    assert f.culprit_nodes == culprits
    assert f.evidence[0].startswith("STRAGGLER DETECTION WARNING")


def test_straggler_is_reported_once() -> None:
    lines = [WARNING_IDS, WARNING_IDS, *reports([*STEADY, *[200.0] * 10])]
    assert [f.kind for f in run(lines)] == [Observed.STRAGGLER]


def test_score_rows_alone_are_no_finding() -> None:
    assert run(["  Rank=7 Node=node2 Score=0.52", "  Rank=3 Node=node3 Score=0.99"]) == []


def test_drop_names_the_nodes_nvrx_scored_low() -> None:
    lines = ["  Rank=7 Node=node2 Score=0.52", *reports([*STEADY, *[270.0] * 12])]
    (finding,) = run(lines)
    assert finding.culprit_nodes == ("node2",) and finding.category == "GPU"


def test_no_straggler_after_a_crash() -> None:
    lines = [
        *reports(STEADY),
        "0: Segmentation fault (core dumped)",
        *reports([270.0] * 6, start=11),
    ]
    assert [f.kind for f in run(lines)] == [Observed.CRASH]


@pytest.mark.parametrize(
    ("line", "seconds"),
    [
        (
            "ppocr INFO: epoch: [3/500], global_step: 500, avg_reader_cost: 1.81036 s, "
            "avg_batch_cost: 2.03538 s, avg_samples: 16.0, ips: 7.86095 samples/s",
            2.03538,
        ),
        ("Epoch 0:  12%|#2   | 52/430 [01:19<09:37,  1.52s/it, loss=2.31]", 1.52),
        ("[rank 0/2 n1] INFO  step 25/700 | loss 6.2372 | ms/it 119.4 | tok/s 17152", 0.1194),
        ("step 40 | loss 2.1 | 412.0 ms/step", 0.412),
        ("[step=40] loss=2.1 step_time: 412 ms", 0.412),
        ('{"step": 40, "loss": 2.1, "step_ms": 85.2}', 0.0852),
        ("step 50/2400 loss=4.9179 ms_per_step=25.9 tok_per_s=39472", 0.0259),
        # MMCV's and MMEngine's loggers: seconds per iteration (round 24)
        (
            "Epoch [1][50/2439]\tlr_backbone: 1.000e-04, eta: 98 days, 6:35:26, time: 17.408, "
            "data_time: 6.664, memory: 6954",
            17.408,
        ),
        # ... without the comma: MMEngine's, and detectron2's with its last_time (round 30)
        (
            "Iter(train) [ 700/2400]  lr: 1.0e-03  eta: 0:01:02  time: 0.0350  data_time: 0.0020",
            0.035,
        ),
        (
            "eta: 0:01:36  iter: 849  total_loss: 0.15  time: 0.0308  last_time: 0.0300"
            "  data_time: 0.0009",
            0.0308,
        ),
        ("step 40, loss = 2.10 (512.3 examples/sec; 0.25 sec/batch)", 0.25),
        ("step 40 | loss 2.1 | lr 1e-3", None),  # no time stated
        ("step 40 | loss 2.1 | data_time: 3 ms", None),  # a part of the step, not the step
    ],
)
def test_the_seconds_a_step_takes_as_the_line_states_them(line: str, seconds: float | None) -> None:
    got = stated_step_seconds(line)
    assert got == pytest.approx(seconds) if seconds is not None else got is None


def test_a_bar_drawn_under_another_gives_no_training_rate() -> None:
    """The Hugging Face Trainer draws its evaluation bar under its training bar: each redraw
    moves the cursor back up ("\\x1b[A"). The evaluation's rate is not the training's (its
    batches differ): a slower evaluation is no straggler. Its count is still progress."""

    def line(count: int, rate: float) -> str:
        return f" 98%|#########8| {count}/280 [00:29<00:00,  {rate:.2f}it/s]\x1b[A"

    nested = parse_progress(line(274, 9.22))
    assert nested is not None and nested.rates == () and nested.iteration == 274
    steady = [line(i, 12.5) for i in range(1, 60)]
    assert run([*steady, *[line(i, 9.2) for i in range(60, 120)]]) == []
