"""Log intelligence live on the real cluster: corpus logs replayed as Slurm jobs, and checkpoints.

Each replayed log (tests/corpus/tools/replay.py) is a real Slurm job that writes the log under
the seed's log name with its own timing (compressed 10x), its hosts renamed to the nodes Slurm
gave it, then behaves as the original process did: exits with its code, stays silent (a hang) or
keeps printing (a straggler). ajr's live decision on the first attempt (the anomaly, requeue or
stop, the nodes excluded) must equal the log's label. Timeouts are scaled like the timing.
"""

from __future__ import annotations

import asyncio
import functools
import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import pytest

from models.recovery import AttemptRecord, Outcome
from models.slurm import JobState
from tests.corpus_eval import CORPUS, labels
from tests.integration.recovery_harness import AjrUnderTest, seed_script
from workflows.job_recovery import JobRecoveryWorkflow

pytestmark = pytest.mark.integration

REPLAY = CORPUS / "tools" / "replay.py"
SPEED = 10.0  # the corpus's time, compressed
# ajr's allowances divided like the logs' time (120 s -> 12 s), so decisions keep their order; a
# loaded CI machine may delay a replayed line by a few seconds, never by the hang timeout.
SCALED = {
    "hang_timeout": 12.0,
    "setup_hang_timeout": 90.0,
    "checkpoint_hang_timeout": 60.0,
    "eval_hang_timeout": 90.0,
    "crash_confirm": 3.0,
    "straggler_checkpoint_wait": 9.0,
    "suspect_min_jobs": 1000,  # each job's exclusions are its own log's, not its neighbours'
}


@dataclass(frozen=True)
class Replayed:
    name: str  # a tuning-set log
    end: str  # what the original process did after its last line: exit:N | silent | run
    split: str = "tune"

    @property
    def label(self) -> dict[str, Any]:
        return _labels(self.split)[self.name]


_labels = functools.cache(labels)  # each split's labels.json read once, not per access


# At least two logs per class, real runs and public excerpts, one, two and four nodes.
REPLAYED = [
    Replayed("gpu_ecc_uncorrectable.log", "exit:1"),
    Replayed("akash-network_support_209.log", "exit:1"),  # culprit: the node that printed it
    Replayed("xid79_fallen_off_the_bus.log", "exit:1"),
    Replayed("node_fail_srun_1.log", "exit:1"),  # bench/faultjob on this cluster
    Replayed("cbio-cluster_188.log", "exit:1"),
    Replayed("snap-slurm_78.log", "exit:1"),  # two nodes, the second one the culprit
    Replayed("nccl_1405.log", "exit:1"),
    Replayed("nccl-tests_166.log", "exit:1"),
    Replayed("horovod_504.log", "exit:1"),
    Replayed("storage_eio_srun_1.log", "exit:1"),
    Replayed("storage_enospc_torchrun_1.log", "exit:1"),
    Replayed("exit17_srun_1.log", "exit:17"),
    Replayed("telemetry_runtime_error.log", "exit:1"),
    Replayed("deep_learning_2023_batchsize32_0.log", "exit:1"),
    Replayed("slurm_time_limit_srun.log", "exit:1"),
    Replayed("slurm_preemption.log", "exit:1"),
    Replayed("segfault_srun_1.log", "exit:1"),
    Replayed("dataloader_killed_srun_1.log", "exit:1"),
    Replayed("collective_hang_srun_1.log", "silent"),
    Replayed("returnn_1486.log", "silent"),
    Replayed("lightning_progress_then_watchdog.log", "silent"),
    Replayed("straggler_srun_1.log", "run"),
    Replayed("straggler_nvrx_stragglerid_synthetic.log", "run"),
    Replayed("telemetry_throughput_drop.log", "run"),
    Replayed("seed003_megatron_checkpoint.log", "exit:0"),
    Replayed("ginex_6.log", "exit:0"),
    Replayed("nanotron_healthy_loss_spike.log", "exit:0"),
    Replayed("ai-science-training-series_kharelb_hw6.log", "exit:0"),
    # round 13's classes, live: a SIGTERM whose grace period training spent saving (torchrun
    # then SIGKILLed: 137), and a NaN stop printed under two rank prefixes (torchrun --tee)
    Replayed("h12b_fsdp_sigterm_deferred_then_sigkill.log", "exit:137", "heldout12"),
    Replayed("h12b_fsdp_sgd_grad_explosion_nan.log", "exit:1", "heldout12"),
    # round 16's, live: a CSV metrics logger's rows, whose tokens/s fall for good (a straggler),
    # and a caught ENOSPC the program says it went on from, in a run that then finished
    Replayed("h15b_csv-rank1-data-fetch-straggler.log", "run", "heldout15"),
    Replayed("h15b_srun-profiler-trace-enospc-healthy.log", "exit:0", "heldout15"),
    Replayed("h16b_deepspeed-rank1-cfs-quota-samples-drop.log", "run", "heldout16"),
    Replayed("h16a_skyrl-k8s-pod-termination-placement-group.log", "exit:1", "heldout16"),
    # round 18's: a per-rank table whose columns carry their unit (fwd_ms) names the slow rank,
    # and a run whose stores reset as its ranks exit after "[after training is done]" finished
    Replayed("h17b_torchrun-table-rank1-noisy-neighbour-straggler.log", "run", "heldout17"),
    Replayed(
        "h17c_megatron-deepspeed-tcpstore-reset-after-clean-finish.log", "exit:0", "heldout17"
    ),
]


def replay_script(replayed: Replayed) -> tuple[str, int]:
    log_nodes = list(replayed.label.get("job_nodes") or [])
    nodes = max(1, min(len(log_nodes), 3))  # one node always stays free to exclude a culprit
    command = [
        sys.executable, str(REPLAY), str(CORPUS / replayed.split / replayed.name),
        "--speed", str(SPEED), "--max-gap", "1", "--end", replayed.end,
        "--job-nodes", ",".join(log_nodes[:nodes]),
    ]  # fmt: skip
    step = " ".join(f"'{part}'" for part in command)  # corpus names and paths hold no quote
    script = seed_script(
        comment='{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 1}}',
        # RUNNING for two discovery polls (2 s apart) before the log begins: a short log's job
        # could otherwise start and end between two polls of a loaded machine, and a job never
        # seen PENDING or RUNNING is never enrolled (README, Status and limits).
        before="sleep 4",
        crash_line="",
        after=step,
        srun_args="-N1 -n1",
        header=f"#SBATCH -N {nodes}",
    ).replace("srun -l -u", "srun -u")  # the corpus lines carry their own rank prefixes
    return script, nodes


def live_anomaly(record: AttemptRecord) -> str:
    """The watcher's observation in the label's terms: an end the log explained is a CRASH."""
    if record.observed == "EXITED":
        return "CRASH" if record.category else "NONE"
    return record.observed


async def started(ajr: AjrUnderTest, job_id: int, timeout: float) -> None:
    """Wait until Slurm starts the job: some two dozen replays share four nodes, so a job may
    queue for minutes behind the others on a loaded machine; its decision is timed from here."""
    await ajr.wait_for_job(
        job_id, lambda job: job.state is not JobState.PENDING, timeout, "started", poll_s=2.0
    )


async def first_decision(ajr: AjrUnderTest, job_id: int, timeout: float) -> AttemptRecord:
    deadline = asyncio.get_running_loop().time() + timeout
    enrolled = False
    while True:
        try:
            records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
            enrolled = True
        except Exception:
            records = []  # not enrolled yet
        if records and records[0].action not in ("", "watch"):
            return records[0]
        if asyncio.get_running_loop().time() > deadline:
            what = "no decision" if enrolled else "never enrolled"
            raise AssertionError(f"job {job_id}: {what} within {timeout}s: {records}")
        await asyncio.sleep(0.5)


async def test_replayed_corpus_logs_get_their_labelled_decision(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    assert len(REPLAYED) >= 20
    classes = {(r.label.get("category") or r.label["anomaly"]) for r in REPLAYED}
    assert classes >= {"GPU", "NODE", "NETWORK", "STORAGE", "APPLICATION", "SCHEDULER",
                       "UNKNOWN", "HANG", "STRAGGLER", "NONE"}  # fmt: skip
    async with start_ajr(sqlite_url, **SCALED) as ajr:
        jobs: dict[str, int] = {}
        for replayed in REPLAYED:
            script, _ = replay_script(replayed)
            jobs[replayed.name] = ajr.submit(script, name=replayed.name.removesuffix(".log"))

        async def decided(replayed: Replayed) -> tuple[Replayed, AttemptRecord | None]:
            job_id = jobs[replayed.name]
            await started(ajr, job_id, timeout=400)
            if replayed.label["anomaly"] == "NONE":
                outcome = await ajr.outcome(job_id, timeout=240)
                records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
                assert outcome.outcome is Outcome.COMPLETED, (replayed.name, records)
                return replayed, records[0] if records else None
            record = await first_decision(ajr, job_id, timeout=240)
            subprocess.run(["scancel", str(job_id)], env=slurm_cluster.env, check=False)
            return replayed, record

        results = await asyncio.gather(*(decided(r) for r in REPLAYED))

        wrong: list[str] = []
        for replayed, record in results:
            label = replayed.label
            if record is None:  # a healthy job that completed: nothing to decide
                continue
            allocated = list(record.nodes)
            rename = dict(zip(label.get("job_nodes") or [], allocated, strict=False))
            culprits = sorted(rename.get(n, n) for n in label.get("culprit_nodes") or [])
            if not culprits and label.get("category") == "GPU" and len(allocated) == 1:
                culprits = allocated  # a GPU fault on a one-node job: that node, named or not
            expected = (
                label["anomaly"],
                label.get("category") if label["anomaly"] == "CRASH" else None,
                "requeue" if label["requeue"] else ("complete" if label["requeue"] is None else
                                                    "stop-or-cancel"),
                culprits,
            )  # fmt: skip
            action = record.action if record.action in ("requeue", "complete") else "stop-or-cancel"
            got = (
                live_anomaly(record),
                record.category or None if live_anomaly(record) == "CRASH" else None,
                action,
                sorted(record.excluded_nodes),
            )
            if got != expected:
                wrong.append(f"{replayed.name}: expected {expected}, got {got}: {record.reasons}")
        assert not wrong, "\n".join(wrong)


async def test_a_job_that_saves_hf_style_and_crashes_is_no_crashloop(
    start_ajr, slurm_cluster, workdir, sqlite_url
) -> None:
    """Hugging Face Trainer's own lines: a save each attempt (inferred complete when training
    goes on), a resume from the last checkpoint, then a crash. Three crashes in a row with a
    checkpoint each are progress: the job goes on to its requeue limit, not a crashloop stop."""
    trainer = workdir / "hf_trainer.sh"
    trainer.write_text(
        """#!/bin/bash
step=$((SLURM_RESTART_COUNT * 10))
if [ "$SLURM_RESTART_COUNT" -gt 0 ]; then
  echo "[transformers] Loading model from out/checkpoint-$step."
  echo "[transformers]   Resuming training from checkpoint with epoch 0 and global step $step"
fi
for i in 1 2 3; do echo " 22%|##2       | $((step + i))/45 [00:00<00:00, 42.84it/s]"; done
echo "[transformers] Saving model checkpoint to out/checkpoint-$((step + 10))"
echo " 24%|##4       | $((step + 11))/45 [00:01<00:00, 41.02it/s]"
echo "Segmentation fault (core dumped)"
exit 1
"""
    )
    script = seed_script(
        comment='{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 3}}',
        before="true",
        crash_line="",
        after=f"bash {trainer}",
    )
    async with start_ajr(sqlite_url, crashloop_threshold=3, **SCALED) as ajr:
        job_id = ajr.submit(script, name="hf-saves")
        outcome = await ajr.outcome(job_id, timeout=180)
        records = await ajr.handle(job_id).query(JobRecoveryWorkflow.attempts)
        assert outcome.outcome is Outcome.MAX_REQUEUES, (outcome, records)
        assert [r.checkpoints for r in records] == [1, 1, 1, 1]
        assert [r.last_save_step for r in records] == [10, 20, 30, 40]
        assert [r.loaded_step for r in records] == [None, 10, 20, 30]
        assert all(r.first_step_at >= r.loaded_at > 0 for r in records[1:])
        assert records[0].first_step_at > 0
        assert (await ajr.job(job_id)).restart_count == 3
        assert json.dumps([r.reasons for r in records]).count("crashloop") == 0
