"""Pure, per-line detectors: crash signals, training progress, checkpoint saves, node names.

Every detector takes one line's text (launcher prefixes may still be on it) and returns a typed
result or None. Nothing here keeps state across lines except `Traceback` (Python tracebacks span
lines) and `CheckpointMatcher` (none: it only holds compiled patterns); the engine owns the rest.

Cost: `may_matter(line)` is a chain of substring tests that every signal, progress and
checkpoint line passes and that almost every other line fails; the regexes run only behind it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import re2

from analysis.lines import split_prefix
from analysis.xid import parse_xid
from models.categories import Category
from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS

# Finding categories, as short names for the tables below.
GPU, NODE, NETWORK, STORAGE = Category.GPU, Category.NODE, Category.NETWORK, Category.STORAGE
APPLICATION, SCHEDULER, UNKNOWN = Category.APPLICATION, Category.SCHEDULER, Category.UNKNOWN


@dataclass(frozen=True, slots=True)
class Signal:
    """One line that says something failed."""

    name: str  # a stable id, e.g. "segfault", "xid", "nccl_watchdog_timeout"
    category: Category
    summary: str
    line: str
    immediate: bool  # unambiguous: act now; otherwise wait to see whether training goes on
    nodes: tuple[str, ...] = ()  # nodes the line names (job nodes or hosts a pattern captured)
    rank: int | None = None
    requeue: bool | None = None  # False: a requeue cannot help (deterministic application error)
    exclude: bool = False  # the named nodes are suspect hardware: keep them out
    victim: bool = False  # the usual consequence of another rank's failure, not a cause
    detail: str = ""  # exception type, Xid code, exit code, ...


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
_TOKENS = (
    "iteration",
    "heckpoint",
    "rror",
    "egmentation",
    "Traceback",
    "NCCL",
    "SIG",
    "Xid",
    "emory",
    "CANCELLED",
    "Rank=",
    "STRAGGLER",  # NVRx's warning, which names the slow ranks (its score rows carry "Rank=")
    "heartbeat",  # NVRx's rank monitor: "Did not get subsequent heartbeat" is a hang, directly
    "valuat",  # evaluation phase markers ("Running Evaluation", "Evaluating", "evaluation")
    "alidat",  # validation phase markers ("Validating", "Validation DataLoader")
    "ataset",  # data-loading phase markers ("building train, validation, and test datasets")
)


def may_matter(line: str) -> bool:
    """False for lines no detector can match: the cheap test that keeps the engine fast."""
    # Written out rather than looped: this runs on every line, and the inline chain is about
    # twice as fast as any(map(line.__contains__, _TOKENS)).
    return (
        "iteration" in line
        or "heckpoint" in line
        or "rror" in line
        or "egmentation" in line
        or "Traceback" in line
        or "NCCL" in line
        or "SIG" in line
        or "Xid" in line
        or "emory" in line
        or "CANCELLED" in line
        or "Rank=" in line
        or "STRAGGLER" in line
        or "heartbeat" in line
        or "valuat" in line
        or "alidat" in line
        or "ataset" in line
    )


# The same tokens as one RE2 pattern over UTF-8 bytes, for `LogEngine.feed_block`: one DFA pass
# over a block of lines (~500 MB/s) finds the next line may_matter accepts, where testing each
# line in Python costs ~0.7 us. RE2 on bytes: its str API re-maps offsets and is 5x slower.
_TOKEN_SEARCH = re2.compile("|".join(map(re.escape, _TOKENS)).encode())


def next_candidate(data: bytes, pos: int) -> int:
    """Start of the first line at or after `pos` that `may_matter` accepts, or -1.

    `data` is UTF-8 lines joined by b"\\n"; `pos` is the start of one of them.
    """
    m = _TOKEN_SEARCH.search(data, pos)
    if m is None:
        return -1
    # Tokens hold no newline: the line starts after the last newline before the match.
    return max(pos, data.rfind(b"\n", pos, m.start()) + 1)


# --- node names -----------------------------------------------------------------------------

_HOSTLIKE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class NodeNames:
    """Finds the job's node names in a line: as whole words, or as the first label of an FQDN."""

    def __init__(self, nodes: Iterable[str]) -> None:
        self._nodes = frozenset(nodes)

    def __bool__(self) -> bool:
        return bool(self._nodes)

    def __contains__(self, name: object) -> bool:
        return name in self._nodes

    def find(self, text: str) -> tuple[str, ...]:
        if not self._nodes:
            return ()
        found: list[str] = []
        for token in _HOSTLIKE.findall(text):
            token = token.rstrip(".-")
            name = token if token in self._nodes else token.split(".", 1)[0]
            if name in self._nodes and name not in found:
                found.append(name)
        return tuple(found)


# --- crash signals --------------------------------------------------------------------------

# "*** JOB 123 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO TIME LIMIT ***"; older Slurm
# wrote "*** JOB 123 CANCELLED AT ... DUE TO TIME LIMIT on node1 ***".
_SLURM_CANCEL = re.compile(
    r"\*\*\* (?:JOB|STEP) (?P<id>\S+) (?:ON (?P<host>\S+) )?CANCELLED AT (?P<at>\S+)"
    r"(?: DUE TO (?P<why>[A-Z][A-Z _]*?)(?:, [^*]*?)?)?(?: on (?P<host2>\S+))?(?: \*\*\*|\s*$)"
)
# Newer Slurm adds advice after the reason: "DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS".
_SRUN_TASK = re.compile(
    r"srun: error: (?P<host>[A-Za-z0-9][\w.-]*): tasks? (?P<tasks>[\d,\s-]+): (?P<what>.+?)\s*$"
)
_SRUN_NODE_FAIL = re.compile(r"srun: error: Node failure on (?P<host>[A-Za-z0-9][\w.-]*)")
_EXIT_CODE = re.compile(r"Exited with exit code (\d+)")
_TASK_SEP = re.compile(r"[,\s-]")
# Fatal signals only in the grammar of a death report: "Installing signal handlers for SIGTERM,
# SIGINT and SIGABRT" names a signal and reports nothing.
_FATAL_SIGNAL = r"SIG(?:SEGV|BUS|ABRT|ILL|FPE)\b"
_SEGV = re.compile(
    r"[Ss]egmentation fault|\bsegfault\b|Bus error|core dumped|Fatal Python error"
    r"|\b(?:received|caught|got|by|with|from|due to|raised|delivered)\s+(?:signal\s+)?"
    r"(?:<Signals\.)?"
    + _FATAL_SIGNAL
    + r"|\bSignal \d+ \("
    + _FATAL_SIGNAL
    + r"\) received"
    + r"|\*\*\* "
    + _FATAL_SIGNAL
    + r"(?: \([^)]*\))? received"
    + r"|\b"
    + _FATAL_SIGNAL
    + r"(?: \([^)]*\))? (?:received|caught|occurred|encountered)\b"
    + r"|\bsignal: "
    + _FATAL_SIGNAL
)
_CUDA = re.compile(
    r"CUDA error: (?P<msg>[^.\n]*?)(?:\.|$|\s*\(|\s*CUDA kernel)"
    r"|(?P<code>CUDA_ERROR_[A-Z_]+|cudaError[A-Za-z]+)"
)
_CUDA_OOM = re.compile(r"CUDA out of memory|OutOfMemoryError")
_NCCL_WATCHDOG = re.compile(r"Watchdog caught collective operation timeout")
# "with error 12, opcode 0, ..." (older NCCL) or "with status=12 opcode=0 ..." (newer)
_NCCL_IB = re.compile(
    r"NET/IBP? ?: ?Got completion from peer (?P<peer>\S+) with (?:error |status=)(?P<err>\d+)"
)
# NCCL's own prefix: "host:pid:tid [cudaDev] [file.c:line ]NCCL WARN ..."
_NCCL_HOST = re.compile(
    r"^(?P<host>[A-Za-z0-9][\w.-]*):\d+:\d+ \[\d+\] (?:\S+:\d+ )?NCCL (?:WARN|INFO)"
)
_NCCL_ERR = re.compile(
    r"(?P<kind>unhandled system error|ncclSystemError|remote process exited|ncclRemoteError"
    r"|unhandled cuda error|ncclUnhandledCudaError|internal error|ncclInternalError"
    r"|invalid usage|ncclInvalidUsage|NCCL communicator was aborted|NCCL Error \d+)"
)
_CHILD_FAILED = re.compile(r"\bChildFailedError\b")
_HOST_OOM = re.compile(
    r"Out of memory: Killed process (?P<pid>\d+) \((?P<proc>[^)]*)\)"
    r"|Memory cgroup out of memory: Killed process (?P<cpid>\d+)"
    r"|Detected (?P<events>\d+) oom[-_]kill event"
    r"|\boom[-_]kill\b"
)
_STORAGE = re.compile(
    r"(?P<eio>Input/output error)|(?P<enospc>No space left on device)"
    r"|(?P<estale>Stale file handle)|(?P<edquot>Disk quota exceeded)"
)

# CUDA error texts: (needle, name, category, immediate, requeue, exclude)
_CUDA_KINDS: tuple[tuple[str, str, Category, bool, bool | None, bool], ...] = (
    ("illegal memory access", "cuda_illegal_address", APPLICATION, True, None, False),
    ("uncorrectable ECC", "cuda_ecc", GPU, True, True, True),
    ("ECC error", "cuda_ecc", GPU, True, True, True),
    ("NVLink", "cuda_nvlink", GPU, True, True, True),
    ("unspecified launch failure", "cuda_launch_failure", GPU, True, True, False),
    ("launch timed out", "cuda_launch_timeout", GPU, True, True, False),
    ("out of memory", "cuda_oom", APPLICATION, False, None, False),
    ("device-side assert", "cuda_device_assert", APPLICATION, True, None, False),
    ("no kernel image", "cuda_no_kernel_image", APPLICATION, True, False, False),
    ("no CUDA-capable device", "cuda_no_device", NODE, True, True, True),
    ("busy or unavailable", "cuda_device_unavailable", NODE, True, True, True),
    ("initialization error", "cuda_init", GPU, True, True, False),
)
# NVRx's re-run state machine exit codes (seed 004): 16 asks for a run on other hardware,
# 17 says result validation failed and the job must not continue.
_EXIT_CODE_ADVICE: dict[int, tuple[Category, bool | None, bool]] = {
    16: (GPU, True, True),
    17: (APPLICATION, False, False),
}


def _nodes_for(text: str, names: NodeNames, *captured: str | None) -> tuple[str, ...]:
    found = list(names.find(text))
    for host in captured:
        if host and host not in found and (not names or host in names):
            found.append(host)
    return tuple(found)


def detect_crash(line: str, names: NodeNames | None = None) -> Signal | None:
    """The crash signal on `line`, or None. Call only for lines that pass `may_matter`."""
    names = names or _NO_NAMES
    rank, _, text = split_prefix(line)

    if "CANCELLED" in text:
        m = _SLURM_CANCEL.search(text)
        if m is not None:
            return _slurm_cancel(m, line, rank)
    if "srun: error" in text:
        m = _SRUN_NODE_FAIL.search(text)
        if m is not None:
            host = m["host"]
            return Signal(
                "srun_node_failure", NODE, f"srun: node failure on {host}", line, True,
                _nodes_for(text, names, host), rank, True, True,
            )  # fmt: skip
        m = _SRUN_TASK.search(text)
        if m is not None:
            return _srun_task(m, line, names, text)
    if "Xid" in text:
        xid = parse_xid(text)
        if xid is not None:
            info = xid.info
            if not info.fatal:
                return None  # informational (row remap recorded, SBE rate): no crash
            return Signal(
                "xid", info.category, f"Xid {xid.code}: {info.meaning}", line, True,
                _nodes_for(text, names, xid.host), rank, info.requeue, info.exclude,
                detail=str(xid.code),
            )  # fmt: skip
    m = _CUDA.search(text) if "CUDA" in text or "cuda" in text else None
    if m is not None:
        return _cuda(m, line, rank, text, names)
    if _CUDA_OOM.search(text):
        return Signal(
            "cuda_oom", APPLICATION, "CUDA out of memory", line, False,
            names.find(text), rank,
        )  # fmt: skip
    if "NCCL" in text or "nccl" in text or "NET/IB" in text:
        signal = _nccl(line, rank, text, names)
        if signal is not None:
            return signal
    if "ChildFailedError" in text and _CHILD_FAILED.search(text):
        return Signal(
            "torch_child_failed", UNKNOWN, "torch elastic: a worker process failed", line, True,
            names.find(text), rank, victim=True,
        )  # fmt: skip
    if "oom" in text or "emory" in text:
        m = _HOST_OOM.search(text)
        if m is not None:
            what = f"host out of memory: {m.group(0)}"
            return Signal(
                "host_oom", APPLICATION, what, line, False, names.find(text), rank,
                detail=m["proc"] or "",
            )  # fmt: skip
    m = _SEGV.search(text)
    if m is not None:
        return Signal(
            "segfault", APPLICATION, f"process crashed: {m.group(0)}", line, True,
            names.find(text), rank,
        )  # fmt: skip
    m = _STORAGE.search(text)
    if m is not None:
        which = m.lastgroup or "eio"
        return Signal(
            f"storage_{which}", STORAGE, f"storage error: {m.group(0)}", line, False,
            names.find(text), rank,
        )  # fmt: skip
    return None


def _slurm_cancel(m: re.Match[str], line: str, rank: int | None) -> Signal:
    why = (m["why"] or "").strip()
    what = f"Slurm cancelled {m['id']}" + (f" due to {why.lower()}" if why else "")
    if why == "NODE FAILURE":
        # The host named is where slurmstepd runs (the batch host), not the failed node: the
        # caller learns which node failed from Slurm.
        return Signal("slurm_node_failure", NODE, what, line, True, (), rank, True)
    if why == "TIME LIMIT":
        return Signal("slurm_time_limit", SCHEDULER, what, line, True, (), rank)
    if why == "PREEMPTION":
        return Signal("slurm_preempted", SCHEDULER, what, line, True, (), rank, True)
    return Signal("slurm_cancelled", SCHEDULER, what, line, True, (), rank, detail=why)


def _srun_task(m: re.Match[str], line: str, names: NodeNames, text: str) -> Signal:
    host, tasks, what = m["host"], m["tasks"].strip(), m["what"]
    nodes = _nodes_for(text, names, host)
    first_task = int(_TASK_SEP.split(tasks, maxsplit=1)[0])
    summary = f"srun: {host} task {tasks}: {what}"
    code = _EXIT_CODE.search(what)
    if code is not None:
        exit_code = int(code[1])
        category, requeue, exclude = _EXIT_CODE_ADVICE.get(exit_code, (APPLICATION, None, False))
        return Signal(
            "srun_task_exit", category, summary, line, True, nodes, first_task, requeue, exclude,
            detail=f"exit {exit_code}",
        )  # fmt: skip
    if "Segmentation fault" in what or "Bus error" in what or "Aborted" in what:
        return Signal("srun_task_crash", APPLICATION, summary, line, True, nodes, first_task,
                      detail=what)  # fmt: skip
    if "Out Of Memory" in what:
        return Signal("host_oom", APPLICATION, summary, line, True, nodes, first_task,
                      detail=what)  # fmt: skip
    # Killed / Terminated: srun kills the other tasks once one has failed.
    return Signal("srun_task_killed", UNKNOWN, summary, line, True, nodes, first_task,
                  victim=True, detail=what)  # fmt: skip


def _cuda(
    m: re.Match[str], line: str, rank: int | None, text: str, names: NodeNames
) -> Signal | None:
    msg = m["msg"] or m["code"] or ""
    for needle, name, category, immediate, requeue, exclude in _CUDA_KINDS:
        if needle in msg or needle in text:
            return Signal(
                name, category, f"CUDA error: {msg}", line, immediate, names.find(text), rank,
                requeue, exclude, detail=msg,
            )  # fmt: skip
    if "CUDA error: " not in text and m["code"] is None:
        return None
    return Signal("cuda_error", GPU, f"CUDA error: {msg}", line, False, names.find(text), rank,
                  detail=msg)  # fmt: skip


def _nccl(line: str, rank: int | None, text: str, names: NodeNames) -> Signal | None:
    prefix = _NCCL_HOST.search(text)
    host = prefix["host"] if prefix is not None else None
    if "Watchdog" in text and _NCCL_WATCHDOG.search(text):
        # The reporting rank waited for a collective that another rank never joined: it is the
        # one that noticed, rarely the cause. The watchdog then takes the process down.
        return Signal(
            "nccl_watchdog_timeout", NETWORK, "NCCL watchdog: collective operation timeout",
            line, True, _nodes_for(text, names, host), rank, True, victim=True,
        )  # fmt: skip
    m = _NCCL_IB.search(text)
    if m is not None:
        # IB error 12 is IBV_WC_RETRY_EXC_ERR (transport retries exhausted): a link or a peer.
        return Signal(
            "nccl_ib_completion_error", NETWORK,
            f"NCCL IB completion error {m['err']} from peer {m['peer']}", line, False,
            _nodes_for(text, names, host), rank, True, detail=f"error {m['err']}",
        )  # fmt: skip
    m = _NCCL_ERR.search(text)
    if m is None:
        return None
    kind = m["kind"]
    # "remote process exited": this rank lost a peer; the peer's own failure is the cause.
    victim = "remote process" in text or "ncclRemoteError" in text
    category = GPU if "cuda" in kind.lower() else APPLICATION if "usage" in kind else NETWORK
    return Signal(
        "nccl_error", category, f"NCCL error: {kind}", line, False,
        _nodes_for(text, names, host), rank, None if category == APPLICATION else True,
        victim=victim, detail=kind,
    )  # fmt: skip


_NO_NAMES = NodeNames(())


# --- Python tracebacks ----------------------------------------------------------------------

_TRACEBACK_START = "Traceback (most recent call last):"
# `torch.OutOfMemoryError: CUDA out of memory`, `RuntimeError: x`, `KeyboardInterrupt`
_EXCEPTION = re.compile(
    r"(?P<type>(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt|Exit|Failure"
    r"|Warning|Timeout))(?::\s*(?P<msg>.*))?$"
)
# Raised by code that cannot run at all: the same error recurs on every attempt.
_DETERMINISTIC = frozenset(
    {
        "SyntaxError",
        "IndentationError",
        "TabError",
        "ImportError",
        "ModuleNotFoundError",
        "NameError",
        "UnboundLocalError",
        "NotImplementedError",
    }
)
_NOT_A_CRASH = frozenset({"KeyboardInterrupt", "SystemExit", "GeneratorExit"})
# PyTorch's messages for tensors of the wrong shape: the model or its configuration is wrong, and
# the same step fails the same way after every requeue.
_SHAPE_ERRORS = (
    "shape mismatch",
    "size mismatch",
    "shapes cannot be multiplied",
    "must match the size of tensor",
)


def exception_signal(
    exc_type: str, message: str, line: str, rank: int | None, names: NodeNames | None = None
) -> Signal | None:
    """Classify the final `Type: message` line of a Python traceback."""
    short = exc_type.rsplit(".", 1)[-1]
    if short in _NOT_A_CRASH or short.endswith("Warning"):
        return None
    nodes = (names or _NO_NAMES).find(line)
    if short == "ChildFailedError":  # torchrun's report that a worker failed: see the worker's
        return Signal(
            "torch_child_failed", UNKNOWN, "torch elastic: a worker process failed", line, True,
            nodes, rank, victim=True, detail=exc_type,
        )  # fmt: skip
    summary = f"Python exception {exc_type}" + (f": {message[:200]}" if message else "")
    inner = detect_crash(message, names) if message else None
    if inner is not None:  # RuntimeError: CUDA error: ..., DistBackendError: NCCL error ...
        return Signal(
            inner.name, inner.category, summary, line, inner.immediate, inner.nodes or nodes,
            rank, inner.requeue, inner.exclude, inner.victim, detail=exc_type,
        )  # fmt: skip
    if short in _DETERMINISTIC or any(text in message for text in _SHAPE_ERRORS):
        return Signal("python_exception", APPLICATION, summary, line, False, nodes, rank, False,
                      detail=exc_type)  # fmt: skip
    if short in {"DistNetworkError", "DistBackendError", "DistStoreError"}:
        return Signal("python_exception", NETWORK, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    if "errno 5]" in message.lower() or "errno 116]" in message.lower():
        return Signal("python_exception", STORAGE, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    return Signal("python_exception", APPLICATION, summary, line, False, nodes, rank,
                  detail=exc_type)  # fmt: skip


class Traceback:
    """Follows Python tracebacks per rank (ranks' lines interleave) to their exception line.

    State is one small entry per rank currently inside a traceback; a traceback that never
    reaches an exception line is dropped after `max_lines` of that rank's lines.
    """

    def __init__(self, *, max_lines: int = 400, max_open: int = 4096) -> None:
        self._open: dict[int | None, tuple[str, int]] = {}  # rank -> (first line, lines seen)
        self._max_lines = max_lines
        self._max_open = max_open
        self.active = False  # some rank is inside a traceback (a plain attribute: read per line)
        # The last line fed was a traceback's own (its start, a frame, source, a separator):
        # other detectors must not read it (source lines quote e.g. `raise ChildFailedError(`).
        self.consumed = False

    def feed(self, line: str, names: NodeNames | None = None) -> Signal | None:
        """Consume one line; return a signal when it ends a traceback with an exception."""
        try:
            return self._feed(line, names)
        finally:
            self.active = bool(self._open)

    def _feed(self, line: str, names: NodeNames | None) -> Signal | None:
        self.consumed = False
        if not self._open and "Traceback" not in line:
            return None
        rank, label, text = split_prefix(line)
        key = label if label is not None else rank
        if text.startswith(_TRACEBACK_START) or text.endswith(_TRACEBACK_START):
            if len(self._open) >= self._max_open:
                self._open.pop(next(iter(self._open)))
            self._open[key] = (line, 0)
            self.consumed = True
            return None
        state = self._open.get(key)
        if state is None:
            return None
        head, seen = state
        if seen >= self._max_lines:
            del self._open[key]
            return None
        # Frames ("  File ...", code lines) are indented; chained tracebacks add a blank line
        # and a sentence ("During handling ...", "The above exception ...") before their own
        # "Traceback" line.
        stripped = text.strip()
        if (
            not stripped
            or text[:1] in " \t^~"
            or stripped.startswith(("During handling", "The above exception"))
        ):
            self._open[key] = (head, seen + 1)
            self.consumed = True
            return None
        m = _EXCEPTION.match(stripped)
        if m is None:
            self._open[key] = (head, seen + 1)
            return None
        del self._open[key]
        return exception_signal(m["type"], m["msg"] or "", line, rank, names)


# --- progress -------------------------------------------------------------------------------

# Progress lines are the most frequent interesting lines, so fields are found with str.find and
# read with an anchored match at that spot (several times cheaper than a regex search each).
_NUM_AFTER_ITERATION = re.compile(r"\s*[:=#]?\s*(\d+)")  # "iteration 30/..", "iteration=30"
_NUM_AFTER_TFLOP = re.compile(r"[^:=|]{0,40}[:=]\s*([\d.]+)")  # "TFLOP/s/GPU): 386.7"
_NUM_AFTER_LOSS = re.compile(  # "lm loss: 2.3E+00", "loss value: nan", "train_loss=inf"
    r"(?: value)?\s*[:=]\s*([-+]?(?:[Nn]a[Nn]|[Ii]nf|[\d.]+(?:[eE][-+]?\d+)?))"
)
_NUM = re.compile(r"\s*([\d.]+)")
_ELAPSED_KEY = "elapsed time per iteration (ms):"
_NAN_KEY = "number of nan iterations:"


class Progress(NamedTuple):
    """A training progress report (Megatron, NeMo, the AJR telemetry library, or TFLOP lines)."""

    iteration: int | None = None
    tflops: float | None = None
    loss: float | None = None
    elapsed_ms: float | None = None  # Megatron's "elapsed time per iteration (ms)"
    nan_iterations: int | None = None


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


def parse_progress(text: str) -> Progress | None:
    """The progress report on `text`, or None (checkpoint lines are not progress)."""
    has_tflop = "TFLOP" in text
    if "iteration" not in text and not has_tflop:
        return None
    if "heckpoint" in text or "CHECKPOINT" in text:
        return None  # "saving checkpoint at iteration N" is a save, not a step
    # "iterations: 3" (Megatron's "number of skipped iterations") is no iteration number: a
    # digit must follow "iteration" directly.
    iteration = _field(text, "iteration", _NUM_AFTER_ITERATION)
    tflops = _field(text, "TFLOP", _NUM_AFTER_TFLOP) if has_tflop else None
    if iteration is None and tflops is None:
        return None
    loss = _field(text, "loss", _NUM_AFTER_LOSS) or _field(text, "Loss", _NUM_AFTER_LOSS)
    elapsed = _field(text, _ELAPSED_KEY, _NUM, 1) if "elapsed" in text else None
    nans = _field(text, _NAN_KEY, _NUM, 1) if "nan iter" in text else None
    return Progress(
        int(iteration) if iteration is not None else None,
        _float(tflops) if tflops is not None else None,
        _float(loss) if loss is not None else None,
        _float(elapsed) if elapsed is not None else None,
        int(float(nans)) if nans is not None else None,
    )


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


# --- checkpoints ----------------------------------------------------------------------------

_CKPT_SAVED = re.compile(
    r"successfully saved checkpoint (?:from|at) iteration\s+(?P<iteration>\d+)"
)
_CKPT_START = re.compile(r"saving checkpoint at iteration\s+(?P<iteration>\d+)")
_ANY_ITERATION = re.compile(r"iteration\D{0,5}?(\d+)", re.IGNORECASE)
# A save that has begun, in the words frameworks use; it opens the checkpoint phase (a long
# silence is normal there) and counts as nothing until a completion line follows. Completion
# forms are tried first, so "finished saving checkpoint" is never a start.
_CKPT_BEGIN = re.compile(
    r"\b(?:saving|writing|storing|persisting)\b(?:(?!\btook\b).){0,40}?\bcheck-?points?\b"
    r"|\bcheck-?point(?:ing)?\b(?:(?!\btook\b).){0,60}?"
    r"\b(?:is about to be saved|save (?:for step \d+ )?(?:started|begins?|in progress)"
    r"|saving started)"
    r"|^\W*checkpointing\b(?! (?:done|finished|complete))",
    re.IGNORECASE,
)
_CKPT_DONE_WORDS = re.compile(
    r"(?<!to be )\bsaved\b|\b(?:finished|completed?|done|finalized|took)\b", re.IGNORECASE
)
_ANY_STEP = re.compile(r"(?:iteration|step)\D{0,5}?(\d+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CheckpointEvent:
    saved: bool  # False: a save started ("saving checkpoint at iteration N")
    iteration: int | None = None
    pattern: str = ""


class CheckpointMatcher:
    """Recognises checkpoint saves: Megatron's lines, the seeds' defaults, site patterns.

    A site pattern may name the iteration with `(?P<iteration>\\d+)`; otherwise a number after
    the word "iteration" on the line is used, if any. `start_patterns` are site forms of a save
    that has begun (they open the checkpoint phase and count as no save).
    """

    def __init__(self, patterns: Iterable[str] = (), start_patterns: Iterable[str] = ()) -> None:
        extra = [p for p in patterns if p not in DEFAULT_CHECKPOINT_PATTERNS]
        self._defaults = tuple((p, re.compile(p)) for p in DEFAULT_CHECKPOINT_PATTERNS)
        self._extra = tuple((p, re.compile(p)) for p in extra)
        self._start = tuple((p, re.compile(p)) for p in start_patterns)

    @property
    def has_site_patterns(self) -> bool:
        """Site patterns may match lines the prefilter rejects: the engine must try them all."""
        return bool(self._extra or self._start)

    def match(self, text: str) -> CheckpointEvent | None:
        if "heckpoint" in text or "CHECKPOINT" in text:
            m = _CKPT_SAVED.search(text)
            if m is not None:
                return CheckpointEvent(True, int(m["iteration"]), "megatron")
            m = _CKPT_START.search(text)
            if m is not None:
                return CheckpointEvent(False, int(m["iteration"]), "megatron")
            for source, pattern in self._defaults:
                m = pattern.search(text)
                if m is not None:
                    return CheckpointEvent(True, _iteration_of(m, text), source)
        for source, pattern in self._extra:
            m = pattern.search(text)
            if m is not None:
                return CheckpointEvent(True, _iteration_of(m, text), source)
        for source, pattern in self._start:
            m = pattern.search(text)
            if m is not None:
                return CheckpointEvent(False, _iteration_of(m, text), source)
        if "heckpoint" in text or "HECKPOINT" in text:
            m = _CKPT_BEGIN.search(text)
            if m is not None and not _CKPT_DONE_WORDS.search(text):
                it = _ANY_STEP.search(text)
                return CheckpointEvent(False, int(it[1]) if it else None, "save-start")
        return None


# --- phases other than training (a long silence is normal there) ---------------------------

EVALUATING, LOADING = "evaluating", "loading"
_PHASE_MARKER = re.compile(
    r"(?P<eval>\*+ Running (?:Evaluation|Prediction) \*+|\b(?:Running|Starting|Begin(?:ning)?)"
    r" (?:the )?(?:evaluation|validation|eval)\b|^\W*(?:Evaluating|Validating)\b"
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


def _iteration_of(m: re.Match[str], text: str) -> int | None:
    if "iteration" in m.re.groupindex and m["iteration"]:
        return int(m["iteration"])
    it = _ANY_ITERATION.search(text)
    return int(it[1]) if it else None


# --- stragglers (NVRx reports, seed 004) ----------------------------------------------------

_RANK_NODE = re.compile(r"Rank=(?P<rank>\d+) Node=(?P<node>\S+) Score=(?P<score>[\d.]+)")
_STRAGGLER_WARNING = re.compile(
    r"STRAGGLER DETECTION WARNING: (?P<what>.*?)Affected ranks: \[(?P<ranks>[\d,\s]*)\]"
)
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class StragglerReport:
    ranks: tuple[int, ...] = ()  # ranks a WARNING line names
    rank_node: tuple[int, str, float] | None = None  # one "Rank=N Node=X Score=S" row
    what: str = ""


def parse_straggler(text: str) -> StragglerReport | None:
    if "Rank=" in text:
        m = _RANK_NODE.search(text)
        if m is not None:
            return StragglerReport(rank_node=(int(m["rank"]), m["node"], float(m["score"])))
    if "STRAGGLER" in text:
        m = _STRAGGLER_WARNING.search(text)
        if m is not None:
            ranks = tuple(int(r) for r in _DIGITS.findall(m["ranks"]))
            return StragglerReport(ranks=ranks, what=m["what"].strip().rstrip("."))
    return None


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
