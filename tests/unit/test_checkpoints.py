"""Checkpoint saves and loads from the frameworks people train with, counted exactly.

The logs are real runs (tests/corpus/frameworks/, versions in their labels and in
tests/corpus/tools/frameworks/README.md); the forms were learned from each framework's source
(tests/corpus/frameworks/FORMATS.md).
"""

# ruff: noqa: E501 - the tables hold whole log lines, which are long

from __future__ import annotations

import json
from typing import Any

import pytest

from analysis.analyzer import AnalyzerContext
from analysis.checkpoints import CheckpointMatcher, Kind
from analysis.engine import LogEngine
from models.recovery import RecoveryConfig
from tests.corpus_eval import CORPUS
from worker.checklog import run_check_log

pytestmark = pytest.mark.unit

FRAMEWORKS = CORPUS / "frameworks"
LABELS: dict[str, dict[str, Any]] = json.loads((FRAMEWORKS / "labels.json").read_text())
# At its default verbosity the Hugging Face Trainer prints nothing about a save but the tqdm bar
# "Writing model shards: 100%": ajr reads that bar, so it sees the saves the label lists as not
# printed (the run's own counts: 1 saved and 1 interrupted, 3, 6).
SHARD_BAR_ONLY = {
    "hf_trainer_interrupted_save_default.log": ([None], 1),
    "hf_trainer_resume_default.log": ([None, None, None], 0),
    "hf_trainer_saves_default.log": ([None] * 6, 0),
}


@pytest.mark.parametrize("name", sorted(LABELS))
def test_saves_loads_and_interrupted_saves_are_counted_exactly(name: str) -> None:
    label = LABELS[name]
    report, _ = run_check_log(str(FRAMEWORKS / name), RecoveryConfig())
    saves, interrupted = SHARD_BAR_ONLY.get(name, (label["saves"], label["interrupted_saves"]))
    assert [c.step for c in report.checkpoint_saves] == saves
    assert report.interrupted_saves == interrupted
    assert [c.step for c in report.checkpoint_loads] == label["loads"]
    if label["loads"] and label.get("first_iteration_after_load") is not None:
        assert report.first_step_at is not None  # the restart proved itself with a step


# (line, kind or None, step): each framework's own words, and look-alikes that are no save
FORMS: list[tuple[str, Kind | None, int | None]] = [
    # Megatron-LM
    ("[2026-11-23 00:22:45] saving checkpoint at iteration      10 to /ckpt in torch_dist format", Kind.SAVE_START, 10),
    ("  [2026-11-23 00:23:03] successfully saved checkpoint from iteration      10 to /ckpt [ t 1/1, p 1/1 ]", Kind.SAVE_DONE, 10),
    ("  successfully saved checkpoint at iteration       1 to /fsx/checkpoints", Kind.SAVE_DONE, 1),
    ("  [2026-11-23 00:23:03] scheduled an async checkpoint save at iteration      20 to /ckpt", Kind.SAVE_START, 20),
    ("  [2026-11-23] successfully saved local checkpoint from iteration       6", Kind.SAVE_DONE, 6),
    ("INFO:root:Successfully saved local checkpoint from iteration 6", None, None),  # NVRx's echo
    (" loading distributed checkpoint from /ckpt at iteration 20", Kind.LOAD_START, 20),
    ("  successfully loaded checkpoint from /ckpt [ t 1/1, p 1/1 ] at iteration 20", Kind.LOAD_DONE, 20),
    ("saving dataloader checkpoint at iteration 20 to /ckpt", None, None),
    ("successfully deleted checkpoint from iteration 10", None, None),
    # NeMo
    ("[NeMo I 2024-01-01 12:00:00 nemo_logging:393] Async checkpoint save for step 50 (/ckpt/step=50.ckpt) finalized successfully.", Kind.SAVE_DONE, 50),
    ("[NeMo I 2024-01-01 12:00:00 nemo_logging:393] Scheduled async checkpoint save for /ckpt/step=50.ckpt", Kind.SAVE_START, 50),
    ("Global Checkpoint Save : Rank: 0 : Iteration: 99 : Start time: 12.3s : Save duration: 4.5s", Kind.SAVE_DONE, 99),
    # Hugging Face Trainer and Accelerate
    ("[INFO|trainer.py:4141] 2026-11-22 >> Saving model checkpoint to out/checkpoint-30", Kind.SAVE_START, 30),
    ("Writing model shards: 100%|##########| 1/1 [00:00<00:00, 12.1it/s]", Kind.SAVE_START, None),
    ("  Resuming training from checkpoint with epoch 0 and global step 20", Kind.LOAD_DONE, 20),
    ("  Continuing training from global step 20", Kind.LOAD_DONE, 20),
    ("Configuration saved in out/checkpoint-30/config.json", None, None),
    ("Deleting older checkpoint [out/checkpoint-10] due to args.save_total_limit", None, None),
    ("2026-11-22 - INFO - accelerate.accelerator - Saving current state to ckpt/step_20", Kind.SAVE_START, 20),
    ("2026-11-22 - INFO - accelerate.checkpointing - Random states saved in ckpt/step_20/random_states_0.pkl", Kind.SAVE_DONE, 20),
    ("2026-11-22 - INFO - accelerate.accelerator - Loading states from ckpt/step_20", Kind.LOAD_DONE, 20),
    # PyTorch Lightning
    ("Epoch 0, global step 20: 'train_loss' reached 9.14000 (best 9.14000), saving model to '/x/epoch=0-step=20.ckpt' as top 1", Kind.SAVE_START, 20),
    ("Epoch 0, global step 30: 'train_loss' was not in top 1", None, None),
    ("Restoring states from the checkpoint path at /x/epoch=0-step=20.ckpt", Kind.LOAD_START, 20),
    ("Restored all states from the checkpoint at /x/epoch=0-step=20.ckpt", Kind.LOAD_DONE, 20),
    # DeepSpeed
    ("[2026-11-23 00:01:36,891] [INFO] [logging.py:123:log_dist] [Rank 0] [Torch] Checkpoint global_step20 is about to be saved!", Kind.SAVE_START, 20),
    ("[Rank 0] Saving model checkpoint: /tmp/ds/global_step20/mp_rank_00_model_states.pt", Kind.SAVE_START, 20),
    ("[Torch] End Load checkpoint from /tmp/ds/global_step40/mp_rank_00_model_states.pt...", Kind.LOAD_DONE, 40),
    # torch.distributed.checkpoint's async process, torchtitan
    ("[0] 2026-11-23 - root - INFO - Received async checkpoint request with id=/ckpt/step_10", Kind.SAVE_START, 10),
    ("[0] 2026-11-23 - root - INFO - Completed checkpoint save request for checkpoint_id=_CheckpointRequestIdentifier(checkpoint_id='/ckpt/step_10', uuid='x')", Kind.SAVE_DONE, 10),
    ("[titan] 2026-11-23 - root - INFO - Saving the checkpoint.", Kind.SAVE_START, None),
    ("[titan] 2026-11-23 - root - INFO - Finished saving the checkpoint in 0.52 seconds.", Kind.SAVE_DONE, None),
    ("[titan] 2026-11-23 - root - INFO - Saving a full checkpoint at last step, step 45.", Kind.SAVE_START, 45),
    ("[titan] 2026-11-23 - root - INFO - Loading the checkpoint from /ckpt/step-20.", Kind.LOAD_DONE, 20),
    ("[titan] 2026-11-23 - root - INFO - [GC] GC collection invoked by checkpointer. took 0.00 seconds", None, None),
    # the seeds' defaults and plain words
    ("SAVE_CHECKPOINT: iteration: 500, ckpt saving takes 12.5 seconds", Kind.SAVE_DONE, 500),
    ("saving checkpoint", Kind.SAVE_START, None),
    ("Checkpoint saved to /ckpt/iter_000300", Kind.SAVE_DONE, 300),
    # the step between the two words (the save's start line, before it, opened the save)
    ("2026-11-25 06:50:20,183 INFO trainer.checkpoint [rank0]: checkpoint step 400 saved in 0.04s", Kind.SAVE_DONE, 400),
    ("checkpoint for iteration 1200 saved to /ckpt", Kind.SAVE_DONE, 1200),
    # MMEngine's runner, once it resumed from its checkpoint
    ("0: 11/25 08:19:21 - mmengine - INFO - resumed epoch: 3, iter: 1200", Kind.LOAD_DONE, 1200),
    # a program's own word for the checkpoint it loaded (a Slurm requeue's next attempt)
    ("0: [2026-11-24 11:58:37] resumed from /runs/ckpt/step_0000200.pt at step 200", Kind.LOAD_DONE, 200),
    ("__main__:<module>:106 - resumed from checkpoint step=600 path=/ckpt/ckpt_000600.npz", Kind.LOAD_DONE, 600),
    ("Resuming from the latest checkpoint", Kind.LOAD_DONE, None),
    # the path before the step: both are read (the path is no reason to stop looking)
    ("[INFO] [Rank 0] [n3] resumed from checkpoint /runs/ck/step_1479.pt step=1479", Kind.LOAD_DONE, 1479),
    ("resumed from checkpoint step=600 path=/ckpt/latest", Kind.LOAD_DONE, 600),
    ("[async_checkpoint_engine.py:56:load] [AsyncCkpt] Loaded checkpoint from /save/0325-143205/", Kind.LOAD_DONE, None),
    ("=> loaded checkpoint 'runs/ckpt_step_300.pth.tar' (epoch 3)", Kind.LOAD_DONE, 300),
    # a load that states what it took is done (round 25: a requeued attempt's first words)
    ("0: Loading the checkpoint at step 800 from /work/runs/c04/ck/step-800.pt took 0.05s", Kind.LOAD_DONE, 800),
    ("Loading checkpoint shards: 100%|##########| 2/2 [00:05<00:00,  2.61s/it]", None, None),
    # YOLOX's trainer (round 24): printed before the save, whose end is never printed
    ("2021-07-30 02:15:56.815 | INFO     | yolox.core.trainer:save_ckpt:311 - Save weights to ./data/yolox_output/title_coco", Kind.SAVE_START, None),
    ("training_epoch_loop.py:224: You're resuming from a checkpoint that ended before the epoch ended", None, None),
]  # fmt: skip


@pytest.mark.parametrize(("line", "kind", "step"), FORMS)
def test_each_framework_form(line: str, kind: Kind | None, step: int | None) -> None:
    event = CheckpointMatcher().match(line)
    assert (event.kind if event else None, event.iteration if event else None) == (kind, step)


def progress(i: int) -> str:
    return f" 22%|##2       | {i}/45 [00:00<00:00, 42.84it/s]"  # HF Trainer's tqdm bar


def test_a_save_that_only_says_it_began_counts_once_training_goes_on() -> None:
    engine = LogEngine(AnalyzerContext())
    engine.feed(progress(10), 1.0)
    engine.feed("Saving model checkpoint to out/checkpoint-10", 2.0)
    assert (engine.checkpoints, engine.phase) == (0, "checkpointing")
    engine.feed("Writing model shards: 100%|#| 1/1", 3.0)  # the same save
    engine.feed(progress(11), 4.0)
    assert engine.checkpoints == 1 and engine.phase == "training"
    engine.feed("Saving model checkpoint to out/checkpoint-20", 5.0)
    engine.feed("/job.sh: line 6:  9353 Killed                  python train.py", 6.0)
    engine.end_of_attempt(failed=True, at=7.0)
    assert (engine.checkpoints, engine.interrupted_saves) == (1, 1)  # died in it: no checkpoint


def test_a_save_whose_end_is_printed_waits_for_it() -> None:
    engine = LogEngine(AnalyzerContext())
    engine.feed(" iteration       10/     100 | lm loss: 2.0", 1.0)
    engine.feed("scheduled an async checkpoint save at iteration      10 to /ckpt", 2.0)
    engine.feed(" iteration       11/     100 | lm loss: 2.0", 3.0)  # async: training goes on
    assert engine.checkpoints == 0
    engine.feed("successfully saved checkpoint from iteration      10 to /ckpt", 4.0)
    assert engine.checkpoints == 1 and engine.saves[-1] == (10, 4.0)


def test_the_first_step_after_a_load_is_recorded() -> None:
    engine = LogEngine(AnalyzerContext())
    engine.feed(" loading distributed checkpoint from /ckpt at iteration 20", 10.0)
    assert engine.phase == "loading"
    engine.feed(
        "  successfully loaded checkpoint from /ckpt [ t 1/1, p 1/1 ] at iteration 20", 50.0
    )
    engine.feed(" iteration       21/     100 | lm loss: 2.0", 60.0)
    assert list(engine.loads) == [(20, 50.0)] and engine.first_progress_at == 60.0


def test_the_telemetry_librarys_load_span_is_a_load() -> None:
    engine = LogEngine(AnalyzerContext())
    prefix = "x - training_telemetry_rank0 - INFO - "
    engine.feed(prefix + "[type=start | name=checkpoint_load | count=2]", 10.0)
    assert engine.phase == "loading"
    engine.feed(
        prefix + "[type=complete | name=checkpoint_load | "
        "stop_event.metrics.current_iteration=200 | count=3]",
        40.0,
    )
    assert list(engine.loads) == [(200, 40.0)] and engine.milestones().loaded_step == 200


def test_every_ranks_line_of_one_load_is_one_load_and_a_later_load_is_another() -> None:
    """Each rank prints the load: one load. The same step, or a step no line names, loaded
    again minutes later (a restart that resumed from it) is another load."""
    engine = LogEngine(AnalyzerContext())
    for rank, at in ((0, 10.0), (1, 10.5)):
        engine.feed(f"[Rank {rank}] resumed from the latest checkpoint", at)
    assert len(engine.loads) == 1
    engine.feed("[Rank 0] resumed from the latest checkpoint", 190.0)
    engine.feed("[Rank 0] resumed from checkpoint /ck/step_1001.pt step=1001", 200.0)
    engine.feed("[Rank 1] resumed from checkpoint /ck/step_1001.pt step=1001", 200.2)
    engine.feed("[Rank 0] resumed from checkpoint /ck/step_1001.pt step=1001", 400.0)
    assert [step for step, _ in engine.loads] == [None, None, 1001, 1001]
