"""Done means done: has training reached its final iteration? Pure; fed by the log engine.

A job that trained to its last step and then fails in teardown (a NCCL error while destroying
the process group, a hang at exit, an upload that fails) must not be requeued: the requeued
attempt would load the final checkpoint and do nothing, or worse, train again. Forms:

- Megatron/NeMo: `iteration      100/     100 |` (the step equals train-iters);
- a Hugging Face / Lightning tqdm training bar at its total (`100%|#####| 45/45 [`), where the
  total is the one the job's first undescribed bar showed (an evaluation bar has another
  total, a datasets `Map:` bar has a description);
- the frameworks' own end-of-training lines (`TRAINING_DONE`: "Training completed",
  `'train_runtime'`, "`Trainer.fit` stopped", "[after training is done]", ...);
- the training telemetry library: the `training_loop` span stopped without an error in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analysis import telemetry
from analysis.checkpoints import TRAINING_DONE
from analysis.lines import split_prefix

_MEGATRON = re.compile(r"\biteration\s+(\d+)\s*/\s*(\d+)\s*\|")
# A tqdm bar without a description: nothing but the percentage before the first "|".
_BAR = re.compile(r"^\s*(\d{1,3})%\|[^|]*\|\s*(\d+)/(\d+)\s*\[")
# Every TRAINING_DONE form holds one of these: the cheap test before the pattern runs.
_DONE_HINTS = ("raining", "train_runtime", "exits successfully", "Trainer.fit")


@dataclass
class FinishWatch:
    """Follows one attempt's log for the end of training. State: a few ints (exported)."""

    bar_total: int = 0  # the training bar's total, learned from its first undescribed bar
    telemetry_error: bool = False  # an error record in the training loop: no clean end

    def feed(self, raw: str) -> bool:
        """Whether this line says training reached its final iteration."""
        text = split_prefix(raw)[2]
        if "/" in text:
            if "iteration" in text:
                m = _MEGATRON.search(text)
                if m is not None:
                    return int(m[2]) > 0 and int(m[1]) == int(m[2])
            if "%|" in text:
                return self._bar(text.rsplit("\r", 1)[-1])
        if telemetry.MARKER in text:
            return self._telemetry(text)
        if any(hint in text for hint in _DONE_HINTS):
            return TRAINING_DONE.search(text) is not None
        return False

    def _bar(self, text: str) -> bool:
        m = _BAR.match(text)
        if m is None:
            return False
        done, total = int(m[2]), int(m[3])
        if total <= 0:
            return False
        if not self.bar_total:
            self.bar_total = total
        return total == self.bar_total and done == total

    def _telemetry(self, text: str) -> bool:
        record = telemetry.parse_record(text)
        if record is None or record.name != "training_loop":
            return False
        if record.type == "error":
            self.telemetry_error = True
            return False
        return record.type in ("stop", "complete") and not self.telemetry_error
