"""Checkpoint saves and loads in the words of the frameworks people train with.

Learned from each framework's own source and checked on real runs (tests/corpus/frameworks/:
FORMATS.md catalogs every message with its source line; the labels give exact counts):
Megatron-LM and NVRx local checkpoints, NeMo, Hugging Face Trainer and Accelerate, PyTorch
Lightning, DeepSpeed, torch.distributed.checkpoint's async process, torchtitan, the seeds'
default patterns and a site's own. The telemetry library's spans are read in telemetry.py.

A save is one event however many lines print it. Where the framework prints that a save ended
(Megatron, NeMo, torchtitan, Accelerate, async DCP), that line counts it; where it prints only
that a save begins (Hugging Face, Lightning, DeepSpeed), the save counts once training goes on
after it (`infer`): a save the job died in is no checkpoint. Lines that look like saves and are
not (a tokenizer's files, rotation, "was not in top k", NVRx's echo of Megatron's line, the
dataloader's state) are nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS


class Kind(Enum):
    SAVE_START = "save_start"
    SAVE_DONE = "save_done"
    LOAD_START = "load_start"
    LOAD_DONE = "load_done"


@dataclass(frozen=True, slots=True)
class CheckpointEvent:
    kind: Kind
    iteration: int | None = None  # the step/iteration, when the line (or its path) says it
    path: str | None = None
    pattern: str = ""  # which form matched (a framework's name, a seed or site pattern)
    infer: bool = False  # a start whose end is never printed: done when training goes on
    weak: bool = False  # a line of a save already begun (a progress bar, a second file)

    @property
    def saved(self) -> bool:
        return self.kind is Kind.SAVE_DONE


_STEP_IN_PATH = re.compile(
    r"(?:checkpoint-|global_step|step[=_-]|iter_0*|iteration[=_-]?)(\d+)", re.IGNORECASE
)
_ANY_ITERATION = re.compile(r"(?:iteration|step)\D{0,5}?(\d+)", re.IGNORECASE)

# (name, guard substring, pattern, kind, infer, weak) -- tried in order, the first match wins.
_S, _D, _LS, _LD = Kind.SAVE_START, Kind.SAVE_DONE, Kind.LOAD_START, Kind.LOAD_DONE
_NOT_SAVES = re.compile(
    r"Successfully saved local checkpoint|saving dataloader checkpoint|successfully deleted "
    r"checkpoint|was not in top \d|Deleting older checkpoint|Checkpointer (?:is deleting|deleted)"
    r"|Removing unfinished|Non-persistent checkpoints scheduled for removal"
)
_FORMS: tuple[tuple[str, str, re.Pattern[str], Kind, bool, bool], ...] = tuple(
    (name, guard, re.compile(pattern), kind, infer, weak)
    for name, guard, pattern, kind, infer, weak in (
        # Megatron-LM (megatron/training/checkpointing.py), NVRx local saves through Megatron
        ("megatron", "successfully saved",
         r"successfully saved (?:local )?checkpoint (?:from|at) iteration\s+(?P<step>\d+)"
         r"(?: to (?P<path>\S+))?", _D, False, False),
        ("megatron", "saving checkpoint at",
         r"saving checkpoint at iteration\s+(?P<step>\d+) to (?P<path>\S+)", _S, False, False),
        ("megatron", "scheduled an async",
         r"scheduled an async checkpoint save at iteration\s+(?P<step>\d+)(?: to (?P<path>\S+))?",
         _S, False, False),
        ("megatron", "successfully loaded checkpoint",
         r"successfully loaded checkpoint from (?P<path>\S+) (?:\[[^\]]*\] )?at iteration "
         r"(?P<step>\d+)", _LD, False, False),
        ("megatron", "loading ",
         r"loading (?:release )?(?:distributed )?checkpoint from (?P<path>\S+)"
         r"(?: at iteration (?P<step>\d+))?", _LS, False, False),
        # NeMo (MegatronCheckpointIO, its ModelCheckpoint callbacks)
        ("nemo", "Successfully saved checkpoint",
         r"Successfully saved checkpoint from iteration\s+(?P<step>\d+) to (?P<path>\S+)", _D,
         False, False),
        ("nemo", "finalized successfully",
         r"Async checkpoint save for step (?P<step>\d+) \((?P<path>[^)]*)\) finalized", _D,
         False, False),
        ("nemo", "Global Checkpoint Save",
         r"Global Checkpoint Save : Rank: \d+ : (?:Iteration: (?P<step>\d+) : )?Start time", _D,
         False, False),
        ("nemo", "Scheduled async checkpoint",
         r"Scheduled async checkpoint save for (?P<path>\S+)", _S, False, False),
        ("nemo", "Checkpoint save for step",
         r"Checkpoint save for step (?P<step>\d+) started", _S, True, False),
        # torchtitan (components/checkpointer)
        ("torchtitan", "Finished ",
         r"Finished (?:saving|staging) the checkpoint in [\d.]+ ?s", _D, False, False),
        ("torchtitan", "Last step checkpoint completed",
         r"Last step checkpoint completed in", _D, False, False),
        ("torchtitan", " the checkpoint.", r"(?:Saving|Staging) the checkpoint\.", _S, False,
         False),
        ("torchtitan", "at last step",
         r"Saving a (?:full|model only) checkpoint.* at last step, step (?P<step>\d+)", _S, False,
         False),
        ("torchtitan", "Loading the checkpoint from",
         r"Loading the checkpoint from (?P<path>\S+?)\.?$", _LD, False, False),
        # YOLOX's trainer (`save_ckpt`): the line comes before the save, no end is printed
        ("yolox", "Save weights to", r"\bSave weights to (?P<path>\S+)", _S, True, False),
        # Hugging Face Accelerate (save_state / load_state)
        ("accelerate", "Random states saved in",
         r"Random states saved in (?P<path>\S+)/random_states_\d+\.pkl", _D, False, False),
        ("accelerate", "Saving current state to", r"Saving current state to (?P<path>\S+)", _S,
         False, False),
        ("accelerate", "Loading states from", r"Loading states from (?P<path>\S+)", _LD, False,
         False),
        # torch.distributed.checkpoint's async process executor
        ("dcp", "Completed checkpoint save request",
         r"Completed checkpoint save request for checkpoint_id=\S*?checkpoint_id='(?P<path>[^']+)'",
         _D, False, False),
        ("dcp", "Received async checkpoint request",
         r"Received async checkpoint request with id=(?P<path>\S+)", _S, False, False),
        # Hugging Face Trainer (trainer.py): no end of a save is ever printed
        ("huggingface", "Saving model checkpoint to",
         r"Saving model checkpoint to (?P<path>\S+)", _S, True, False),
        ("huggingface", "Writing model shards: 100%", r"Writing model shards: 100%", _S, True,
         True),
        ("huggingface", "Resuming training from checkpoint",
         r"Resuming training from checkpoint with epoch \d+ and global step (?P<step>\d+)", _LD,
         False, False),
        ("huggingface", "Continuing training from global step",
         r"Continuing training from global step (?P<step>\d+)", _LD, False, False),
        ("huggingface", "Loading model from", r"Loading model from (?P<path>\S+?)\.?\s*$", _LS,
         False, False),
        # PyTorch Lightning (ModelCheckpoint, the checkpoint connector)
        ("lightning", "saving model to",
         r"global step (?P<step>\d+): '[^']+' reached \S+ \(best \S+\), saving model to "
         r"'(?P<path>[^']+)'", _S, True, False),
        ("lightning", "saved checkpoint to",
         r"was raised with message: .*, saved checkpoint to (?P<path>\S+)", _D, False, False),
        ("lightning", "Restored all states from the checkpoint",
         r"Restored all states from the checkpoint at (?P<path>\S+)", _LD, False, False),
        ("lightning", "Restoring states from the checkpoint",
         r"Restoring states from the checkpoint path at (?P<path>\S+)", _LS, False, False),
        # DeepSpeed (engine.py, torch_checkpoint_engine.py)
        ("deepspeed", "is about to be saved",
         r"\[Torch\] Checkpoint (?P<path>\S+) is about to be saved", _S, True, False),
        ("deepspeed", "Saving model checkpoint:", r"Saving model checkpoint: (?P<path>\S+)", _S,
         True, True),
        ("deepspeed", "End Load checkpoint",
         r"\[Torch\] End Load checkpoint from (?P<path>\S+?)\.\.\.", _LD, False, False),
        # The seeds' defaults not covered above, and the forms most other code uses
        ("seed", "SAVE_CHECKPOINT",
         r"SAVE_CHECKPOINT: iteration:\s*(?P<step>\d+).*ckpt saving takes", _D, False, False),
        ("seed", "Saved checkpoint to", r"Saved checkpoint to (?P<path>\S+)", _D, False, False),
        # MMEngine's runner after loading its checkpoint to resume: "resumed epoch: 3, iter: 1200"
        ("mmengine", "resumed epoch",
         r"\bresumed epoch: \d+, iter: (?P<step>\d+)", _LD, False, False),
        # A program's own word for having loaded one ("resumed from checkpoint step=600
        # path=...", "resumed from /ckpt/step_0000200.pt at step 200")
        ("generic", "esum",
         # (not Lightning's advice "You're resuming from a checkpoint that ended before ...")
         r"(?<!'re )(?<!are )(?i:\bresum(?:ed|ing)) (?:training )?from (?:the )?"
         r"(?:(?:last|latest) )?(?:(?:checkpoint|ckpt)\b)?"
         # The step and the path in either order; each group is tried before it is skipped
         # (a lazy gap before an optional group would skip it).
         r"(?=(?:.{0,120}?\b(?:at step|step[ =:])\s*(?P<step>\d+))?)"
         r"(?:[^/\n]{0,60}?(?P<path>/\S+))?", _LD, False, False),
        # "[AsyncCkpt] Loaded checkpoint from /save/0325/", PyTorch examples' "=> loaded
        # checkpoint 'ckpt.pth.tar' (epoch 3)"
        ("generic", "oaded checkpoint",
         r"(?i:\bloaded checkpoint)(?: from)? ?'?(?P<path>/?[^\s']+)?", _LD, False, False),
        # A load that states what it took: "Loading the checkpoint at step 800 from
        # /ck/step-800.pt took 0.05s" (done, unlike a "Loading ..." that opens one)
        ("generic", "oading",
         r"(?i:\bloading (?:the )?(?:checkpoint|ckpt))\b(?=.*?\btook\b)"
         r"(?=(?:.{0,80}?\bstep[ =:]?\s*(?P<step>\d+))?)(?:.{0,80}?\bfrom (?P<path>\S+))?", _LD,
         False, False),
        ("generic", "heckpoint saved",
         r"(?i:checkpoint) saved(?: to| in| at)? ?(?P<path>\S+)?", _D, False, False),
        # The step between the two words: "checkpoint step 400 saved in 0.04s"
        ("generic", "heckpoint",
         r"(?i:checkpoint) (?:(?:at|for) )?(?i:step|iteration)[ =:]?(?P<step>\d+) saved\b", _D,
         False, False),
        ("generic", "aved checkpoint", r"(?i:saved) checkpoint(?: to| at)? ?(?P<path>\S+)?", _D,
         False, False),
    )
)  # fmt: skip
# A save that has begun, in the words most code uses; it opens the checkpoint phase (a long
# silence is normal there) and counts once training goes on. Done words rule a start out.
_BEGIN = re.compile(
    r"\b(?:saving|writing|storing|persisting)\b(?:(?!\btook\b).){0,40}?\bcheck-?points?\b"
    r"|\bcheck-?point(?:ing)?\b(?:(?!\btook\b).){0,60}?"
    r"\b(?:save (?:for step \d+ )?(?:started|begins?|in progress)|saving started)"
    r"|^\W*checkpointing\b(?! (?:done|finished|complete))",
    re.IGNORECASE,
)
_DONE_WORDS = re.compile(
    r"(?<!to be )\bsaved\b|\b(?:finished|completed?|done|finalized|took)\b", re.IGNORECASE
)
# Training ended normally: a save that only says it began went through (Hugging Face's "Training
# completed", Lightning's "`Trainer.fit` stopped", DeepSpeed's launcher, Megatron's end).
TRAINING_DONE = re.compile(
    r"Training completed|'train_runtime'|`Trainer\.fit` stopped|Process \d+ exits successfully"
    r"|\b(?:training|Training) (?:is )?(?:done|finished|complete)\b|\bFinished training\b"
    r"|after training is done"
)
# The timer row Megatron prints after each save ("save-checkpoint ....: (81611.2, 81611.8)").
_SAVE_TIMER = re.compile(r"\bsave-checkpoint\b")


# Every form above holds one of these words: the cheap test before the patterns run.
_GUARDS = ("heckpoint", "HECKPOINT", "Saving", "saving model", "Save weights", "oading",
           "shards", "states", "state to", "raining from", "save-checkpoint", "esumed from",
           "esuming from", "resumed epoch")  # fmt: skip


def _step(m: re.Match[str], text: str) -> int | None:
    if "step" in m.re.groupindex and m["step"]:
        return int(m["step"])
    if "path" in m.re.groupindex and m["path"]:
        found = _STEP_IN_PATH.findall(m["path"])
        if found:
            return int(found[-1])
    return None


class CheckpointMatcher:
    """Recognises checkpoint saves and loads: the frameworks' forms, the seeds', a site's own.

    A site pattern (`patterns`) is a completed save and may name the step with
    `(?P<iteration>\\d+)`; otherwise a number after "iteration" or "step" on the line is used.
    `start_patterns` are a site's forms of a save that has begun.
    """

    def __init__(self, patterns: Iterable[str] = (), start_patterns: Iterable[str] = ()) -> None:
        extra = [p for p in patterns if p not in DEFAULT_CHECKPOINT_PATTERNS]
        self._extra = tuple((p, re.compile(p)) for p in extra)
        self._start = tuple((p, re.compile(p)) for p in start_patterns)
        self._timer = "save-checkpoint" in patterns or not patterns

    @property
    def has_site_patterns(self) -> bool:
        """Site patterns may match lines the prefilter rejects: the engine must try them all."""
        return bool(self._extra or self._start)

    def match_all(self, text: str) -> list[CheckpointEvent]:
        """Every event on a physical line: progress bars redraw with carriage returns, so one
        line of a file can hold several saves' "Writing model shards: 100%"."""
        if "\r" not in text:
            event = self.match(text)
            return [event] if event is not None else []
        return [e for part in text.split("\r") if (e := self.match(part)) is not None]

    def match(self, text: str) -> CheckpointEvent | None:
        for source, pattern in self._extra:
            m = pattern.search(text)
            if m is not None:
                return CheckpointEvent(Kind.SAVE_DONE, _site_step(m, text), pattern=source)
        for source, pattern in self._start:
            m = pattern.search(text)
            if m is not None:
                return CheckpointEvent(Kind.SAVE_START, _site_step(m, text), pattern=source)
        if not any(word in text for word in _GUARDS):
            return None
        if _NOT_SAVES.search(text):
            return None
        for name, guard, pattern, kind, infer, weak in _FORMS:
            if guard in text:
                m = pattern.search(text)
                if m is not None:
                    return CheckpointEvent(kind, _step(m, text), _path(m), name, infer, weak)
        if self._timer and _SAVE_TIMER.search(text):
            return CheckpointEvent(Kind.SAVE_DONE, None, pattern="save-checkpoint", weak=True)
        if "heckpoint" in text or "HECKPOINT" in text:
            m = _BEGIN.search(text)
            if m is not None and not _DONE_WORDS.search(text):
                it = _ANY_ITERATION.search(text)
                return CheckpointEvent(
                    Kind.SAVE_START, int(it[1]) if it else None, pattern="save-start", infer=True
                )
        return None


def _path(m: re.Match[str]) -> str | None:
    return m["path"] if "path" in m.re.groupindex else None


def _site_step(m: re.Match[str], text: str) -> int | None:
    if "iteration" in m.re.groupindex and m["iteration"]:
        return int(m["iteration"])
    it = _ANY_ITERATION.search(text)
    return int(it[1]) if it else None
