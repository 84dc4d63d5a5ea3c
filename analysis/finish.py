"""Done means done: has training reached its final iteration? Pure; fed by the log engine.

A job that trained to its last step and then fails in teardown (a NCCL error while destroying
the process group, a hang at exit, an upload that fails) must not be requeued: the requeued
attempt would load the final checkpoint and do nothing, or worse, train again. Only explicit
ends count, because a false "done" would leave a failed job unrecovered:

- Megatron/NeMo: `iteration      100/     100 |` (the step equals train-iters);
- the frameworks' own end-of-training lines: Hugging Face "Training completed", Lightning
  "`Trainer.fit` stopped", Megatron "[after training is done]", the DeepSpeed launcher's
  "Process N exits successfully", "training finished/complete", "Finished training", Caffe's
  solver "Optimization Done.", "End training....";
- the training telemetry library: the `training_loop` span stopped without an error in it;
- MLPerf's logger: `:::MLLOG {... "key": "run_stop", ... "status": "success"}` (the benchmark
  reached its target; "aborted" is no end).

Not counted (measured on tests/corpus): a tqdm bar at 100% (per-epoch, loading and evaluation
bars reach it too), Hugging Face's `'train_runtime'` (newer versions log it with every step),
"if further training is done" (a Lightning warning).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analysis import telemetry
from analysis.lines import split_prefix

_MEGATRON = re.compile(r"\biteration\s+(\d+)\s*/\s*(\d+)\s*\|")
_END = re.compile(
    r"Training completed|`Trainer\.fit` stopped|\[after training is done\]"
    r"|Process \d+ exits successfully|\bFinished training\b|\bOptimization Done\."
    r"|\b[Tt]raining (?:finished|completed?)\b(?! (?:for|of) (?:epoch|step))"
    # "End training....", "End of training" (not an epoch's or a step's end)
    r"|\bEnd (?:of )?training\b(?![ :]*(?:epoch|step|iter|loop|batch|phase))"
)
# Every _END form holds one of these: the cheap test before the pattern runs.
_DONE_HINTS = ("raining", "exits successfully", "Trainer.fit", "Optimization Done")
# Every end this watch knows holds one of these: the engine's prefilter lets such lines through
# (analysis/detectors.py), else the watch would never see them. Narrower than _DONE_HINTS, which
# runs only on lines already let through: "raining" would let every training line through.
TOKENS = (
    "raining complete",  # also "Training completed"
    "raining finished",
    "Finished training",
    "exits successfully",
    "Trainer.fit",
    "after training is done",
    "run_stop",  # MLPerf
    "training_loop",  # the telemetry library's record of the loop's span stopping
    "Optimization Done",  # Caffe's solver
    "End training",
    "End of training",
)
# A launcher starting the program (torchrun's own log lines, from torch/distributed/run.py, and
# its OMP_NUM_THREADS banner; the DeepSpeed launcher's WORLD INFO DICT): once training has
# finished, another launch writing to the same file (`nohup ... >> out`), not the finished one.
_LAUNCH = re.compile(
    r"torch/distributed/run\.py:\d+\]|Setting OMP_NUM_THREADS environment variable for each"
    r"|\bWORLD INFO DICT:"
)
_MLPERF_STOP = re.compile(r'"key": "run_stop".*"status": "success"')


@dataclass
class FinishWatch:
    """Follows one attempt's log for the end of training. State: one flag (exported)."""

    telemetry_error: bool = False  # an error record in the training loop: no clean end

    def feed(self, raw: str) -> bool:
        """Whether this line says training reached its final iteration."""
        text = split_prefix(raw)[2]
        if "iteration" in text and "/" in text:
            m = _MEGATRON.search(text)
            if m is not None:
                return int(m[2]) > 0 and int(m[1]) == int(m[2])
        if telemetry.MARKER in text:
            return self._telemetry(text)
        if "run_stop" in text:
            return _MLPERF_STOP.search(text) is not None
        if any(hint in text for hint in _DONE_HINTS):
            return _END.search(text) is not None
        return False

    def _telemetry(self, text: str) -> bool:
        record = telemetry.parse_record(text)
        if record is None or record.name != "training_loop":
            return False
        if record.type == "error":
            self.telemetry_error = True
            return False
        return record.type in ("stop", "complete") and not self.telemetry_error


def is_launch(text: str) -> bool:
    """`text` is a launcher's line as it starts the program (see `_LAUNCH`). Asked only of a
    line that ends a long gap after training finished: no cheap test before the pattern."""
    return _LAUNCH.search(text) is not None
