"""LogEngine: immediate and confirmed crashes, phase-aware hangs, checkpoints, attribution."""

from __future__ import annotations

import json
import re
import time

import pytest
from pydantic import ValidationError

from analysis.analyzer import AnalyzerContext, Finding, LogAnalyzer
from analysis.attribution import attribute
from analysis.detectors import NodeNames, Signal, detect_crash
from analysis.engine import LogEngine
from models.engine_settings import BadEngineSetting, EngineSettings
from models.recovery import Observed
from tests.fakes import engine_settings
from worker.config import Settings

pytestmark = pytest.mark.unit

NODES = ("node1", "node2", "node3")


def engine(**knobs: str) -> LogEngine:
    return LogEngine(AnalyzerContext(job_nodes=NODES, settings=engine_settings(**knobs)))


def progress(i: int, loss: str = "2.3E+00", ms: float = 3000.0) -> str:
    return (
        f"7: [2024-07-30 14:21:44] iteration {i:8d}/  508626 | consumed samples: {i * 288} | "
        f"elapsed time per iteration (ms): {ms} | throughput per GPU (TFLOP/s/GPU): 386.7 | "
        f"lm loss: {loss} | number of nan iterations:   0 |"
    )


def feed(e: LogEngine, lines: list[str], at: float) -> list[Finding]:
    return [f for line in lines if (f := e.feed(line, at)) is not None]


HEALTHY_LOG = [
    "Start time: date_24-07-30_time_14-21-44",
    "0: using world size: 16, data-parallel size: 16",
    "node1:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.2<0>",
    "node1:1234:1234 [0] NCCL WARN NET/Plugin: Could not find: libnccl-net.so",
    "0: /usr/lib/python3/site-packages/torch/utils/data.py:123: UserWarning: deprecated",
    "0: [W init.cpp:767] Warning: nvfuser is no longer supported in torch script",
    "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping",
    progress(1),
    "7: [Rank 7] (after 1 iterations) memory (MB) | allocated: 1234.5 | max allocated: 2345.6",
    "7:  (min, max) time across ranks (ms):",
    "7:     forward-backward ...............................: (2951.12, 2952.91)",
    progress(2),
    "0: saving checkpoint at iteration       2 to /fsx/checkpoints",
    "0:   successfully saved checkpoint at iteration       2 to /fsx/checkpoints",
    progress(3),
    "7:     save-checkpoint ................................: (81611.24, 81611.82)",
    "torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 4 closing signal "
    "SIGTERM",
    progress(4),
]


def test_the_engine_is_a_log_analyzer() -> None:
    analyzer: LogAnalyzer = engine()  # mypy checks the protocol here
    assert analyzer.checkpoints == 0


def test_a_healthy_log_with_noise_gives_no_finding() -> None:
    e = engine()
    assert feed(e, HEALTHY_LOG, at=100.0) == []
    assert e.silence(5.0, 105.0) is None
    assert e.checkpoints == 1  # the success line and the timer row are one save
    assert e.iteration == 4
    assert e.phase == "training"
    assert e.pending == ()


def test_seed_segfault_line_is_a_crash_at_once() -> None:
    e = engine()
    feed(e, HEALTHY_LOG[:3], at=10.0)
    finding = e.feed("Rank0: (1) segmentation fault: artificial segfault", 40.0)
    assert finding is not None
    assert finding.kind is Observed.CRASH
    assert finding.category == "UNKNOWN"  # a segfault alone does not say whose fault it is
    assert finding.culprit_nodes == ()  # no hardware named: no node excluded
    assert finding.requeue_warranted is True  # the seed's verification sequence requeues it
    assert finding.evidence[0] == "Rank0: (1) segmentation fault: artificial segfault"


def test_an_ambiguous_error_waits_for_confirmation() -> None:
    e = engine(crash_confirm_s="30")
    feed(e, [progress(10)], at=0.0)
    lines = [
        "3: Traceback (most recent call last):",
        '3:   File "/train.py", line 1, in step',
        "3: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ]
    assert feed(e, lines, at=10.0) == []
    assert [s.name for s in e.pending] == ["cuda_oom"]
    assert e.silence(10.0, 20.0) is None  # within the window
    finding = e.silence(31.0, 41.0)
    assert finding is not None and finding.kind is Observed.CRASH
    assert "OutOfMemoryError" in finding.summary
    assert e.pending == ()
    assert e.silence(40.0, 50.0) is None  # reported once


def test_training_that_goes_on_clears_the_error() -> None:
    e = engine(crash_confirm_s="30")
    feed(e, [progress(10)], at=0.0)
    feed(e, ["3: OSError: [Errno 5] Input/output error: '/lustre/x'"], at=5.0)
    assert [s.name for s in e.pending] == ["storage_eio"]
    # one report may have been on its way when the error was printed: not enough
    feed(e, [progress(11)], at=8.0)
    assert e.pending
    feed(e, [progress(12)], at=11.0)
    assert e.pending == ()
    assert e.silence(30.0, 60.0) is None


def test_an_immediate_signal_reports_the_pending_root_cause() -> None:
    e = engine()
    feed(e, [progress(10)], at=0.0)
    lines = [
        "node3:99:99 [1] NCCL WARN NET/IB : Got completion from peer 10.0.0.7<53612> with "
        "error 12, opcode 0, len 0, vendor err 129 (Recv)",
        "srun: error: node1: task 0: Exited with exit code 1",
    ]
    findings = feed(e, lines, at=5.0)
    assert len(findings) == 1
    finding = findings[0]
    assert finding.category == "NETWORK"
    assert "IB completion error 12" in finding.summary
    assert finding.culprit_nodes == ()  # a network error excludes no node by itself
    assert finding.evidence[:2] == tuple(lines)


def test_fatal_xid_names_the_node_to_exclude() -> None:
    e = engine()
    finding = e.feed(
        "Jul 30 14:21:44 node2 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, "
        "GPU has fallen off the bus.",
        1.0,
    )
    assert finding is not None
    assert (finding.category, finding.culprit_nodes, finding.requeue_warranted) == (
        "GPU",
        ("node2",),
        True,
    )


def test_deterministic_application_error_is_not_worth_a_requeue() -> None:
    e = engine(crash_confirm_s="30")
    lines = [
        "0: Traceback (most recent call last):",
        '0:   File "/pretrain_gpt.py", line 3, in <module>',
        "0: ModuleNotFoundError: No module named 'megatron'",
        "srun: error: node1: task 0: Exited with exit code 1",
    ]
    finding = feed(e, lines, at=1.0)[0]
    assert finding.requeue_warranted is False
    assert finding.category == "APPLICATION"
    assert "ModuleNotFoundError" in finding.summary


def test_time_limit_explains_the_tasks_it_killed() -> None:
    e = engine()
    finding = e.feed(
        "slurmstepd: error: *** STEP 5.0 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO TIME "
        "LIMIT ***",
        1.0,
    )
    assert finding is not None and finding.category == "SCHEDULER"


def test_persistent_nan_loss_is_a_crash_but_one_blip_is_not() -> None:
    e = engine(nan_reports="3")
    assert feed(e, [progress(1, "nan"), progress(2, "2.0"), progress(3, "nan")], at=1.0) == []
    findings = feed(e, [progress(4, "nan"), progress(5, "inf")], at=2.0)
    assert len(findings) == 1
    assert "NaN" in findings[0].summary


def test_setup_phase_allows_a_long_silence_then_the_flat_timeout() -> None:
    e = engine(setup_timeout_s="900")
    e.feed("0: loading checkpoint from /fsx/checkpoints", 0.0)
    assert e.phase == "loading"
    assert e.silence(600.0, 600.0) is None  # loading a big checkpoint: the setup allowance
    hang = e.silence(901.0, 901.0)
    assert hang is not None and hang.kind is Observed.HANG
    assert "loading" in hang.summary
    # a job that printed often and then fell silent past the setup budget: the flat timeout
    e2 = engine(setup_timeout_s="900")
    for t in range(0, 1001, 10):
        e2.feed("0: building model", float(t))
    assert e2.silence(119.0, 1119.0) is None
    assert e2.silence(121.0, 1121.0) is not None


def test_setup_silence_allows_the_jobs_own_rhythm() -> None:
    """A job whose progress lines ajr does not know, printing once per ten-minute epoch."""
    e = engine(setup_timeout_s="900", cadence_factor="5")
    e.feed("epoch:  0", 0.0)
    e.feed("train loss : 1.3331", 621.0)  # it came back from 621 s of silence
    e.feed("epoch:  1", 660.0)
    assert e.silence(600.0, 1260.0) is None  # 5 x 621 s, at most the setup allowance
    hang = e.silence(901.0, 1561.0)
    assert hang is not None and hang.kind is Observed.HANG
    # the rhythm survives a worker restart
    resumed = engine(setup_timeout_s="900", cadence_factor="5")
    assert resumed.restore_state(e.export_state())
    assert resumed.hang_allowance(660.0) == 900.0


def test_silence_allowance_is_never_below_the_hang_timeout() -> None:
    e = engine(cadence_factor="5")
    feed(e, [progress(i, ms=3000.0) for i in range(1, 6)], at=10.0)
    assert e.cadence_s == pytest.approx(3.0)
    assert e.hang_allowance(10.0) == 120.0  # a fast cadence never undercuts the documented minimum
    assert e.silence(119.0, 129.0) is None
    hang = e.silence(121.0, 131.0)
    assert hang is not None and "after iteration 5" in hang.summary
    slow = engine(cadence_factor="5")
    feed(slow, [progress(i, ms=40000.0) for i in range(1, 4)], at=10.0)
    assert slow.hang_allowance(10.0) == 200.0  # a job slower than that gets 5 x its own cadence
    glacial = engine(cadence_factor="5", setup_timeout_s="900")
    feed(glacial, [progress(i, ms=600000.0) for i in range(1, 4)], at=10.0)
    assert glacial.hang_allowance(10.0) == 900.0  # at most the setup allowance


@pytest.mark.parametrize(
    "start",
    [
        "saving checkpoint",  # the probe's trainer: a plain start form
        "0: Saving checkpoint to /ckpt/step_300",
        "[INFO|trainer.py:3984] 2026-11-22 10:00:01,123 >> Saving model checkpoint to "
        "out/checkpoint-300",
        "[2026-11-22 10:00:01,123] [INFO] [torch_checkpoint_engine.py:21:save] [Torch] Checkpoint "
        "global_step300 is about to be saved!",
        "[titan] 2026-11-22 10:00:01,123 - root - INFO - Saving the checkpoint (or staging if "
        "async is enabled).",
        "0: saving checkpoint at iteration     300 to /fsx/checkpoints",
    ],
)
def test_every_save_start_form_opens_the_checkpoint_phase(start: str) -> None:
    e = engine(checkpoint_timeout_s="600")
    feed(e, [progress(i, ms=2000.0) for i in range(1, 20)], at=0.0)
    e.feed(start, 100.0)
    assert e.phase == "checkpointing"
    assert e.checkpoints == 0  # a save that began is no checkpoint yet
    assert e.silence(150.0, 250.0) is None  # the probe's 150 s save: never a hang
    assert e.silence(601.0, 701.0) is not None
    feed(e, ["0: Saved checkpoint to /ckpt/step_300", progress(20, ms=2000.0)], at=710.0)
    assert e.phase == "training"


def test_a_site_start_pattern_opens_the_checkpoint_phase() -> None:
    e = LogEngine(
        AnalyzerContext(
            settings=engine_settings(
                checkpoint_start_patterns=(r"snapshotting weights",), checkpoint_timeout_s=600
            )
        )
    )
    feed(e, [progress(i) for i in range(1, 4)], at=0.0)
    e.feed("0: snapshotting weights to s3://bucket", 10.0)
    assert e.phase == "checkpointing"
    assert e.silence(300.0, 310.0) is None


@pytest.mark.parametrize(
    ("marker", "phase", "budget"),
    [
        ("***** Running Evaluation *****", "evaluating", 900.0),
        ("0: Evaluating iter 1/10", "evaluating", 900.0),
        ("Validation DataLoader 0:   0%|          | 0/50 [00:00<?, ?it/s]", "evaluating", 900.0),
        ("0: > building train, validation, and test datasets ...", "loading", 600.0),
        # a print after a tqdm bar's redraw, on its line (round 20)
        (" 12%|###7      | 1/8 [04:08<28:57, 248.19s/it]Validating batch 2/8", "evaluating",
         900.0),
    ],
)  # fmt: skip
def test_evaluation_and_data_loading_get_their_phase(
    marker: str, phase: str, budget: float
) -> None:
    e = engine(eval_timeout_s="900", setup_timeout_s="600")
    feed(e, [progress(i, ms=2000.0) for i in range(1, 6)], at=0.0)
    e.feed(marker, 50.0)
    assert e.phase == phase
    assert e.hang_allowance(50.0) == budget
    assert e.silence(budget - 1, 50.0 + budget - 1) is None
    assert e.silence(budget + 1, 50.0 + budget + 1) is not None
    e.feed(progress(6, ms=2000.0), 60.0)
    assert e.phase == "training"


def test_each_evaluation_marker_renews_the_phases_budget() -> None:
    """A run that only evaluates (checkpoint after checkpoint, no training report to end the
    phase): each marker says the evaluation moved on, so a later silence gets the whole
    evaluation allowance again, not what is left of the first one's."""
    e = engine(eval_timeout_s="900")
    feed(e, [progress(i, ms=2000.0) for i in range(1, 6)], at=0.0)
    e.feed("Validating batch 1/8", 10.0)
    e.feed(" 88%|####### | 7/8 [08:35<00:53, 53.98s/it]Validating batch 8/8", 3000.0)
    assert e.hang_allowance(3000.0) == 900.0
    assert e.silence(317.0, 3317.0) is None


def test_a_probe_step_that_failed_before_training_is_no_crash_if_training_starts() -> None:
    """A batch script's first step (`srun nvidia-smi`) could not start its program, srun
    reports its tasks' exits, and the script goes on to train: no crash. Had training not
    started, the attempt's end (or the start-up allowance) makes the same lines a crash."""
    probe = [
        "0: slurmstepd-lab19n1: error: execve(): nvidia-smi: No such file or directory",
        "srun: error: lab19n1: task 0: Exited with exit code 2",
        "srun: error: lab19n2: task 1: Exited with exit code 2",
    ]
    e = engine(crash_confirm_s="30", setup_timeout_s="900")
    assert feed(e, probe, at=0.0) == []
    assert e.silence(27.0, 27.0) is None
    assert feed(e, [progress(100)], at=27.0) == []
    assert e.silence(17.0, 44.0) is None  # past crash_confirm_s: still waiting for training
    assert feed(e, [progress(200)], at=44.0) == []
    assert e.pending == ()
    ended = engine(crash_confirm_s="30", setup_timeout_s="900")
    feed(ended, probe, at=0.0)
    found = ended.final_finding()
    assert found is not None and found.category == "APPLICATION"
    # a program's own error before the step's exit: reported at once, as before
    own = engine()
    found = own.feed("0: Traceback (most recent call last):", 0.0)
    found = own.feed("0: KeyError: 'lr'", 0.0) or own.feed(probe[1], 0.0)
    assert found is not None and found.category == "APPLICATION"


def test_state_survives_export_and_restore() -> None:
    """A watch resumed on another worker: pending crash, phase and cadence carry over."""
    e = engine(crash_confirm_s="30")
    feed(e, [progress(i, ms=2000.0) for i in range(1, 6)], at=0.0)
    assert feed(e, ["3: torch.OutOfMemoryError: CUDA out of memory."], at=10.0) == []
    state = e.export_state()
    resumed = engine(crash_confirm_s="30")
    assert resumed.restore_state(json.loads(json.dumps(state)))
    assert resumed.phase == "training" and resumed.iteration == 5
    assert resumed.silence(5.0, 25.0) is None  # still inside the confirmation window
    crash = resumed.silence(31.0, 41.0)
    assert crash is not None and crash.kind is Observed.CRASH and "memory" in crash.summary
    saving = engine()
    feed(saving, [progress(1), "0: saving checkpoint"], at=0.0)
    again = engine()
    assert again.restore_state(saving.export_state()) and again.phase == "checkpointing"
    assert not engine().restore_state({"v": 999}) and not engine().restore_state(
        {"v": 1, "intervals": "x"}
    )


def test_checkpointing_phase_gets_its_own_budget() -> None:
    e = engine(checkpoint_timeout_s="600")
    feed(e, [progress(i) for i in range(1, 4)], at=0.0)
    e.feed("0: saving checkpoint at iteration       3 to /fsx/checkpoints", 100.0)
    assert e.phase == "checkpointing"
    assert e.silence(300.0, 400.0) is None
    assert e.silence(601.0, 701.0) is not None
    e.feed("0:   successfully saved checkpoint at iteration       3 to /fsx/checkpoints", 710.0)
    assert e.phase == "training"
    assert e.checkpoints == 1


def test_checkpoint_counting_dedupes_one_save_reported_twice() -> None:
    e = engine()
    lines = [
        progress(1),
        "0: saving checkpoint at iteration       1 to /fsx/checkpoints",
        "0:   successfully saved checkpoint at iteration       1 to /fsx/checkpoints",
        progress(2),
        "1:     save-checkpoint ................................: (81611.24, 81611.82)",
        "0: saving checkpoint at iteration       2 to /fsx/checkpoints",
        "0:   successfully saved checkpoint at iteration       2 to /fsx/checkpoints",
        "0:   successfully saved checkpoint at iteration       2 to /fsx/checkpoints",
        progress(3),
        "1:     save-checkpoint ................................: (81611.24, 81611.82)",
    ]
    feed(e, lines, at=1.0)
    assert e.checkpoints == 2
    # a log that only has the timer rows still counts saves that are reports apart
    t = engine()
    rows = [progress(1), "1:  save-checkpoint ...: (1.0, 2.0)", progress(2), progress(3)]
    feed(t, [*rows, "1:  save-checkpoint ...: (1.0, 2.0)"], at=1.0)
    assert t.checkpoints == 2


def test_site_checkpoint_pattern_from_the_context() -> None:
    e = LogEngine(
        AnalyzerContext(
            settings=engine_settings(checkpoint_patterns=(r"ckpt done step=(?P<iteration>\d+)",))
        )
    )
    feed(e, ["ckpt done step=10", "ckpt done step=10", "ckpt done step=20"], at=1.0)
    assert e.checkpoints == 2


def test_straggler_scores_name_ranks_and_nodes() -> None:
    e = engine()
    feed(
        e,
        [
            "  Rank=76 Node=node3 Score=0.62",
            "  Rank=13 Node=node1 Score=0.94",
        ],
        at=1.0,
    )
    assert e.stragglers == {76: "node3"}


@pytest.mark.parametrize(
    ("knobs", "problem"),
    [
        ({"crash_confirm_s": -3.0}, "crash_confirm_s"),
        ({"cadence_factor": float("nan")}, "cadence_factor"),
        ({"hang_timeout_s": 0.0}, "hang_timeout_s"),
        ({"throughput_drop": 1.5}, "throughput_drop"),
        ({"throughput_window": 0}, "throughput_window"),
        ({"throughput_deep_drop": 0.1}, "throughput_deep_drop"),  # shallower than the drop
        ({"throughput_deep_sustained": 0}, "throughput_deep_sustained"),
        ({"checkpoint_patterns": ("([unclosed",)}, "bad checkpoint pattern"),
    ],
)
def test_bad_settings_fail_loudly(knobs: dict[str, object], problem: str) -> None:
    """A bad value never runs a silently different engine: it fails where it is made."""
    with pytest.raises(BadEngineSetting, match=re.escape(problem)):
        EngineSettings(**knobs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("AJR_HANG_TIMEOUT", "-1"),
        ("AJR_CRASH_CONFIRM", "soon"),
        ("AJR_THROUGHPUT_DROP", "1.2"),
        ("AJR_THROUGHPUT_DEEP_SUSTAINED", "0"),
        ("AJR_CHECKPOINT_START_PATTERNS", '["(unclosed"]'),
    ],
)
def test_bad_environment_values_fail_at_start_up(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError):
        Settings()


# --- attribution ------------------------------------------------------------------------------

NAMES = NodeNames(NODES)


def signals(*lines: str) -> list[Signal]:
    out = [s for line in lines if (s := detect_crash(line, NAMES)) is not None]
    assert len(out) == len(lines)
    return out


def test_first_failing_rank_wins_over_its_victims() -> None:
    result = attribute(
        signals(
            "[rank3]:[E ProcessGroupNCCL.cpp:1] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=4) ran for 600023 milliseconds before timing out.",
            "0: RuntimeError: CUDA error: an illegal memory access was encountered",
            "srun: error: node1: tasks 0-7: Killed",
        )
    )
    assert result is not None
    assert result.root is not None and result.root.name == "cuda_illegal_address"
    assert result.culprit_nodes == ()
    assert result.suspect_nodes == ("node1",)


def test_hardware_on_named_nodes_is_excluded() -> None:
    result = attribute(
        signals(
            "srun: error: node1: task 0: Exited with exit code 1",
            "NVRM: Xid (PCI:0000:3b:00): 95, pid=1, name=python, Uncontained on node2",
            "NVRM: Xid (PCI:0000:3b:00): 48, pid=1, name=python, DBE on node3",
        )
    )
    assert result is not None
    assert result.category == "GPU"
    assert result.culprit_nodes == ("node2", "node3")
    assert result.requeue is True
    assert result.confidence >= 0.9


def test_signals_after_a_slurm_cancel_are_its_consequences() -> None:
    result = attribute(
        signals(
            "slurmstepd: error: *** JOB 5 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO "
            "PREEMPTION ***",
            "RuntimeError: CUDA error: uncorrectable ECC error encountered on node2",
        )
    )
    assert result is not None and result.category == "SCHEDULER"
    assert result.culprit_nodes == ()


@pytest.mark.parametrize(
    ("lines", "category"),
    [
        # each of two ranks lost its link to the other, and nothing else happened: the link
        # failed (heldout17's iptables reset between two accelerate ranks)
        (["[rank1]: RuntimeError: [gloo/transport/tcp/pair.cc:553] Connection closed by peer "
          "[127.0.0.1]:31417", "[rank0]: RuntimeError: [gloo/transport/tcp/pair.cc:553] "
          "Connection closed by peer [127.0.0.1]:16806",
          "E1124 05:18:00.934000 13677 api.py:1002] failed (exitcode: 1) local_rank: 1 (pid: "
          "13762) of binary: /venv/bin/python"], "NETWORK"),
        # a rank was killed unseen: its peers' closed connections follow from its death
        (["[rank1]: RuntimeError: [gloo/transport/tcp/pair.cc:553] Connection closed by peer "
          "[127.0.0.1]:31417", "[rank0]: RuntimeError: [gloo/transport/tcp/pair.cc:553] "
          "Connection closed by peer [127.0.0.1]:16806",
          "E1124 05:18:00.934000 13677 api.py:1002] failed (exitcode: -9) local_rank: 2 (pid: "
          "13763) of binary: /venv/bin/python"], "UNKNOWN"),
        # one rank alone: the other may have died without a word
        (["[rank0]: RuntimeError: [gloo/transport/tcp/pair.cc:553] Connection closed by peer "
          "[127.0.0.1]:16806"], "UNKNOWN"),
    ],
)  # fmt: skip
def test_ranks_that_each_lost_the_other_had_their_link_fail(
    lines: list[str], category: str
) -> None:
    result = attribute(signals(*lines))
    assert result is not None and result.category == category
    assert result.requeue is True


def test_nccls_last_error_explains_the_error_before_it() -> None:
    """NCCL answers "invalid usage" when no network plugin starts: the "Last error:" line that
    follows the rank's exception is its cause, not a victim of it (heldout17's Alps node)."""
    result = attribute(
        signals(
            "/var/spool/slurmd/job2611382/slurm_script: line 377: python: command not found",
            "34: torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, invalid "
            "usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.29.3",
            "34: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
            "34: Failed to initialize any NET plugin",
            "srun: error: nid006742: tasks 32-33: Exited with exit code 1",
        )
    )
    assert result is not None and result.category == "NETWORK" and result.requeue is True


def test_no_signals_no_attribution() -> None:
    assert attribute([]) is None


def test_after_a_crash_the_aftermath_is_kept_not_reported_again() -> None:
    e = engine()
    assert e.feed("2: RuntimeError: CUDA error: unspecified launch failure", 1.0) is not None
    aftermath = [
        "srun: error: node1: tasks 0-7: Killed",
        "srun: error: node2: task 9: Exited with exit code 1",
    ]
    assert feed(e, aftermath, at=2.0) == []
    assert e.silence(60.0, 62.0) is None
    assert [s.name for s in e.signals] == [
        "cuda_launch_failure",
        "srun_task_killed",
        "srun_task_exit",
    ]
    result = e.attribution()
    assert result is not None and result.root is not None
    assert result.root.name == "cuda_launch_failure"
    assert result.suspect_nodes == ("node1", "node2")


def test_nvrx_missed_heartbeat_is_a_hang_at_once() -> None:
    """Seed 004: NVRx's rank monitor says a rank stopped; no need to wait for silence."""
    from analysis.analyzer import AnalyzerContext
    from analysis.engine import LogEngine
    from models.recovery import Observed

    engine = LogEngine(AnalyzerContext(job_nodes=("node1",)))
    assert engine.feed("0: [INFO] heartbeat interval set to 30s", 1.0) is None  # noise
    line = (
        "0: [WARNING] [RankMonitorServer:34] Did not get subsequent heartbeat. "
        "Waited 171.92 seconds."
    )
    finding = engine.feed(line, 2.0)
    assert finding is not None and finding.kind is Observed.HANG
    assert "subsequent heartbeat" in finding.summary and finding.evidence == (line,)
    assert engine.feed(line, 3.0) is None  # reported once


@pytest.mark.parametrize(
    ("line", "name"),
    [
        # slurmstepd names the step ("step 3756240.batch"), not a training step
        ("slurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup",
         "host_oom"),
        # detectron2 names the iteration the loss diverged at
        ("FloatingPointError: Loss became infinite or NaN at iteration=1029!", "nan_loss"),
    ],
)  # fmt: skip
def test_a_failure_report_that_counts_steps_is_a_failure_not_progress(line: str, name: str) -> None:
    e = engine()
    feed(e, [progress(10)], at=0.0)
    assert feed(e, [line], at=5.0) == []
    assert [s.name for s in e.pending] == [name]
    assert e.iteration == 10
    # counter-example: a progress line with "error" in a metric's name stays progress
    healthy = engine()
    feed(healthy, [progress(10), "iteration 11/100 | train_error: 0.12 | lm loss: 2.1"], at=0.0)
    assert healthy.iteration == 11 and healthy.pending == ()


def test_a_signal_report_written_after_a_progress_bar_is_read() -> None:
    """Lightning's "[rank: 2] Received SIGTERM: 15" lands on the bar's line (tqdm draws without
    a newline): the job was stopped from outside, not failed by the DataLoader workers whose
    "killed by signal: Terminated" errors follow (round 25)."""
    bar = "Epoch 0:  31%|###       | 1225/3999 [1:07:35<2:33:02,  3.31s/it, v_num=29, loss=0.375]"
    e = engine()
    feed(e, [bar], at=0.0)
    feed(e, [f"{bar}[rank: 2] Received SIGTERM: 15"], at=5.0)
    assert [s.name for s in e.pending] == ["preempted"]
    # counter-example: "SIG" in a metric's name is no signal
    healthy = engine()
    feed(healthy, [bar, f"{bar[:-1]}, SIGMA_loss=0.2]"], at=0.0)
    assert healthy.pending == ()


def test_a_progress_bar_the_shell_appended_a_death_report_to_is_a_crash() -> None:
    """tqdm draws without a newline: bash's "line 6: 3305 Killed" lands on the bar's line."""
    bar = "Epoch 15 (validation): 2%|#4    | 20/1094 [00:41<11:04,  1.62it/s]"
    e = engine()
    feed(e, [bar], at=0.0)
    feed(e, [f"{bar}/home/u/bin/jac-crun: line 6:  3305 Killed    $JACROOT/bin/jac-run"], at=5.0)
    assert [s.name for s in e.pending] == ["killed"]
    finding = e.final_finding()
    assert finding is not None and finding.kind is Observed.CRASH
    # counter-example: the bar alone is progress, nothing pending
    healthy = engine()
    feed(healthy, [bar], at=0.0)
    assert healthy.pending == () and healthy.has_progress


def test_an_abort_waits_for_the_error_its_process_reports() -> None:
    """abort() comes with its reason: the watchdog's exception after it decides the cause."""
    e = engine()
    feed(e, [progress(10)], at=0.0)
    assert feed(e, ["(RayWorkerVllm pid=7046) Fatal Python error: Aborted"], at=1.0) == []
    found = feed(e, ["[E ProcessGroupNCCL.cpp:916] [Rank 0] NCCL watchdog thread terminated "
                     "with exception: CUDA error: an illegal memory access was encountered"],
                 at=1.5)  # fmt: skip
    assert len(found) == 1 and found[0].kind is Observed.CRASH
    assert found[0].category == "APPLICATION" and found[0].requeue_warranted is False
    # alone, the abort is still a crash once the window passes without progress
    alone = engine()
    feed(alone, [progress(10), "Fatal Python error: Aborted"], at=0.0)
    late = alone.silence(31.0, 31.0)
    assert late is not None and late.kind is Observed.CRASH and late.category == "UNKNOWN"


def test_an_application_xid_waits_for_a_hardware_one_that_follows() -> None:
    """Xid 43/31/13 are usually the program's; an Xid 94 (contained ECC) after them is the
    cause, and its node the culprit. Alone, the application Xid still ends as a crash."""
    e = engine()
    assert feed(e, ["NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch 8"],
                at=0.0) == []  # fmt: skip
    xid94 = (
        "node4 kernel: NVRM: Xid (PCI:0000:00:08): 94, pid='<unknown>', name=<unknown>,"
        " Contained: SM (0x1). RST: No, D-RST: No"
    )
    found = feed(e, [xid94], at=1.0)
    assert len(found) == 1 and found[0].category == "GPU"
    alone = engine()
    feed(alone, ["NVRM: Xid (PCI:0000:00:05): 43, pid=1, name=python, Ch 8"], at=0.0)
    late = alone.final_finding()
    assert late is not None and late.category == "APPLICATION"


def test_a_step_cancelled_without_reason_waits_for_the_jobs_reason() -> None:
    """Slurm cancels the step, then the job DUE TO PREEMPTION: the scheduler's call."""
    e = engine()
    feed(e, [progress(10)], at=0.0)
    step = "slurmstepd: error: *** STEP 37361369.0 ON node1 CANCELLED AT 2021-03-15T17:50:23 ***"
    assert feed(e, [step], at=1.0) == []
    job = (
        "slurmstepd: error: *** JOB 37361369 ON node1 CANCELLED AT 2021-03-15T18:00:46 DUE TO"
        " PREEMPTION ***"
    )
    found = feed(e, [job], at=2.0)
    assert len(found) == 1 and found[0].category == "SCHEDULER"
    # alone, the reasonless cancel is a crash of unknown cause once the window passes
    alone = engine()
    feed(alone, [progress(10), step], at=0.0)
    late = alone.silence(31.0, 31.0)
    assert late is not None and late.kind is Observed.CRASH and late.category == "UNKNOWN"


def test_megatron_exit_16_on_its_checkpoint_line_is_read() -> None:
    """ "Saving a checkpoint and exiting now" starts a save and asks for other hardware."""
    e = engine()
    feed(e, [progress(13)], at=0.0)
    finding = e.feed(
        "0: WARNING:megatron.core.rerun_state_machine:Saving a checkpoint and exiting now. Please "
        "resume the job from the checkpoint to rerun the last iteration and establish a diagnostic",
        5.0,
    )
    assert finding is not None and finding.kind is Observed.CRASH
    assert finding.category == "GPU" and finding.requeue_warranted is True


def test_a_pbs_deletion_yields_to_the_reason_given_with_it() -> None:
    deleted = "Job deleted at request of root@mskcc-fe1.local"
    result = attribute(signals(deleted, "job preempted (node failure)"))
    assert result is not None and result.category == "NODE"
    alone = attribute(signals(deleted))
    assert alone is not None and alone.category == "SCHEDULER"


def bar_line(rates: list[float], total: int = 100) -> str:
    """One physical line of a Lightning run: every tqdm redraw, carriage-return separated."""
    redraws = []
    for step, rate in enumerate(rates, start=1):
        epoch, n = divmod(step, total)
        redraws.append(
            f"Epoch {epoch}:  {n}%|#     | {n}/{total} [00:01<00:09, {rate:.2f}it/s, v_num=0]"
        )
    return "\r".join(redraws)


def test_progress_bar_redraws_on_one_line_are_each_a_report() -> None:
    # 2 epochs at 10 it/s, then half speed for the rest of the run: a straggler
    e = engine()
    found = feed(e, [bar_line([10.0] * 200 + [5.0] * 150)], at=0.0)
    assert [f.kind for f in found] == [Observed.STRAGGLER]
    assert e.iteration == 350  # batches counted on across epochs
    # counter-example: 15 slow steps in a row (a data loader hiccup) are no sustained drop: a
    # bar's per-step rate is read every 10th step, so they are 2 reports, not 15
    e = engine()
    assert feed(e, [bar_line([10.0] * 200 + [5.0] * 15 + [10.0] * 135)], at=0.0) == []


# --- round 7: heldout6's misses as classes ----------------------------------------------------

WATCHDOG_TIMEOUT = (
    "[E ProcessGroupNCCL.cpp:821] [Rank 0] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=3, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600123 milliseconds before "
    "timing out."
)


def test_an_abort_printed_before_the_watchdogs_timeouts_is_their_teardown() -> None:
    """torchrun's summary of the SIGABRT (exitcode -6) can come before the ranks' watchdog lines:
    the watchdog took its process down, the job hung. A rank's own error is still a crash."""
    e = engine()
    feed(e, [progress(10)], at=0.0)
    feed(e, ["ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) "
             "local_rank: 0 (pid: 514946) of binary: /usr/bin/python"], at=1.0)  # fmt: skip
    found = feed(e, ["[E ProcessGroupNCCL.cpp:821] [Rank 0] Watchdog caught collective "
                     "operation timeout: WorkNCCL(SeqNum=27962, OpType=BROADCAST, "
                     "Timeout(ms)=1800000) ran for 1807582 milliseconds before timing out."],
                 at=1.5)  # fmt: skip
    assert len(found) == 1 and found[0].kind is Observed.HANG
    died = engine()  # a rank's own reason before the timeout: that rank crashed
    feed(died, [progress(10), "[rank1]: terminate called after throwing an instance of "
                "'c10::Error'", "[rank1]:   what():  CUDA error: out of memory"],
         at=0.0)  # fmt: skip
    found = feed(died, [WATCHDOG_TIMEOUT], at=1.0)
    assert [f.kind for f in found] == [Observed.CRASH] and found[0].category == "APPLICATION"


def test_an_abort_does_not_make_a_later_network_error_its_victim() -> None:
    """Two ranks each abort on their own gloo transport error: the network is the cause. A real
    crash first (a segfault) still makes the peer's connection reset its victim."""
    lines = [
        "[0]<stderr>:terminate called after throwing an instance of 'gloo::IoException'",
        "[0]<stderr>:  what():  [pair.cc:572] Connection closed by peer [10.128.15.205]:53666",
        "[0]<stderr>:Fatal Python error: Aborted",
        "[4]<stderr>:terminate called after throwing an instance of 'gloo::IoException'",
        "[4]<stderr>:  what():  [gloo/transport/tcp/pair.cc:563] Read error [10.128.0.5]:19855: "
        "Connection reset by peer",
        "[4]<stderr>:Fatal Python error: Aborted",
    ]
    e = engine()
    feed(e, lines, at=0.0)
    found = e.final_finding()
    assert found is not None and found.kind is Observed.CRASH and found.category == "NETWORK"
    segv = engine()
    feed(segv, ["[0]<stderr>:Segmentation fault (core dumped)", lines[4]], at=0.0)
    cause = segv.attribution()
    assert cause is not None and cause.category == "UNKNOWN"


def test_a_connection_reset_printed_before_the_peers_death_is_still_its_victim() -> None:
    """Ranks' output interleaves (horovodrun, mpirun --tag-output): rank 2's gloo reset is
    printed before rank 1's segfault, which reset it. A reset with no death anywhere stays the
    network's, and so does a transport error that is no reset."""
    reset = (
        "[2]<stderr>:[2021-04-12 04:03:43.746989: E horovod/common/operations.cc:548] Horovod"
        " background loop uncaught exception: [gloo/transport/tcp/pair.cc:575] Read error"
        " [10.244.0.72]:51023: Connection reset by peer"
    )
    segv = "[1]<stderr>:Segmentation fault (core dumped)"
    e = engine()
    feed(e, [reset, segv], at=0.0)
    cause = e.attribution()
    assert cause is not None and cause.category == "UNKNOWN" and cause.root is not None
    assert cause.root.name == "segfault"
    alone = engine()
    feed(alone, [reset], at=0.0)
    cause = alone.attribution()
    assert cause is not None and cause.category == "NETWORK"
    ib = engine()
    feed(ib, ["node3:12:34 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2 with error 12",
              segv], at=0.0)  # fmt: skip
    cause = ib.attribution()
    assert cause is not None and cause.category == "NETWORK"
    # the same reset as the exception a rank's traceback ends on, before torch elastic reports
    # the peer it lost was SIGKILLed
    raised = engine()
    feed(raised, [
        "[rank0]: Traceback (most recent call last):",
        '[rank0]:   File "train.py", line 9, in <module>',
        "[rank0]: RuntimeError: [gloo/transport/tcp/pair.cc:537] Read error [127.0.0.1]:16028:"
        " Connection reset by peer",
        "E1123 20:32:14.125000 13097 api.py:1002] failed (exitcode: -9) local_rank: 1 (pid: 13)"
        " of binary: /venv/bin/python",
    ], at=0.0)  # fmt: skip
    cause = raised.attribution()
    assert cause is not None and cause.category == "UNKNOWN"


def test_a_victims_report_waits_for_the_lines_that_came_with_it() -> None:
    """srun reports the task's exit before slurmstepd's own error says why (execve of a file
    that is no program: the job script's mistake, in a later step of a job that has trained).
    The victim's report waits until time moves on (the next poll or stamped line), then names
    the cause that came with it. (Before training reported anything, such a step may be a
    probe the script goes on from: see the test after the next.)"""
    exited = "srun: error: gpuc01: task 0: Exited with exit code 8"
    why = "slurmstepd: error: execve(): /u/alice/env4/bin/activate: Exec format error"
    e = engine()
    assert feed(e, [progress(10), exited, why], at=5.0) == []
    found = e.silence(0.5, 5.5)
    assert found is not None and found.kind is Observed.CRASH
    assert found.category == "APPLICATION" and found.requeue_warranted is False
    # alone, it is reported one poll later, its cause unknown; restored, the hold goes on
    alone = engine()
    assert feed(alone, [progress(10), exited], at=5.0) == []
    resumed = engine()
    assert resumed.restore_state(json.loads(json.dumps(alone.export_state())))
    found = resumed.feed("slurmstepd: error: *** STEP 12.0 ON gpuc01 CANCELLED AT x ***", 6.0)
    assert found is not None and found.kind is Observed.CRASH and found.category == "UNKNOWN"
    # a cause already seen: no wait
    known = engine()
    feed(known, ["0: Traceback (most recent call last):", "0: KeyError: 'lr'"], at=5.0)
    found = known.feed(exited, 5.0)
    assert found is not None and found.category == "APPLICATION"


def test_a_victims_report_waits_past_connections_its_peers_lost() -> None:
    """Ranks that lost their connections to a peer, then srun's exits of their tasks: nothing
    of their own, so the report waits for what comes with them (Slurm's "Node failure on n3"),
    which is the cause, not the network. Without it, the resets are the cause."""
    reset = ("1: [rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/"
             "tcp/pair.cc:537] Read error [127.0.0.1]:420: Connection reset by peer. This is "
             "typically caused by a remote worker crashing.")  # fmt: skip
    exited = "srun: error: node2: task 1: Exited with exit code 1"
    e = engine()
    assert feed(e, [progress(10), reset, exited], 5.0) == []
    found = e.feed("srun: error: Node failure on node3", 5.0)
    assert found is not None and found.kind is Observed.CRASH
    assert found.category == "NODE" and found.culprit_nodes == ("node3",)
    alone = engine()
    assert feed(alone, [progress(10), reset, exited], 5.0) == []
    found = alone.silence(0.5, 5.5)
    assert found is not None and found.category == "NETWORK"


def test_a_task_srun_reports_killed_first_died_before_the_resets_it_caused() -> None:
    """A rank lost its connection, then srun reports another task Killed before the rank's own
    exit: that task died unseen first (a kill -9), and the reset followed from it: UNKNOWN.
    When srun reports the rank's exit first and kills the rest after it, the reset stays the
    network's."""
    reset = ("[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
             "pair.cc:537] Read error [127.0.0.1]:30352: Connection reset by peer.")  # fmt: skip
    killed = "srun: error: node2: task 1: Killed"
    exited = "srun: error: node1: task 0: Exited with exit code 1"
    first = engine()
    feed(first, [progress(10), reset, killed, exited], 5.0)
    cause = first.attribution()
    assert cause is not None and cause.category == "UNKNOWN"
    after = engine()
    feed(after, [progress(10), reset, exited, killed], 5.0)
    cause = after.attribution()
    assert cause is not None and cause.category == "NETWORK"


def test_a_store_connect_that_timed_out_after_its_host_did_not_resolve_is_a_network_crash() -> None:
    """c10d could not resolve the rendezvous host's name, then its connect timed out: no peer
    was ever there to wait for, so it is no hang but a crash of the network's (DNS, the hosts
    file). The same timeout without the lookup failure is a hang."""
    gai = ("cn2: [W1124 11:44:45.436139389 socket.cpp:764] [c10d] The IPv6 network addresses of"
           " (cn1, 29420) cannot be retrieved (gai error: -3 - Temporary failure in name"
           " resolution).")  # fmt: skip
    timeout = ("cn2: [E1124 11:45:33.470182853 socket.cpp:1028] [c10d] The client socket has"
               " timed out after 60000ms while trying to connect to (cn1, 29420).")  # fmt: skip
    e = engine()
    assert feed(e, [gai], 1.0) == []  # a warning: c10d retries the lookup
    found = feed(e, [timeout], 60.0)
    assert [f.kind for f in found] == [Observed.CRASH] and found[0].category == "NETWORK"
    alone = engine()
    found = feed(alone, [timeout], 60.0)
    assert [f.kind for f in found] == [Observed.HANG]
    # restored between the two, the warning still explains the timeout
    resumed = engine()
    feed(resumed, [gai], 1.0)
    restored = engine()
    assert restored.restore_state(json.loads(json.dumps(resumed.export_state())))
    assert [f.category for f in feed(restored, [timeout], 60.0)] == ["NETWORK"]
    # once training reports progress, a later connect timeout is a hang again
    started = engine()
    feed(started, [gai, progress(1), progress(2)], 1.0)
    assert [f.kind for f in feed(started, [timeout], 60.0)] == [Observed.HANG]
    # healthy jobs print it for IPv6 lookups: no cause of a program's own error after it
    bug = engine()
    feed(bug, [gai.replace("-3 - Temporary failure in name resolution", "-2 - Name or service"
               " not known"), "0: Traceback (most recent call last):",
               "0: KeyError: 'lr'"], 2.0)  # fmt: skip
    bug.end_of_attempt(failed=True, at=3.0)
    found_at_end = bug.final_finding()
    assert found_at_end is not None and found_at_end.category == "APPLICATION"


def test_a_failure_training_finished_after_is_no_crash_at_the_end() -> None:
    """A save that failed, was caught and written elsewhere, then training finished: the
    program got past it, so the end of the attempt reports nothing. A failure after the end
    of training is still reported (done means done: stopped, never requeued, policy.py)."""
    failed = ("RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with"
              " strerror: Read-only file system")  # fmt: skip
    done = "2026-11-24 11:45:39,824 INFO [r0@vm] lmtrain: training finished: 600 steps"
    e = engine()
    feed(e, [progress(599), progress(600), failed, done], 5.0)
    e.end_of_attempt(failed=False, at=6.0)
    assert e.final_finding() is None
    resumed = engine()
    feed(resumed, [progress(599), progress(600), failed], 5.0)
    restored = engine()
    assert restored.restore_state(json.loads(json.dumps(resumed.export_state())))
    feed(restored, [done], 5.5)
    assert restored.final_finding() is None
    after = engine()
    feed(after, [progress(599), progress(600), done, failed], 5.0)
    after.end_of_attempt(failed=True, at=6.0)
    found = after.final_finding()
    assert found is not None and found.category == "STORAGE"
    restored = engine()
    assert restored.restore_state(json.loads(json.dumps(after.export_state())))
    assert restored.final_finding() is not None


def test_a_node_failure_cancel_takes_its_node_from_sruns_line() -> None:
    """slurmstepd's cancel "DUE TO NODE FAILURE" names the batch host; srun's "Node failure on
    node2", printed with it, names the node that failed: the culprit to exclude."""
    e = engine()
    found = feed(e, [
        progress(10),
        "slurmstepd-node1: error: *** JOB 1 ON node1 CANCELLED AT 2026-11-24T11:45:39 DUE TO NODE"
        " FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
    ], 5.0)  # fmt: skip
    assert [f.category for f in found] == ["NODE"] and found[0].culprit_nodes == ()
    feed(e, ["srun: error: Node failure on node2"], 5.0)
    cause = e.attribution()
    assert cause is not None and cause.category == "NODE" and cause.culprit_nodes == ("node2",)


def test_after_one_report_the_starts_rhythm_still_bounds_the_silence() -> None:
    """torchtitan logs every 10 steps: after its first report, minutes may pass before the
    next. Until a second report gives a cadence, the start's own rhythm (cadence_factor x its
    longest silence) counts, as before the first report."""
    e = engine(cadence_factor="3", setup_timeout_s="900")
    e.feed("[titan] 2026-05-12 22:55:35,645 - root - INFO - Training starts at step 1", 0.0)
    e.feed("[titan] compiling", 10.0)
    e.feed("[titan] compiled", 63.0)  # back from 53 s of silence
    e.feed("[titan] - root - INFO - step:  1  loss: 12.21407  tps: 708", 69.0)
    assert e.progress_reports == 1 and e.cadence_s is None
    assert e.hang_allowance(69.0) == pytest.approx(159.0)
    assert e.silence(130.0, 199.0) is None
    hang = e.silence(160.0, 229.0)
    assert hang is not None and hang.kind is Observed.HANG
    # a start without silences: the documented minimum
    quick = engine(cadence_factor="3")
    quick.feed("[titan] - root - INFO - step:  1  loss: 12.21407  tps: 708", 1.0)
    assert quick.hang_allowance(1.0) == 120.0


def test_a_checkpoint_write_that_failed_is_a_failure_not_a_save() -> None:
    """TensorFlow reports a full disk while writing a checkpoint as RESOURCE_EXHAUSTED on the
    checkpoint's path: STORAGE, requeue."""
    e = engine()
    feed(e, [progress(10), "InternalError (see above for traceback): Error writing (tmp) "
             "checkpoint file: /ckpt/model.ckpt-6.tempstate97: Resource exhausted: "
             "/ckpt/model.ckpt-6.tempstate97"], at=0.0)  # fmt: skip
    found = e.final_finding()
    assert found is not None and found.category == "STORAGE" and found.requeue_warranted


# --- round 8: heldout7's misses as classes ----------------------------------------------------


def test_a_job_cancelled_without_a_reason_and_nothing_before_is_the_schedulers() -> None:
    """scancel of the whole job after normal training: SCHEDULER (requeue). A step's reasonless
    cancel is also what srun does after a task died unseen: UNKNOWN; and a failure before either
    is the cause."""
    lines = [progress(10), progress(11)]
    job = "slurmstepd: error: *** JOB 334949 ON dgx-03 CANCELLED AT 2026-01-06T04:52:18 ***"
    step = "slurmstepd: error: *** STEP 5.0 ON node1 CANCELLED AT 2026-01-06T04:52:18 ***"
    for cancel, category in ((job, "SCHEDULER"), (step, "UNKNOWN")):
        e = engine()
        feed(e, [*lines, cancel], at=0.0)
        found = e.final_finding()
        assert found is not None and found.category == category and found.requeue_warranted
    failed = engine()
    feed(failed, [*lines, "RuntimeError: CUDA error: out of memory", job], at=0.0)
    cause = failed.attribution()
    assert cause is not None and cause.category == "APPLICATION"


def test_a_dead_ray_worker_with_a_network_error_died_of_the_network() -> None:
    """The raylet's death report gives no cause; the IB completion error and NCCL's network
    error beside it do. With no other evidence, a dead worker stays a crash of unknown cause,
    also when the others then time out waiting for it."""
    died = ("(raylet) A worker died or was killed while executing a task by an unexpected system"
            " error. There are some potential root causes. (3) The worker is crashed unexpectedly"
            " due to SIGSEGV or other unexpected errors.")  # fmt: skip
    e = engine()
    feed(e, [progress(10), died, "(RayWorkerWrapper pid=92234) mlx5: host_unknown: got "
             "completion with error:"], at=0.0)  # fmt: skip
    found = e.final_finding()
    assert found is not None and found.category == "NETWORK"
    alone = engine()
    feed(alone, [progress(10), died], at=0.0)
    hang = feed(alone, [WATCHDOG_TIMEOUT], at=1.0)
    assert [f.kind for f in hang] == [Observed.CRASH] and hang[0].category == "UNKNOWN"


def test_a_silence_training_went_through_at_its_pace_is_a_cut() -> None:
    """`gap_is_cut`: the line after the gap is as far on as the job's pace takes it (lines were
    left out of an excerpt); one that is hardly further on ends a real silence."""
    e = engine()
    t0 = 1_700_000_000.0

    def line(step: int, t: float) -> str:
        return f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(t))} INFO [step={step}/1000]"

    for i, step in enumerate(range(10, 60, 10)):
        feed(e, [line(step, t0 + 46.0 * i)], at=t0 + 46.0 * i)
    later = t0 + 46.0 * 4 + 4409.0
    assert e.gap_is_cut(line(990, later), later)
    assert not e.gap_is_cut(line(60, later), later)


# --- round 10: heldout9's misses as classes ---------------------------------------------------


def test_a_jobs_reasonless_cancel_after_its_steps_is_still_the_schedulers() -> None:
    """scancel of a job prints the steps' cancel lines first, then the job's: SCHEDULER."""
    e = engine()
    feed(e, [progress(10),
             "slurmstepd: error: *** STEP 1809577.0 ON r6i5n1 CANCELLED AT 2021-05-23T08:46:02 ***",
             "slurmstepd: error: *** JOB 1809577 ON r6i5n1 CANCELLED AT 2021-05-23T08:46:02 ***",
             "Main process received SIGTERM, exiting"], at=0.0)  # fmt: skip
    found = e.final_finding()
    assert found is not None and found.category == "SCHEDULER" and found.requeue_warranted


# --- round 13: heldout12's misses as classes --------------------------------------------------

SIGTERM_LINES = [
    "W1123 21:25:23.564000 6857 torch/distributed/elastic/agent/server/api.py:753] Received 15"
    " death signal, shutting down workers",
    "[rank0]:[titan] 2026-11-23 21:25:23,568 - root - WARNING - Received SIGTERM; will save a"
    " checkpoint at the next checkpoint interval and exit",
]


def test_a_death_after_caffes_end_of_training_is_stopped_never_requeued() -> None:
    """Caffe's solver says "Optimization Done." (the end of training), then segfaults in its
    destructors (~Net): a death of its own, so ajr stops the job (its nodes are wanted), and
    never requeues it: the work is done."""
    done = "I0627 03:28:14.706852 10388 solver.cpp:322] Optimization Done."
    segv = "*** SIGSEGV (@0x0) received by PID 10388 (TID 0x7fba406eda40) from PID 0; stack trace"
    e = engine()
    found = feed(e, [progress(74999), done, segv], at=10.0)
    assert [(f.kind, f.category) for f in found] == [(Observed.CRASH, "UNKNOWN")]
    assert e.milestones().training_done_at == 10.0


def test_a_caught_stopiteration_is_taken_back_an_uncaught_one_ends_the_rank() -> None:
    """A rank whose data ran out (uncaught StopIteration) dies; its peers' collectives then
    time out: a CRASH of the program's own (no requeue), not a HANG. A StopIteration a handler
    caught before a barrier timed out is no death: the job hung."""
    watchdog = (
        "3: [rank3]:[E521 13:22:10.386001002 ProcessGroupNCCL.cpp:694] [Rank 1] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=8085827, OpType=BROADCAST, NumelIn=1, "
        "NumelOut=1, Timeout(ms)=600000) ran for 600009 milliseconds"
    )
    ran_out = ["36: [rank36]: Traceback (most recent call last):",
               '36: [rank36]:   File "dataloader.py", line 1471, in _next_data',
               "36: [rank36]: StopIteration"]  # fmt: skip
    e = engine()
    feed(e, [progress(10), *ran_out], at=5.0)
    found = e.feed(watchdog, 6.0)
    assert found is not None and found.kind is Observed.CRASH
    assert found.category == "APPLICATION" and not found.requeue_warranted
    caught = engine()
    feed(caught, [progress(10), *ran_out, "",
                  "36: [rank36]: During handling of the above exception, another exception "
                  "occurred:"], at=5.0)  # fmt: skip
    assert caught.pending == ()
    found = caught.feed(watchdog, 6.0)
    assert found is not None and found.kind is Observed.HANG


def test_a_final_save_cut_off_leaves_the_end_unsafe() -> None:
    """Training reached its final iteration, then the save after it failed (a full disk): the
    final checkpoint is lost, so training is not done, however the save's record is closed
    (the attempt's end, a crash report) and across a worker restart."""
    last = ("iteration       20/      20 | elapsed time per iteration (ms): 14419.2 | "
            "lm loss: 9.951118E+00 |")  # fmt: skip
    save = "saving checkpoint at iteration      20 to /ckpt"
    for ending in ("end", "crash"):
        e = engine()
        feed(e, [progress(19), last, save], at=10.0)
        assert e.milestones().training_done_at is None  # the save is open
        if ending == "end":
            e.end_of_attempt(failed=True, at=20.0)
        else:
            feed(e, ["[rank0]: OSError: [Errno 28] No space left on device"], at=20.0)
        assert e.interrupted_saves == 1
        assert e.milestones().training_done_at is None, ending
        resumed = engine()
        assert resumed.restore_state(json.loads(json.dumps(e.export_state())))
        assert resumed.milestones().training_done_at is None
    # the save written: done
    done = engine()
    feed(done, [progress(19), last, save, "successfully saved checkpoint at iteration 20"], 10.0)
    done.end_of_attempt(failed=False, at=20.0)
    assert done.milestones().training_done_at == 10.0


def test_a_stop_from_outside_that_training_went_on_after_still_ended_the_attempt() -> None:
    """The grace period after a SIGTERM is spent training to the next save: the attempt then
    ends of the stop (SCHEDULER, requeue), and its "Training completed" is no end of training."""
    e = engine(crash_confirm_s="30")
    feed(e, [progress(i) for i in range(1, 4)], at=0.0)
    assert feed(e, SIGTERM_LINES, at=10.0) == []
    assert feed(e, [progress(i) for i in range(4, 9)], at=20.0) == []
    assert e.pending == ()  # training went on: nothing pending, nothing reported while it runs
    assert e.silence(5.0, 25.0) is None
    done = "[titan] 2026-11-23 21:25:43,383 - root - INFO - Training completed"
    feed(e, ["0: successfully saved checkpoint at iteration       8 to /ckpt", done], at=30.0)
    assert e.milestones().training_done_at is None
    state = json.loads(json.dumps(e.export_state()))
    for attempt in (e, engine()):
        if attempt is not e:
            assert attempt.restore_state(state)  # a resumed watch remembers the stop
        found = attempt.final_finding()
        assert found is not None and found.kind is Observed.CRASH
        assert found.category == "SCHEDULER" and found.requeue_warranted
        assert "death signal" in found.summary


def test_training_long_past_any_grace_period_forgets_the_stop() -> None:
    e = engine(crash_confirm_s="30", stop_grace_s="900")
    feed(e, [progress(i) for i in range(1, 4)], at=0.0)
    feed(e, SIGTERM_LINES[:1], at=10.0)
    feed(e, [progress(i) for i in range(4, 7)], at=20.0)
    feed(e, [progress(7)], at=2000.0)  # half an hour on: that signal stopped nothing
    assert e.final_finding() is None


def test_a_clean_end_without_a_stop_is_still_the_end_of_training() -> None:
    e = engine()
    feed(e, [progress(1), progress(2), "[titan] 2026-11-23 21:25:43,383 - root - INFO - Training"
             " completed"], at=0.0)  # fmt: skip
    assert e.milestones().training_done_at == 0.0


def test_nccl_transport_warnings_at_init_are_survived_once_it_chose_a_network() -> None:
    """NCCL could not open one HCA, opened the others and went on: no failure, even when the
    excerpt ends there."""
    e = engine()
    feed(e, ["host-1:80744:80744 [1] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed",
             "host-1:80746:80746 [3] transport/net_ib.cc:149 NCCL WARN NET/IB : Unable to open"
             " device mlx5_59"], at=0.0)  # fmt: skip
    assert [s.name for s in e.pending] == ["transport_error"]
    feed(e, ["host-1:80746:80746 [3] NCCL INFO NET/IB : Using [0]mlx5_1:1/RoCE [1]mlx5_18:1/RoCE"
             " ; OOB eth0:33.117.221.247<0>", "host-1:80746:80746 [3] NCCL INFO Using network IB"],
         at=1.0)  # fmt: skip
    assert e.pending == () and e.final_finding() is None
    # Only NCCL's transport warnings are cleared so: another pending failure stays.
    f = engine(crash_confirm_s="30")
    feed(f, ["host-1:1:1 [0] NCCL WARN Call to recv from 10.0.0.2<4242> failed : Connection"
             " reset by peer", "3: OSError: [Errno 5] Input/output error: '/lustre/x'"],
         at=0.0)  # fmt: skip
    feed(f, ["host-1:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 - Init COMPLETE"], at=1.0)
    assert [s.name for s in f.pending] == ["storage_eio"]


def test_megatrons_suspect_gpu_names_the_node_its_exit_16_asks_to_leave() -> None:
    """The rerun state machine's ERROR line counts an iteration but is no progress: it names
    the node whose GPU reproduced the bad result, and exit 16 then excludes that node."""
    e = engine()
    feed(e, [progress(13)], at=0.0)
    feed(e, ["1: ERROR:megatron.core.rerun_state_machine:Rank 1, node node2, device 0, iteration"
             " #14: First rerun: unexpected result is reproducible within the tolerance"
             " (tensor(nan) = tensor(nan)). Need to rerun on a different GPU"], at=1.0)  # fmt: skip
    assert e.iteration == 13
    found = feed(e, ["0: WARNING:megatron.core.rerun_state_machine:Saving a checkpoint and exiting"
                     " now. Please resume the job from the checkpoint to rerun the last iteration"
                     " and establish a diagnostic"], at=2.0)  # fmt: skip
    assert len(found) == 1 and found[0].category == "GPU" and found[0].culprit_nodes == ("node2",)


def test_a_csv_metrics_logger_reports_progress_and_its_throughput() -> None:
    """A header once, then rows of numbers: each row is a step (the job is training, not in
    its set-up), and a sustained drop in its tokens/s column is a straggler."""
    e = engine()
    rows = ["0: step,epoch,loss,lr,step_ms,tokens_per_s"]
    rows += [f"0: {40 * i},0,3.01,3.00e-03,19.5,{52000 + 500 * (i % 3)}" for i in range(1, 13)]
    assert feed(e, rows, at=0.0) == [] and e.iteration == 480 and e.phase == "training"
    state = e.export_state()
    resumed = engine()  # a watch resumed elsewhere still reads the rows under that header
    assert resumed.restore_state(json.loads(json.dumps(state)))
    slow = [f"0: {40 * i},1,2.95,3.00e-03,29.0,{35000 + 300 * (i % 3)}" for i in range(13, 30)]
    found = feed(resumed, slow, at=1.0)
    assert resumed.iteration == 40 * 29
    assert [f.kind for f in found] == [Observed.STRAGGLER], found


def test_a_line_that_reads_like_a_table_header_never_replaces_the_csv_header() -> None:
    """A metrics table in columns (fastai's "epoch train_loss valid_loss ...") is read only
    where no CSV header is: words that happen to start with "step" do not end the CSV's rows."""
    e = engine()
    rows = ["0: step,epoch,loss,lr,step_ms,tokens_per_s"]
    rows += [f"0: {40 * i},0,3.01,3.00e-03,19.5,52000" for i in range(1, 4)]
    rows += ["0: step into evaluation now"]
    rows += [f"0: {40 * i},0,3.01,3.00e-03,19.5,52000" for i in range(4, 7)]
    feed(e, rows, at=0.0)
    assert e.iteration == 240 and e.progress_reports == 6


def test_a_failure_the_program_says_it_went_on_from_is_none() -> None:
    """A caught error on a line that says so ("...; continuing without it") is not pending: the
    log may well end right after it, with training done."""
    e = engine()
    feed(e, [progress(1)], at=0.0)
    line = ("0: WARNING profiler trace for step 2 not written: OSError(28, 'No space left on "
            "device'); continuing without it")  # fmt: skip
    assert feed(e, [line, progress(2)], at=1.0) == []
    assert not e.pending


def test_after_training_ended_its_teardown_is_no_failure() -> None:
    """Ranks losing the store as others exit, a rendezvous heartbeat that finds it gone, a time
    limit that came as the run ended: after the end of training none is a failure (heldout17's
    MLPerf and Megatron-DeepSpeed runs). A fault of its own still is."""
    done = [progress(1), progress(2), "[after training is done] datetime: 2026-04-10 20:32:31"]
    teardown = [
        "[rank2]:[W410 20:32:38.4 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=114)"
        ": Connection reset by peer",
        "WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'n0_1' has "
        "failed to send a keep-alive heartbeat to the rendezvous '2094' due to an error of type "
        "RendezvousConnectionError.",
        "slurmstepd: error: *** JOB 8437 ON hpc-pg0-12 CANCELLED AT 2021-10-20T12:18:26 DUE TO "
        "TIME LIMIT ***",
    ]
    e = engine()
    assert feed(e, done + teardown, 10.0) == []
    assert e.final_finding() is None
    assert e.milestones().training_done_at == 10.0
    e = engine()
    feed(e, done, 10.0)
    found = feed(e, ["2: RuntimeError: CUDA error: uncorrectable ECC error encountered"], 11.0)
    assert [(f.kind, f.category) for f in found] == [(Observed.CRASH, "GPU")]
    e = engine()  # before the end, the same lines are the failure they say
    found = feed(e, [progress(1), progress(2), *teardown], 10.0)
    assert [(f.kind, f.category) for f in found] == [(Observed.CRASH, "SCHEDULER")]


def test_a_trainer_log_record_is_a_progress_report() -> None:
    """The Hugging Face Trainer's record ({'loss': ..., 'epoch': ...}, no step number) is its
    report that training goes on; an evaluation's or the run's summary is not."""
    e = engine()
    e.feed("{'loss': '6.907', 'grad_norm': '0.1496', 'learning_rate': '0.000225', "
           "'epoch': '0.0032'}", 1.0)  # fmt: skip
    e.feed("{'loss': 6.905, 'grad_norm': 0.12, 'learning_rate': 0.0004839, 'epoch': 0.0096}", 2.0)
    assert e.progress_reports == 2 and e.phase == "training"
    e = engine()
    e.feed("{'eval_loss': 2.3, 'eval_runtime': 1.2, 'epoch': 1.0}", 1.0)
    e.feed("{'train_runtime': 3.4, 'train_loss': 2.1, 'epoch': 3.0}", 2.0)
    assert e.progress_reports == 0


# --- round 23: heldout22's misses as classes --------------------------------------------------


def test_a_step_whose_tasks_a_reasonless_cancel_terminated_was_cancelled_from_outside() -> None:
    """The step's cancel names no reason, and srun then reports every task "Terminated" (the
    SIGTERM a cancel sends) and none that ended on its own: scancel or a preemption, the
    scheduler's. srun ending a step after a task died reports that task first ("Killed")."""
    step = "slurmstepd-n3: error: *** STEP 6.0 ON n3 CANCELLED AT 2026-11-24T18:49:11 ***"
    terminated = ["srun: error: n3: task 0: Terminated", "srun: error: n4: task 1: Terminated"]
    e = engine()
    feed(e, [progress(10), step, *terminated], at=0.0)
    found = e.final_finding()
    assert found is not None and found.category == "SCHEDULER" and found.requeue_warranted
    killed = engine()
    feed(killed, [progress(10), step, "srun: error: n4: task 1: Killed", terminated[0]], at=0.0)
    found = killed.final_finding()
    assert found is not None and found.category == "UNKNOWN"


def test_a_steps_cancel_alone_is_from_outside_only_where_srun_would_have_said_otherwise() -> None:
    """A step's reasonless cancel, the only failure signal, in a log srun writes to: cancelled
    from outside (SCHEDULER). Without srun's lines a task may have died unseen (UNKNOWN); after a
    watchdog's timeout the cancel is the hung job's end, not the job's cause (UNKNOWN)."""
    step = "slurmstepd-n3: error: *** STEP 6.0 ON n3 CANCELLED AT 2026-11-24T18:49:11 ***"
    watchdog = (
        "[rank3]:[E ProcessGroupNCCL.cpp:1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=9, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out."
    )
    cases = (((step,), True, "SCHEDULER"), ((step,), False, "UNKNOWN"),
             ((watchdog, step), True, "UNKNOWN"))  # fmt: skip
    for lines, srun_speaks, want in cases:
        cause = attribute(signals(*lines), srun_speaks=srun_speaks)
        assert cause is not None and cause.category == want, (lines, srun_speaks)


def test_a_store_port_several_of_the_jobs_processes_bind_is_the_launchs_configuration() -> None:
    """Each task took itself for rank 0 and tried to host the rendezvous store on one port: all
    but one fail with EADDRINUSE. A requeue launches them the same way (APPLICATION, no
    requeue). One process failing to bind is a port another program holds (NETWORK)."""
    taken = (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local"
        " network address. The server socket has failed to bind to [::]:17717 (errno: 98 -"
        " Address already in use)."
    )
    cause = attribute(signals(taken, taken, taken))
    assert cause is not None and (cause.category, cause.requeue) == ("APPLICATION", False)
    assert "17717" in cause.summary
    alone = attribute(signals(taken))
    assert alone is not None and (alone.category, alone.requeue) == ("NETWORK", True)


def test_a_command_the_job_went_past_before_its_launch_is_no_cause() -> None:
    """The batch script's `conda activate` fails in a shell not set up for it; the launcher
    starts the program anyway, which loads its checkpoint: the job went past that error, and
    the NCCL connect failure that ended it is the cause."""
    e = engine()
    feed(e, ["conda: error: argument COMMAND: invalid choice: 'activate' (choose from 'clean',"
             " 'compare', 'config')",
             "[INFO] [launch.py:253:main] process 3011783 spawned with command: [...]",
             "[AsyncCkpt] Loaded checkpoint from /save/0325-143205/",
             "gpu1-47:1877591:1878139 [2] misc/socket.cc:484 NCCL WARN socketStartConnect:"
             " Connect to 10.120.30.207<47769> failed : Software caused connection abort",
             "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691,"
             " unhandled system error, NCCL version 2.19.3"], at=0.0)  # fmt: skip
    found = e.final_finding()
    assert found is not None and found.category == "NETWORK", found
    without_load = engine()
    feed(without_load, ["conda: error: argument COMMAND: invalid choice: 'activate'"], at=0.0)
    found = without_load.final_finding()
    assert found is not None and found.category == "APPLICATION"


def test_nan_losses_in_an_epochs_batch_reports_end_the_run() -> None:
    """PaddlePaddle's "Train epoch: 0, batch: 790/34799, loss: nan": a progress report (an
    epoch's batch), whose loss stays NaN."""
    e = engine()
    report = "Train epoch: 0, batch: {}/34799, loss: {}, train time: 4.3s"
    lines = [report.format(b, 6.7) for b in (750, 760)]
    lines += [report.format(b, "nan") for b in (790, 800, 810)]
    found = feed(e, lines, at=0.0)
    assert [(f.kind, f.category) for f in found] == [(Observed.CRASH, "APPLICATION")]


# --- round 24: heldout23's misses as classes --------------------------------------------------


def _silent_in_a_save(save_s: float, silent: float, saves: int = 3) -> list[Finding]:
    """Iterations every 1.5 s and a save every 10; each save but the last took `save_s`; the
    last has been silent for `silent` seconds."""
    e = engine()
    t = 0.0
    for i in range(1, saves + 1):
        for step in range(i * 10 - 9, i * 10 + 1):
            t += 1.5
            feed(e, [progress(step)], at=t)
        feed(e, [f"saving checkpoint at iteration {i * 10} to /ckpt"], at=t)
        if i < saves:
            t += save_s
            feed(e, [f"  successfully saved checkpoint at iteration {i * 10} to /ckpt"], at=t)
    found = e.silence(silent, t + silent)
    return [found] if found is not None else []


def test_a_save_far_slower_than_the_jobs_own_saves_is_stuck() -> None:
    """Two saves took a second each; the third has been silent for 150 s, while iterations came
    every 1.5 s: stuck in the save (the job's own saves bound the wait, never above the
    checkpoint allowance, never below the hang timeout). A job whose saves take minutes gets
    minutes."""
    stuck = _silent_in_a_save(save_s=1.0, silent=150.0)
    assert [f.kind for f in stuck] == [Observed.HANG] and "checkpointing" in stuck[0].summary
    assert _silent_in_a_save(save_s=1.0, silent=100.0) == []  # within the hang timeout
    assert _silent_in_a_save(save_s=200.0, silent=300.0) == []  # slow saves: a slow save is no hang


def test_an_exception_that_ended_a_thread_after_training_ended_is_no_failure() -> None:
    """After "End training....", tensorboardX's writer threads die on a closed handle: those
    exceptions ended threads, not the process, and training had ended."""
    e = engine()
    feed(e, [progress(10), progress(11), "End training....",
             "Exception in thread Thread-1:", "Traceback (most recent call last):",
             '  File "/usr/lib/python3.10/threading.py", line 1016, in _bootstrap_inner',
             "OSError: handle is closed"], at=0.0)  # fmt: skip
    assert e.final_finding() is None


# --- round 29: heldout28's misses as classes --------------------------------------------------


def test_one_measured_save_bounds_the_wait_for_the_next() -> None:
    """The job's one save so far took a second; the second has been silent for 150 s: stuck, as
    after two such saves. One that took 30 s gives the next ten minutes (the checkpoint
    allowance), never less than the hang timeout."""
    stuck = _silent_in_a_save(save_s=1.0, silent=150.0, saves=2)
    assert [f.kind for f in stuck] == [Observed.HANG] and "checkpointing" in stuck[0].summary
    assert _silent_in_a_save(save_s=1.0, silent=100.0, saves=2) == []
    assert _silent_in_a_save(save_s=30.0, silent=500.0, saves=2) == []
