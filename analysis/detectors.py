"""Pure, per-line detectors: crash signals, training progress, checkpoint saves, node names.

Every detector takes one line's text (launcher prefixes may still be on it) and returns a typed
result or None. Nothing here keeps state across lines except `Traceback` (Python tracebacks span
lines) and `CheckpointMatcher` (none: it only holds compiled patterns); the engine owns the rest.

Cost: `may_matter(line)` is a chain of substring tests that every signal, progress and
checkpoint line passes and that almost every other line fails; the regexes run only behind it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import NamedTuple

import re2

from analysis.finish import TOKENS as FINISH_TOKENS
from analysis.rank_balance import HEADER_RE
from analysis.restarter import TOKENS as RESTARTER_TOKENS
from analysis.signals import (
    APPLICATION,
    GPU,
    NETWORK,
    NODE,
    SCHEDULER,
    STORAGE,
    UNKNOWN,
    NodeNames,
    Signal,
    Traceback,
    bare_exception,
    detect_crash,
    exception_signal,
)
from analysis.throughput import bar_clock, throughput_readings

__all__ = [
    "APPLICATION",
    "GPU",
    "NETWORK",
    "NODE",
    "SCHEDULER",
    "STORAGE",
    "TOKEN_SEARCH",
    "UNKNOWN",
    "NodeNames",
    "Progress",
    "Signal",
    "Traceback",
    "bare_exception",
    "detect_crash",
    "exception_signal",
    "may_matter",
    "missed_heartbeat",
    "next_candidate",
    "parse_progress",
    "phase_marker",
]

# --- the prefilter --------------------------------------------------------------------------

# Each detector's lines contain at least one of these substrings (tests/unit/test_detectors.py
# checks every sample line against may_matter). Every token costs a scan of every line (about
# 40-60 ns for a 100-byte line), so the list is as short as the messages allow; coverage relies
# on how they are written:
# - Python exceptions end in "...Error: ..." and C tools say "error", so storage errors (EIO,
#   ENOSPC, ESTALE, EDQUOT), CUDA and NCCL failures, srun's task lines (Killed, Out Of Memory,
#   Exited) and slurmstepd's oom-kill line all carry "rror";
# - "SAVE_CHECKPOINT: iteration: N" carries "iteration"; the seeds' other defaults "heckpoint";
# - the kernel's OOM-kill lines carry "memory" ("Out of memory: Killed process").
# A bare "No space left on device" from a non-Python tool, with no "error" on its line, is not
# seen: the failing write also fails the job's own code, which reports it.
# "step: 10", "step=25,", "Step 5/100", "global step 20:", "[step 100]", "step 7 |", "step 25
# loss 38.7", JSON's '"step": 500,': a step counter followed by a report's separator or a
# metric's name ("step 12 micro-batch 3" and "..., step 1" at a debug line's end are none).
# Spaces and tabs only, never \s: over a block of lines a match must not run into the next.
_STEP_REPORT_RE = (
    r"(?i:step)[\"']?[ \t]*[:=#]?[ \t]*\d+(?:[ \t]*[:/,|\]]|[ \t]+(?i:loss|lr\b|learning|tok|time"
    r"|ppl|perplexity|acc|grad|throughput|samples|epoch|mfu|tps))"
)

# An epoch's batch count (`_EPOCH_BATCH`): "epoch" and, a few characters on, "n/total".
_EPOCH_BATCH_RE = r"(?i:epoch)[^\n]{1,24}?\d[ \t]*/[ \t]*\d"

# A metrics logger that prints CSV: a header once ("step,epoch,loss,lr,step_ms,tokens_per_s"),
# then one row of numbers per report ("40,0,3.2582,3.00e-03,19.6,52238"). Whole lines (an srun
# label allowed), spaces and tabs only: the prefilter runs these over many lines at once.
CSV_HEADER_RE = (
    r"(?m:^[ \t]*(?:\d{1,7}:[ \t]*)?[A-Za-z_][\w/.-]*(?:,[ \t]?[A-Za-z_][\w/.-]*){2,}[ \t]*$)"
)
CSV_ROW_RE = r"(?m:^[ \t]*(?:\d{1,7}:[ \t]*)?[-+]?\d[\w.+-]*(?:,[ \t]?[\w.+-]*){2,}[ \t]*$)"
# The same in columns separated by spaces (fastai's "epoch train_loss valid_loss accuracy time"
# table, then "4  0.062082  0.056417  0.977750  00:04" per epoch): the counting column first.
_TABLE_COLUMNS = r"(?i:epoch|step|iter|iteration)(?:[ \t]+[A-Za-z_][\w/%.@-]*){2,}"
TABLE_HEADER_RE = r"(?m:^[ \t]*(?:\d{1,7}:[ \t]*)?" + _TABLE_COLUMNS + r"[ \t]*$)"
TABLE_ROW_RE = (
    r"(?m:^[ \t]*(?:\d{1,7}:[ \t]*)?\d+(?:[ \t]+(?:[-+]?\d[\d.eE+-]*|\d+:\d\d(?::\d\d)?|#na#|nan"
    r"|inf)){2,}[ \t]*$)"
)


_TOKENS = (
    *RESTARTER_TOKENS,  # an in-job restarter's lines (NVRx ft_launcher)
    "iteration",
    "heckpoint",
    "rror",
    "egmentation",
    "egfault",
    "Traceback",
    "NCCL",
    "SIG",
    "Xid",
    "emory",
    "CANCELLED",
    "srun: ",  # srun's own lines: that its reports of the tasks' ends belong in this log
    "Rank=",
    "STRAGGLER",  # NVRx's warning, which names the slow ranks (its score rows carry "Rank=")
    "heartbeat",  # NVRx's rank monitor: "Did not get subsequent heartbeat" is a hang, directly
    "attempts left",  # torch elastic restarting its workers: "... attempts left; will restart"
    "valuat",  # evaluation phase markers ("Running Evaluation", "Evaluating", "evaluation")
    "alidat",  # validation phase markers ("Validating", "Validation DataLoader")
    "ataset",  # data-loading phase markers ("building train, validation, and test datasets")
    # Failures whose messages carry no "rror": "Call to recv failed", "Assertion ... failed",
    # "Exception: ...", "Timed out waiting", "Killed", LSF's TERM_*, walltime and preemption
    # notices, "fallen off the bus", "GPU is lost", "oom-kill", "No space left", "Stale file
    # handle", "Connection reset", "Broken pipe", credentials, "Received signal 15", "(core
    # dumped)", torch elastic's "exitcode", MPI_ABORT, and the shell's "Killed" in Chinese.
    "ailed",
    "xception",
    "imed out",
    "imeout",
    "imes out",  # HCCL's "EI0006: ... Getting socket times out"
    "illed",
    "TERM_",
    "alltime",
    "h_rt",
    "reempt",
    "erminat",
    "fallen",
    "is lost",
    "oom",
    "space left",
    "Stale",
    "onnection",
    "roken pipe",
    "redential",
    "ignal 15",
    "ignal: 1",  # torch elastic's "SignalException: Process 7 got signal: 15" (or 1: SIGHUP)
    "death signal",  # its agent's "Received 15 death signal, shutting down workers"
    "dumped",
    "xitcode",
    "MPI_ABORT",
    "已杀死",
    "t open file",
    "return code",
    "Killing subprocess",  # the DeepSpeed launcher's sigkill_handler
    # Launchers and operators: MPI's abort reports, a host the launcher cannot reach, a pod
    # evicted, a process's exit code in other words, IB transport retries exhausted.
    "mpirun",
    "MPI_",
    "ORTE",
    "peer process",  # Open MPI: "An MPI communication peer process has unexpectedly disconnected"
    "ommand not found",  # a launcher's daemon or the job's program missing on a host
    "ssh: ",
    "low on resource",
    "OOMKilled",
    "victed",
    "retry count",
    "uda failure",  # NCCL's "Last error:" detail: "Cuda failure 802 'system not yet initialized'"
    "ompletion from peer",  # NCCL's IB plugin: "NET/IBP:Got completion from peer ... status=12"
    "NaN",  # a framework's divergence verdict: "Loss became infinite or NaN", "contain Inf/NaN"
    "iverged",
    "Invalid loss",  # Keras TerminateOnNaN: "Batch 12: Invalid loss, terminating training"
    ", stopping train",  # torchvision's references: "Loss is nan, stopping training"
    "IBV_WC",
    "with Unavailable:",  # TensorFlow's collectives: "Aborting RingReduce with Unavailable: ..."
    "endpoint is not connected",  # ENOTCONN: a socket's, or a FUSE mount's (with its path)
    "rerun on a different",  # Megatron: "... is reproducible ... Need to rerun on a different GPU"
    "collective mismatch",  # gloo: "Is there a distributed collective mismatch in your code?"
    "mismatch between collectives",  # c10d's TORCH_DISTRIBUTED_DEBUG=DETAIL check
    "!!!! FATAL",  # a TPU's driver: "[/dev/accel0 ...] !!!! FATAL ERROR !!!!"
    "GPU reset",  # the amdgpu driver: "amdgpu: GPU reset begin!", "GPU reset(2) failed"
    "ode1 reset",  # ... and its "MODE1 reset", "GPU mode1 reset"
    "has died",  # Ray: "The actor is dead because its node has died."
    "arked dead",
    "arked as dead",
    "lockup",  # the kernel: "soft lockup - CPU#12 stuck for 22s!", "Kernel panic - not syncing"
    "anic - not",
    "efined signal",  # the shell's "User defined signal 2": a batch system's SIGUSR2
    "in $PATH",  # a container runtime's "executable file not found in $PATH"
    # PBS/Torque/Moab records of a job the site ended; a mixed-precision loss scale collapsing.
    "eleted at request",
    "allclock",
    "loss scale",
    "xitCode",
    "xited with",
    "xit code",
    "xit status",
    "_job_complete",
    # Progress and throughput in other frameworks' words (torchtitan, nanoGPT, DeepSpeed,
    # tqdm progress bars, fairseq, TensorFlow). A step counter is a token only in a report's
    # grammar (`_STEP_REPORT_RE`): per-rank debug lines say "step 12 micro-batch 3" by the thousand.
    "iter ",
    "iter: ",  # BasicSR and its kin: "[epoch:  1, iter:     100, lr:(2.999e-05,)]", detectron2
    "(train)",  # MMEngine: "Iter(train) [ 700/2400]  base_lr: ..."
    "it/s",
    "PerSec",
    "tps",
    "mfu",
    "/sec",
    "wps",
    "/step",  # Keras: "300/300 - 33s - 111ms/step - loss: 0.4862"
    "tok/s",
    "tokens/s",
    "_per_s",  # a Python dict's or JSON's "samples_per_second", "tokens_per_sec"
    "utts/s",  # MLPerf RNN-T's DLLogger: "epoch    3 | avg train utts/s  9692 | took 28.68 s"
    " took ",  # a step's time in words: "Iteration took 32.709 s.", "batch 12 took 0.41 s"
    "train_time=",  # ESPnet's trainer: "1epoch:train:101-200batch: ..., train_time=0.021"
    "words/s",  # Marian: "Ep. 1 : Up. 601000 : Sen. 1,918,817,690 : ... : 100786.61 words/s"
    "TFLOP",
    "rain Epoch:",  # PyTorch's examples: "Train Epoch: 1 [2560/60000 (4%)]\tLoss: 0.31"
    "{'loss': ",  # the Hugging Face Trainer's log record (`_TRAINER_RECORD`)
    "Train: ",  # timm: "Train: 3 [ 150/1251 ( 12%)]  Loss: 3.12 (3.20)  Time: 0.312s, 3283.02/s"
    # Checkpoint forms without "heckpoint": "Saving current state to", "Loading states from",
    # "Writing model shards", and the ends of training that complete a save begun before them.
    *FINISH_TOKENS,  # every end of training analysis/finish.py knows
    "train_runtime",
    "Saving",
    "Save weights",  # YOLOX: "Save weights to ./out/..."
    "oading",
    "shards",
    "raining from",
    "esumed from",  # a program's own word for a checkpoint it loaded (checkpoints.py)
    "esuming from",
    "saving model",
)


def may_matter(line: str) -> bool:
    """False for lines no detector can match: the cheap test that keeps the engine fast.

    The same RE2 search `next_candidate` runs over blocks, on one line (~3 us, where testing
    the ~75 tokens one by one in Python costs ~10 us on a line that has none).
    """
    return TOKEN_SEARCH.search(line.encode("utf-8", "surrogatepass")) is not None


# The tokens as one RE2 pattern over UTF-8 bytes: one DFA pass over a block of lines (~300
# MB/s) finds the next line that may matter (`LogEngine.feed_block`), and `may_matter` asks it of
# one line. RE2 on bytes: its str API re-maps offsets and is 5x slower.
TOKEN_SEARCH = re2.compile(
    (
        "|".join(map(re.escape, _TOKENS))
        + "|" + _STEP_REPORT_RE + "|" + _EPOCH_BATCH_RE
        + "|" + HEADER_RE + "|" + CSV_HEADER_RE + "|" + CSV_ROW_RE
        + "|" + TABLE_HEADER_RE + "|" + TABLE_ROW_RE
    ).encode()
)  # fmt: skip


def next_candidate(data: bytes, pos: int) -> int:
    """Start of the first line at or after `pos` that `may_matter` accepts, or -1.

    `data` is UTF-8 lines joined by b"\\n"; `pos` is the start of one of them.
    """
    m = TOKEN_SEARCH.search(data, pos)
    if m is None:
        return -1
    # Tokens hold no newline: the line starts after the last newline before the match.
    return max(pos, data.rfind(b"\n", pos, m.start()) + 1)


# --- progress -------------------------------------------------------------------------------

# Progress lines are the most frequent interesting lines, so fields are found with str.find and
# read with an anchored match at that spot (several times cheaper than a regex search each).
# A key may be quoted: a JSON-lines metrics logger's {"step": 500, "loss": 0.09, ...}, a Python
# dict's {'loss': 0.09, ...} (Hugging Face's log records).
# "iteration 30/..", "iteration=30"
_NUM_AFTER_ITERATION = re.compile(r"""["']?\s*[:=#]?\s*(\d+)""")
_NUM_AFTER_TFLOP = re.compile(r"[^:=|]{0,40}[:=]\s*([\d.]+)")  # "TFLOP/s/GPU): 386.7"
_NUM_AFTER_LOSS = re.compile(  # "lm loss: 2.3E+00", "loss value: nan", "train_loss=inf",
    # nanoGPT's "iter 3010: loss nan, time ..." (a space only)
    r"""(?: value)?["']?(?:\s*[:=]\s*["']?|[ \t]+)"""
    r"([-+]?(?:[Nn]a[Nn]|[Ii]nf|[\d.]+(?:[eE][-+]?\d+)?))(?![A-Za-z])"
)
_NUM = re.compile(r"\s*([\d.]+)")
_ELAPSED_KEY = "elapsed time per iteration (ms):"
_NAN_KEY = "number of nan iterations:"


class Progress(NamedTuple):
    """A training progress report: Megatron, NeMo, torchtitan, nanoGPT, DeepSpeed, Hugging Face
    and Lightning progress bars, the AJR telemetry library, or a bare throughput line."""

    iteration: int | None = None
    tflops: float | None = None
    loss: float | None = None
    elapsed_ms: float | None = None  # Megatron's "elapsed time per iteration (ms)"
    nan_iterations: int | None = None
    # Throughput readings as (metric, rate), higher is better (times are inverted).
    rates: tuple[tuple[str, float], ...] = ()
    bar: tuple[int, float] | None = None  # a tqdm bar's (count, seconds elapsed)


def _field(text: str, key: str, pattern: re.Pattern[str], tries: int = 3) -> str | None:
    """The number `pattern` reads right after an occurrence of `key` (the first that has one)."""
    pos = text.find(key)
    while pos >= 0 and tries > 0:
        m = pattern.match(text, pos + len(key))
        if m is not None:
            return m[1]
        pos = text.find(key, pos + len(key))
        tries -= 1
    return None


# Other frameworks' step counters: torchtitan "step: 10", DeepSpeed "step=25", nanoGPT
# "iter 100:", Lightning/HF "global step 20", "Step 5/100", and a tqdm bar's "| 20/45 [".
_STEP = re.compile(
    # (a count may group its thousands: BasicSR's "[epoch: 92, iter:   5,100, lr:(4.7e-07,)]")
    r"""(?:\b(?:global[_ ])?step|\biter)["']?\s*[:=#]?\s*(?P<n>\d{1,3}(?:,\d{3})+|\d+)\b"""
    r"(?!\s*%)"
    r"|\|\s*(?P<bar>\d+)/\d+ \["
)
# Marian's training report counts updates ("Ep. 1 : Up. 601000 : Sen. 1,918,817,690 : Cost ...");
# its validation lines ("[valid] Ep. 1 : Up. 600000 : bleu-detok : ...") report no step.
_MARIAN = re.compile(r"\bEp\. \d+ : Up\. (?P<n>\d+) : Sen\. ")
# PyTorch's examples: "Train Epoch: 2 [2560/60000 (4%)]": the samples seen, counted on across
# epochs ((epoch - 1) x total + seen), so that the count only grows.
_TRAIN_EPOCH = re.compile(r"Train Epoch: (?P<epoch>\d+) \[(?P<seen>\d+)/(?P<total>\d+) \(")
# timm's train.py: "Train: 3 [ 150/1251 ( 12%)]  Loss: 3.12 (3.20)  Time: 0.312s, 3283.02/s
# (0.320s, 3200.11/s)  LR: 1.000e-03  Data: 0.010 (0.012)": epoch (from 0), its batch, its batches,
# and the samples per second of the last step.
_TIMM_TRAIN = re.compile(r"\bTrain: (?P<epoch>\d+) \[\s*(?P<n>\d+)/(?P<total>\d+) \(")
# A tqdm bar's redraw: "| 52/200 [00:23<00:59,  2.49it/s]"; Lightning's names its epoch, whose
# batches it counts from 0 again: "Epoch 2:  50%|#####     | 50/100 [00:08<00:08,  5.83it/s]".
_BAR = re.compile(r"\|\s*\d+/\d+ \[")
_EPOCH_BAR = re.compile(r"\bEpoch (?P<epoch>\d+):[^|\r]*\|[^|\r]*\|\s*(?P<n>\d+)/(?P<total>\d+) \[")
# Ultralytics YOLO's (v5, v8) bar under its "Epoch GPU_mem box_loss ..." header: the epoch of
# epochs first, then the GPU memory: "      3/12      2.61G     0.1549  ...: 44%|████▌     |
# 136/312 [00:01<00:01, 135.58it/s]".
_YOLO_BAR = re.compile(
    r"\s*(?P<epoch>\d+)/\d+\s+[\d.]+[KMG]?\s[^|\r]*\|[^|\r]*\|\s*(?P<n>\d+)/(?P<total>\d+) \["
)
# An epoch's batch in the other common forms: "Train epoch: 0, batch: 750/34799", "Epoch: 0 |
# Batch: 50/8659", the MetricLogger's "Epoch: [1]  [1480/1504]" and "Epoch: [0/100]  [ 10/1562]",
# "Epoch[140](0/5)", "Epoch 0/7 itr 78/3489", fairseq's "| epoch 009:   1000 / 2737": counted on
# across epochs as the bars' are. The epoch number ends where a digit does not follow (not the
# "1" of "Epoch 12/30").
_EPOCH_BATCH = re.compile(
    r"\bepoch\b\s*[:=]?\s*\[?\s*(?P<epoch>\d+)(?!\d)\s*(?:/\s*\d+\s*)?\]?\s*[,|:]?\s*"
    r"(?:(?:batch|iter|itr|it|step)\b\s*[:=]?\s*)?[\[(]?\s*(?P<n>\d+)\s*/\s*(?P<total>\d+)\s*[\])]?",
    re.IGNORECASE,
)
# Keras opens each epoch with "Epoch 7/40" on a line of its own: from the second on, the line says
# the epoch before it is done (the first says only that training starts).
_KERAS_NEXT_EPOCH = re.compile(r"^Epoch (?P<epoch>\d+)/\d+$")
_PROGRESS_HINTS = ("iteration", "TFLOP", "step", "iter ", "it/s", "PerSec", "tps", "mfu",
                   "/sec", "wps", "tok/s", "tokens/s", "_per_s", "rain Epoch:",
                   "Train: ", "'loss': ", "poch", "iter: ", "(train)", " took ",
                   "words/s")  # fmt: skip
# MMEngine's (OpenMMLab's) training record: "Iter(train) [ 700/2400]  base_lr: ...  time: 0.0350
# data_time: ...", by epoch "Epoch(train)  [3][ 100/1000]  ..." (counted on across epochs).
_MMENGINE = re.compile(
    r"\b(?:Iter|Epoch)\(train\)\s*(?:\[(?P<epoch>\d+)\])?\s*\[\s*(?P<n>\d+)/(?P<total>\d+)\]"
)
# Training announcing where it starts ("Start training from epoch: 0, iter: 0", detectron2's
# "Starting training from iteration 0", torchtitan's "Training starts at step 1"): no step is
# done yet, and the first report may come many steps later.
_TRAINING_STARTS = re.compile(
    r"\bStart(?:ing)? training from (?:epoch|iter)|\bTraining starts at (?:step|iter)"
)
# Hugging Face Trainer's log record, printed once per `logging_steps` without a step number
# ({'loss': 6.907, 'grad_norm': 0.15, 'learning_rate': 0.0002, 'epoch': 0.0032}; transformers 5
# quotes the values): a training step's report. Not 'eval_loss' (an evaluation's result) nor
# 'train_loss' (the run's closing summary).
_TRAINER_RECORD = re.compile(r"^\s*\{'loss': '?[-\d.eE+naif]+'?, .*'epoch': '?[\d.]+'?")


def _across_epochs(m: re.Match[str]) -> str:
    """An epoch's batch `n` of `total` counted on across epochs, so that the count only grows."""
    return str(int(m["epoch"]) * int(m["total"]) + int(m["n"]))


def _last_report(text: str) -> str:
    """What a line redrawn with carriage returns shows last: its last segment, or its last
    progress bar when a record followed the bar (HF Trainer clears the bar, then prints its
    log dict on the same line)."""
    segments = text.split("\r")
    for segment in reversed(segments):
        if _BAR.search(segment):
            return segment
    return segments[-1]


# A terminal's colour codes ("\x1b[31mstep: 10  \x1b[32mloss: 12.02"), which torchtitan's and
# others' loggers write to a file too: they glue a field's name to the code before it.
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CURSOR_UP = "\x1b[A"


def parse_progress(text: str) -> Progress | None:
    """The progress report on `text`, or None (checkpoint lines are not progress)."""
    if not any(hint in text for hint in _PROGRESS_HINTS):
        return None
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "heckpoint" in text or "CHECKPOINT" in text:
        return None  # "saving checkpoint at iteration N" is a save, not a step
    if phase_marker(text) == EVALUATING:
        return None  # an evaluation's own progress bar: neither training steps nor throughput
    if "raining" in text and _TRAINING_STARTS.search(text) is not None:
        return None
    has_tflop = "TFLOP" in text
    # "iterations: 3" (Megatron's "number of skipped iterations") is no iteration number: a
    # digit must follow "iteration" directly.
    iteration = _field(text, "iteration", _NUM_AFTER_ITERATION) if "iteration" in text else None
    last = _last_report(text) if "\r" in text else text
    if iteration is None:
        m = _STEP.search(last)
        iteration = (m["n"] or m["bar"]) if m is not None else None
        if m is not None and m["bar"]:
            e = _EPOCH_BAR.search(last) if "Epoch " in last else _YOLO_BAR.match(last)
            if e is not None:  # batches counted on across epochs, so that the count only grows
                iteration = _across_epochs(e)
    if iteration is None and "(train)" in text:
        m = _MMENGINE.search(text)
        if m is not None:
            iteration = _across_epochs(m) if m["epoch"] else m["n"]
    if iteration is None and "Up. " in text:
        m = _MARIAN.search(text)
        if m is not None:
            iteration = m["n"]
    if iteration is None and "rain Epoch:" in text:
        m = _TRAIN_EPOCH.search(text)
        if m is not None:
            iteration = str((int(m["epoch"]) - 1) * int(m["total"]) + int(m["seen"]))
    if iteration is None and "Train: " in text:
        m = _TIMM_TRAIN.search(text)
        if m is not None:
            iteration = _across_epochs(m)
    if iteration is None and "poch" in last:
        m = _EPOCH_BATCH.search(last)
        if m is not None and int(m["n"]) <= int(m["total"]):
            iteration = _across_epochs(m)
    tflops = _field(text, "TFLOP", _NUM_AFTER_TFLOP) if has_tflop else None
    elapsed = _field(text, _ELAPSED_KEY, _NUM, 1) if "elapsed" in text else None
    # Megatron's two readings are read already: the general patterns need not look for them.
    known: list[tuple[str, float]] = []
    if elapsed is not None and (step_ms := _float(elapsed)):
        known.append(("step_time", 1000.0 / step_ms))  # steps per second
    if tflops is not None and (value := _float(tflops)):
        known.append(("tflops", value))
    # A bar tqdm draws below another moves the cursor back up after each redraw ("\x1b[A"): a
    # nested bar, such as the Hugging Face Trainer's evaluation bar under its training bar. Its
    # rate is not the training's (the evaluation's batches differ), its count is still progress.
    nested = last.endswith(_CURSOR_UP) and "it/s" in last
    rates = () if nested else throughput_readings(last, known)
    if iteration is None and tflops is None and not rates and not _TRAINER_RECORD.match(last):
        keras = _KERAS_NEXT_EPOCH.match(last.strip()) if "Epoch " in last else None
        if keras is None or int(keras["epoch"]) < 2:
            return None
    # (MMCV names its losses first: "loss_cls: nan, loss_bbox: nan, loss_centerness: nan, loss:
    # nan", so the plain "loss" may be the fourth occurrence of the word)
    loss = _field(text, "loss", _NUM_AFTER_LOSS, 8) or _field(text, "Loss", _NUM_AFTER_LOSS)
    nans = _field(text, _NAN_KEY, _NUM, 1) if "nan iter" in text else None
    return Progress(
        _count(iteration.replace(",", "") if iteration else None),
        _float(tflops) if tflops is not None else None,
        _float(loss) if loss is not None else None,
        _float(elapsed) if elapsed is not None else None,
        _count(nans),
        rates,
        bar_clock(last) if "it/s" in last else None,
    )


# A count of more than 18 digits is no step number: as an int it overflows the float arithmetic
# of intervals (found by tests/unit/test_fuzz.py: a line "iteration 000...0" crashed the watch).
_MAX_COUNT_DIGITS = 18


def _count(text: str | None) -> int | None:
    if text is None:
        return None
    value = _float(text)
    if value is None or not math.isfinite(value) or len(text.split(".")[0]) > _MAX_COUNT_DIGITS:
        return None
    return int(value) if "." in text or "e" in text.lower() else int(text)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


# --- metrics printed as CSV -----------------------------------------------------------------

# (the header's and the rows' line patterns are with the prefilter's, above)
_CSV_HEADER = re.compile(r"[A-Za-z_][\w/.-]*(?:,[ \t]?[A-Za-z_][\w/.-]*){2,}")
_CSV_VALUE = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|nan|inf)", re.IGNORECASE)
_TABLE_HEADER = re.compile(r"[ \t]*" + _TABLE_COLUMNS + r"[ \t]*")
_CLOCK = re.compile(r"\d+:\d\d(?::\d\d)?")
# The columns that count steps, as the progress grammar reads them.
_CSV_STEP_COLUMNS = frozenset({"step", "steps", "global_step", "iter", "iteration", "iterations"})


def csv_header(text: str) -> tuple[str, ...] | None:
    """The columns of a CSV metrics header (`text` without its prefix) that counts steps."""
    if _CSV_HEADER.fullmatch(text.strip()) is None:
        return None
    columns = tuple(c.strip() for c in text.strip().split(","))
    if not _CSV_STEP_COLUMNS.intersection(c.lower() for c in columns):
        return None
    # the step column under the name the progress grammar reads first; the others as printed
    # ("TFLOP/s" is read by its capitals)
    return tuple("step" if c.lower() in _CSV_STEP_COLUMNS else c for c in columns)


def table_header(text: str) -> tuple[str, ...] | None:
    """The columns of a metrics table's header in columns (`text` without its prefix), read as
    a CSV header's; an epoch column counts when no column counts steps (fastai's)."""
    if _TABLE_HEADER.fullmatch(text) is None:
        return None
    columns = tuple(text.split())
    if not _CSV_STEP_COLUMNS.intersection(c.lower() for c in columns):
        columns = tuple("step" if c.lower() == "epoch" else c for c in columns)
    return tuple("step" if c.lower() in _CSV_STEP_COLUMNS else c for c in columns)


def csv_progress(text: str, columns: Sequence[str]) -> Progress | None:
    """The progress report in a CSV row (or a table's row in columns) under `columns` (its
    header), or None: the row is read as the `name=value` record it is. A clock ("00:04", the
    time an epoch took) is no rate of its own: skipped."""
    values = text.strip().split(",") if "," in text else text.split()
    if len(values) != len(columns):
        return None
    fields = []
    for name, value in zip(columns, values, strict=True):
        value = value.strip()
        if value and _CSV_VALUE.fullmatch(value) is None:
            if _CLOCK.fullmatch(value) is not None or value == "#na#":
                continue
            return None
        if value:
            fields.append(f"{name}={value}")
    return parse_progress(" ".join(fields))


# --- phases other than training (a long silence is normal there) ---------------------------

EVALUATING, LOADING = "evaluating", "loading"
_PHASE_MARKER = re.compile(
    r"(?P<eval>\*+ Running (?:Evaluation|Prediction) \*+|\b(?:Running|Starting|Begin(?:ning)?)"
    r" (?:the )?(?:evaluation|validation|eval)\b|(?:^\W*|\]\s*)(?:Evaluating|Validating)\b"
    r"|\bValidation DataLoader \d|\bEvaluating (?:iter|on|\d))"
    r"|(?P<load>\bbuilding (?:train|the |\w+ )?(?:[\w, ]{0,40})datasets?\b|\bLoading (?:the )?"
    r"(?:data|dataset)s?\b|\bPreparing (?:the )?datasets?\b)",
    re.IGNORECASE,
)


def phase_marker(text: str) -> str | None:
    """EVALUATING or LOADING when `text` says such a phase begins, else None."""
    if not ("valuat" in text or "alidat" in text or "ataset" in text or "oading" in text):
        return None
    m = _PHASE_MARKER.search(text)
    if m is None:
        return None
    return EVALUATING if m["eval"] else LOADING


# --- missed heartbeats (NVRx, seed 004) ----------------------------------------------------

# NVRx fault tolerance's rank monitor (seed 004): "[WARNING] [RankMonitorServer:34] Did not get
# subsequent heartbeat. Waited 171.92 seconds." (also "initial heartbeat"): the job itself says
# a rank stopped making progress.
_NVRX_MISSED_HEARTBEAT = re.compile(
    r"Did not get (?P<which>initial|subsequent) heartbeat\. Waited (?P<waited>[\d.]+) seconds"
)


def missed_heartbeat(text: str) -> tuple[str, float] | None:
    """(initial | subsequent, seconds waited) from an NVRx rank-monitor line, or None."""
    m = _NVRX_MISSED_HEARTBEAT.search(text)
    return (m["which"], float(m["waited"])) if m is not None else None
