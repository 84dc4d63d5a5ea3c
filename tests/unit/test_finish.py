"""Done means done: which log lines say training reached its final iteration."""

import pytest

from analysis.analyzer import AnalyzerContext
from analysis.detectors import may_matter
from analysis.engine import LogEngine
from analysis.finish import FinishWatch

pytestmark = pytest.mark.unit

MEGATRON = (
    " [2026-11-21 10:00:05] iteration {n:>8}/{total:>8} | consumed samples: 800 | "
    "elapsed time per iteration (ms): 1000.0 | throughput per GPU (TFLOP/s/GPU): 380.5 |"
)
MLLOG = (
    ':::MLLOG {{"namespace": "", "time_ms": 1697218162775, "event_type": "INTERVAL_END", '
    '"key": "run_stop", "value": null, "metadata": {{"file": "train.py", "lineno": 957, '
    '"status": "{status}"}}}}'
)
TELEMETRY = (
    "2026-11-22 00:23:50,130 - training_telemetry - INFO - "
    "[type={type} | pid=14334 | name={name} | timestamp=2026-11-22T00:23:50+00:00]"
)


@pytest.mark.parametrize(
    ("lines", "finished"),
    [
        ([MEGATRON.format(n=100, total=100)], True),
        ([MEGATRON.format(n=99, total=100)], False),
        (["0: " + MEGATRON.format(n=5, total=5)], True),  # srun -l prefix
        (["iteration 0/0 |"], False),
        # tqdm bars at 100% never count: per-epoch, loading and evaluation bars reach it too
        (["100%|██████████| 45/45 [00:30<00:00,  1.50it/s]"], False),
        (["  7%|▋         | 3/45 [00:02<00:30", "100%|██████████| 8/8 [00:01<00:00"], False),
        (["Map: 100%|██████████| 1000/1000 [00:00<00:00, 5000 examples/s]"], False),
        # false ends measured in the corpus: per-step dicts and a Lightning warning
        (["{'loss': '6.169', 'epoch': '0.05', 'train_runtime': '3.498'}"], False),
        (["You're resuming from a checkpoint ... if further training is done."], False),
        (["2026-11-23 01:36:16 training finished after 240 steps"], True),
        (["Training complete. elapsed=8.1s"], True),
        (["Training complete for epoch 3"], False),
        (
            ["[2026-11-23 02:17:48,531] [INFO] [launch.py:285:main] Process 2 exits successfully."],
            True,
        ),
        (
            ["Training completed. Do not forget to share your model on huggingface.co/models =)"],
            True,
        ),
        (["`Trainer.fit` stopped: `max_steps=100` reached."], True),
        # Caffe's solver (round 20)
        (["I0627 03:28:14.706852 10388 solver.cpp:322] Optimization Done."], True),
        (["I0627 03:28:14.706852 10388 solver.cpp:322] Optimization Done soon"], False),
        (["[after training is done] datetime: 2026-11-21 10:05:00"], True),
        # STTN's trainer (round 24); not an epoch's or a step's end
        (["End training...."], True),
        (["End of training epoch 3"], False),
        (["End training step 40"], False),
        (["training is starting", "Training loss 2.3"], False),
        # telemetry: the training loop's span stopped cleanly, or after an error
        ([TELEMETRY.format(type="stop", name="training_loop")], True),
        ([TELEMETRY.format(type="complete", name="training_loop")], True),
        (
            [
                TELEMETRY.format(type="error", name="training_loop"),
                TELEMETRY.format(type="stop", name="training_loop"),
            ],
            False,
        ),
        ([TELEMETRY.format(type="stop", name="checkpoint_save")], False),
        # MLPerf's logger: the benchmark reached its target (heldout17's MLPerf results)
        ([MLLOG.format(status="success")], True),
        ([MLLOG.format(status="aborted")], False),
    ],
)
def test_finish_lines(lines, finished):
    watch = FinishWatch()
    results = [watch.feed(line) for line in lines]  # every line: the watch keeps state
    assert any(results) is finished
    if finished:
        # the engine's prefilter lets it through: an end it never reads would never count
        assert all(may_matter(line) for line, result in zip(lines, results, strict=True) if result)


def _engine() -> LogEngine:
    return LogEngine(AnalyzerContext())


def test_engine_milestone_and_resume():
    engine = _engine()
    for n in range(1, 6):
        assert engine.feed(MEGATRON.format(n=n, total=5), 100.0 + n) is None
    assert engine.milestones().training_done_at == 105.0
    resumed = _engine()
    assert resumed.restore_state(engine.export_state())
    assert resumed.milestones().training_done_at == 105.0


def test_a_save_after_the_last_step_must_finish_first():
    engine = _engine()
    engine.feed(MEGATRON.format(n=5, total=5), 1.0)
    engine.feed(" saving checkpoint at iteration       5 to /ckpt in torch_dist format", 2.0)
    assert engine.milestones().training_done_at is None  # a crash now may lose the final save
    engine.feed(" successfully saved checkpoint from iteration       5 to /ckpt", 3.0)
    assert engine.milestones().training_done_at == 1.0


def test_not_finished_midway():
    engine = _engine()
    engine.feed(MEGATRON.format(n=3, total=5), 1.0)
    assert engine.milestones().training_done_at is None


@pytest.mark.parametrize(
    ("line", "restarter"),
    [
        (
            "[2026-11-21 10:00:00] INFO nvidia_resiliency_ext.fault_tolerance.launcher: starting",
            True,
        ),
        (
            "[WARNING] [RankMonitorServer:34] Did not get subsequent heartbeat. Waited 171.9 s.",
            True,
        ),
        ("+ ft_launcher --nnodes=2 --nproc-per-node=8 train.py", True),
        (MEGATRON.format(n=3, total=5), False),
        (
            "torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 4 SIGTERM",
            False,
        ),
    ],
)
def test_in_job_restarter_is_recognised(line, restarter):
    engine = _engine()
    engine.feed(line, 1.0)
    assert engine.milestones().in_job_restarter is restarter
    resumed = _engine()
    assert resumed.restore_state(engine.export_state())
    assert resumed.milestones().in_job_restarter is restarter
