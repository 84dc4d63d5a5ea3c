"""Failure signals on single log lines: what failed, its root-cause category, how sure, where.

`detect_crash(line)` reads one line (launcher prefixes may still be on it) and returns a
`Signal` or None; `Traceback` follows Python tracebacks across lines to their exception line.
Everything here is pure and per line; the engine keeps the state across lines.

The categories follow tests/corpus/LABELLING.md: the first failure is the cause, its victims
(ranks that time out or lose their peer because of it) are marked so; a collective that never
completed means the job hung; a deterministic application error is not worth a requeue.
Messages are recognised by the words the software that prints them uses (Slurm, LSF, PBS, the
NVIDIA driver, CUDA, NCCL, gloo, torch.distributed, Python, the kernel), not by one log's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from analysis.lines import split_prefix
from analysis.xid import XID_TABLE, parse_xid
from models.categories import Category

GPU, NODE, NETWORK, STORAGE = Category.GPU, Category.NODE, Category.NETWORK, Category.STORAGE
APPLICATION, SCHEDULER, UNKNOWN = Category.APPLICATION, Category.SCHEDULER, Category.UNKNOWN


@dataclass(frozen=True, slots=True)
class Signal:
    """One line that says something failed."""

    name: str  # a stable id, e.g. "segfault", "xid", "collective_timeout"
    category: Category
    summary: str
    line: str
    immediate: bool  # unambiguous: act now; otherwise wait to see whether training goes on
    nodes: tuple[str, ...] = ()  # nodes the line names (job nodes or hosts a pattern captured)
    rank: int | None = None
    requeue: bool | None = None  # None: as the category says (an application error: False)
    exclude: bool = False  # the named nodes are suspect hardware: keep them out
    victim: bool = False  # the usual consequence of another rank's failure, not a cause
    detail: str = ""  # exception type, Xid code, exit code, ...
    hang: bool = False  # a collective or a rendezvous never completed: the job hangs
    fatal: bool = True  # False: a warning that may precede a crash or a hang, or nothing
    peer_lost: bool = False  # a connection the other end reset or closed (its death, maybe)

    @property
    def outside_stop(self) -> bool:
        """The batch system or a person told the job to stop (a time limit, a preemption, a
        SIGTERM): the attempt ends soon, whatever it does meanwhile (a grace period's saves)."""
        return self.category is SCHEDULER and self.name != "step_launch_failed"

    @property
    def requeue_helps(self) -> bool:
        return self.requeue if self.requeue is not None else self.category.requeue_helps

    @property
    def teardown(self) -> bool:
        """Only the way a process ends (abort(), an uncaught C++ exception): the cause is on
        another line, before or after it; NCCL's watchdog, for one, takes its process down so."""
        return self.name in _TEARDOWN

    @property
    def cause_elsewhere(self) -> bool:
        """A death whose cause, if the log has it, is another line: a teardown, or a process
        another one reports dead without saying why (Ray's raylet)."""
        return self.name in _TEARDOWN or self.name == "worker_died"


_TEARDOWN = frozenset({"aborted", "cpp_exception"})


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


_NO_NAMES = NodeNames(())


def _nodes_for(text: str, names: NodeNames, *captured: str | None) -> tuple[str, ...]:
    found = list(names.find(text))
    for host in captured:
        if host and host not in found and (not names or host in names):
            found.append(host)
    return tuple(found)


# --- schedulers: Slurm, LSF, PBS, SGE, cloud preemption --------------------------------------

# "*** JOB 123 ON node1 CANCELLED AT 2024-07-30T14:21:44 DUE TO TIME LIMIT ***"; older Slurm
# wrote "*** JOB 123 CANCELLED AT ... DUE TO TIME LIMIT on node1 ***".
_SLURM_CANCEL = re.compile(
    r"\*\*\* (?:JOB|STEP) (?P<id>\S+) (?:ON (?P<host>\S+) )?CANCELLED AT (?P<at>\S+)"
    r"(?: DUE TO (?P<why>[A-Z][A-Z _]*?)(?:, [^*]*?)?)?(?: on (?P<host2>\S+))?(?: \*\*\*|\s*$)"
)
# slurmstepd could not kill the job's processes (stuck in the kernel, usually on I/O or a GPU
# driver): Slurm drains that node ("Kill task failed").
_STEPD_KILL_FAILED = re.compile(
    r"\*\*\* (?:JOB|STEP) \S+ STEPD TERMINATED ON (?P<host>\S+) AT \S+ DUE TO JOB NOT ENDING WITH"
    r" SIGNALS"
)
_LSF_TERM = re.compile(r"\bTERM_(?P<why>[A-Z_]+): (?P<what>.*)")
_LSF_SCHEDULER = frozenset(
    {"RUNLIMIT", "PREEMPT", "CPULIMIT", "REQUEUE_ADMIN", "REQUEUE_OWNER", "ADMIN", "FORCE_ADMIN"}
)
_WALLTIME = re.compile(
    r"walltime \S+ exceeded limit|exceeded its walltime|walltime limit|h_rt (?:limit )?exceeded"
    r"|job killed: (?:walltime|cput)|DUE TO TIME LIMIT|exceeded (?:its )?wallclock limit",
    re.IGNORECASE,
)
# PBS/Torque: the server's record of a deletion ("Job deleted at request of root@sched1"): by an
# administrator or the scheduler a site-side kill; by the user, a cancel that names no cause. A
# reason stated with it (a node failure, a limit) is the cause (attribution ranks it after them).
_PBS_DELETED = re.compile(r"[Jj]ob deleted at request of (?P<who>[\w.-]+)@")
# PBS reports a job killed by signal N as exit status 256 + N: 271 is SIGTERM from the batch
# system (qdel, preemption, a limit), i.e. the site ended it.
_PBS_SIGTERM = re.compile(r"Exit[_ ]Status:?\s*=?\s*271\b|Linux Signal 15 SIGTERM")
_PREEMPTION = re.compile(
    # (not in advice: JAX's "check ... scheduler events (e.g. preemption, eviction)")
    r"(?<!e\.g\. )\bpreempt(?:ed|ion)\b(?! ?(?:enabled|disabled|mode|policy|support|grace))"
    r"(?!,? or crashed)"
    r"|termination is imminent|spot (?:instance )?(?:interruption|termination)"
    # torch elastic's agent: "Received 15 death signal, shutting down workers" (older releases
    # name it "Signals.SIGTERM"), then its "SignalException: Process 7 got signal: 15"; SIGHUP
    # (1) when the session it was started from went away. SIGINT (2) is a person's Ctrl-C, often
    # at a job that had hung: what it stopped says more than the signal.
    r"|Received (?:Signals\.)?(?:SIGTERM|SIGHUP|15|1) death signal|\breceived (?:signal )?SIGTERM\b"
    r"|Received signal 15\b|\bgot signal: (?:15|1)\b"
    r"|\bcaught signal SIGUSR[12]\b|Caught signal SIGUSR[12]|\breceived (?:signal )?SIGUSR[12]\b"
    # torch elastic's record of a worker a SIGUSR1/2 ended ("Signal 10 (SIGUSR1) received by PID
    # 18523"): nothing in the job sends those; Slurm's --signal and LSF do
    r"|Signal 1[02] \(SIGUSR[12]\) received by PID"
    # the shell's word for a process killed by SIGUSR1/2: what LSF sends at its run limit and
    # Slurm's --signal before the time limit
    r"|^User defined signal [12]$"
    r"|\bwas requested to terminate\b|received (?:a )?termination request"
    # Ray's autoscaler on a node the platform takes away ("Instance k-1a5e (node IP: 10.1.140.199)
    # will be terminated soon (reason: kubernetes-pod-termination)"); not one it found idle
    r"|will be terminated soon \(reason: [^)]*(?:preempt|terminat|spot|interrupt|evict)",
    re.IGNORECASE,
)

_NAMES_PREEMPTION = re.compile(r"preempt|imminent|spot|terminated soon", re.IGNORECASE)


def _slurm_cancel(m: re.Match[str], line: str, rank: int | None) -> Signal:
    why = (m["why"] or "").strip()
    what = f"Slurm cancelled {m['id']}" + (f" due to {why.lower()}" if why else "")
    if why == "NODE FAILURE":
        # The host named is where slurmstepd runs (the batch host), not the failed node: the
        # caller learns which node failed from Slurm.
        return Signal("slurm_node_failure", NODE, what, line, True, (), rank, True)
    if why == "TIME LIMIT":
        return Signal("slurm_time_limit", SCHEDULER, what, line, True, (), rank, True)
    if why in ("PREEMPTION", "JOB REQUEUE"):
        return Signal("slurm_preempted", SCHEDULER, what, line, True, (), rank, True)
    if why:
        return Signal("slurm_cancelled", SCHEDULER, what, line, True, (), rank, detail=why)
    if m.group(0).startswith("*** JOB"):
        # The whole job cancelled without a reason: scancel, by its user or an operator. Still
        # a victim (a failure before it is the cause); with none, the scheduler's (attribution).
        return Signal("slurm_step_cancelled", UNKNOWN, what, line, False, (), rank, victim=True,
                      detail="job")  # fmt: skip
    # No reason: a person's scancel, or srun ending the step after one of its tasks failed
    # (srun's own "task N: Killed" goes to the batch log, not the step's): either way the cause,
    # if any, is elsewhere in the log; the job's own cancel line with its reason (preemption,
    # time limit) often follows the step's within seconds: wait for it.
    return Signal("slurm_step_cancelled", UNKNOWN, what, line, False, (), rank, victim=True)


def _scheduler(text: str, line: str, rank: int | None) -> Signal | None:
    if "STEPD TERMINATED" in text:
        m = _STEPD_KILL_FAILED.search(text)
        if m is not None:
            return Signal("slurm_kill_failed", NODE, f"processes would not die on {m['host']}",
                          line, True, (m["host"],), rank, True, True)  # fmt: skip
    if "CANCELLED" in text:
        m = _SLURM_CANCEL.search(text)
        if m is not None:
            return _slurm_cancel(m, line, rank)
    if "TERM_" in text:
        m = _LSF_TERM.search(text)
        if m is not None:
            why = m["why"]
            if why in _LSF_SCHEDULER:
                return Signal("lsf_" + why.lower(), SCHEDULER, f"LSF: {m['what'][:150]}", line,
                              True, (), rank, True)  # fmt: skip
            if why in ("MEMLIMIT", "SWAP"):
                return Signal("lsf_memlimit", NODE, f"LSF: {m['what'][:150]}", line, True, (),
                              rank, True)  # fmt: skip
    if "eleted at request" in text:
        m = _PBS_DELETED.search(text)
        if m is not None:
            what = f"job deleted at request of {m['who']}"
            if m["who"] == "root":
                return Signal("job_deleted", SCHEDULER, what, line, False, (), rank, True)
            return Signal("job_deleted", UNKNOWN, what, line, False, (), rank, victim=True)
    if "Status" in text and ("271" in text or "Linux Signal" in text):
        m = _PBS_SIGTERM.search(text)
        if m is not None:
            return Signal("batch_sigterm", SCHEDULER, f"terminated by the batch system: "
                          f"{m.group(0)}", line, False, (), rank, True)  # fmt: skip
    if "alltime" in text or "h_rt" in text or "allclock" in text:
        m = _WALLTIME.search(text)
        if m is not None:
            return Signal("walltime", SCHEDULER, f"time limit: {text.strip()[:150]}", line, True,
                          (), rank, True)  # fmt: skip
    if (
        "reempt" in text
        or "erminat" in text
        or "SIG" in text
        or "ignal 15" in text
        or "ignal: 1" in text
        or "death signal" in text
        or "efined signal" in text
    ):
        m = _PREEMPTION.search(text)
        if m is not None and re.search(r"node fail", text, re.IGNORECASE):
            return Signal("node_failure", NODE, f"node failure: {text.strip()[:150]}", line,
                          True, (), rank, True, True)  # fmt: skip
        if m is not None:
            # "preemption"/"spot interruption" names the cause; a bare SIGTERM does not
            named = "preemption" if _NAMES_PREEMPTION.search(m.group(0)) else ""
            return Signal("preempted", SCHEDULER, f"stopped from outside: {m.group(0)}", line,
                          False, (), rank, True, detail=named)  # fmt: skip
    return None


# --- srun, slurmstepd, munge ----------------------------------------------------------------

_SRUN_TASK = re.compile(
    r"srun: error: (?P<host>[A-Za-z0-9][\w.-]*): tasks? (?P<tasks>[\d,\s-]+): (?P<what>.+?)\s*$"
)
_SRUN_NODE_FAIL = re.compile(
    r"(?:srun|salloc|sbatch): error: Node failure on (?P<host>[A-Za-z0-9][\w.-]*)"
)
_TASK_LAUNCH = re.compile(
    r"Task launch for \S+ failed on node (?P<host>\[?[A-Za-z0-9][\w.-]*\]?): (?P<why>.+)"
)
# srun could not place the step's tasks on the CPUs it was given: the request and Slurm's
# configuration (task/affinity, cpu binding), not a node's health. A requeue is Slurm's to try.
_STEP_LAYOUT = re.compile(
    r"Unable to layout tasks|failed to distribute tasks|Requested node configuration is not"
    r" available|Unable to (?:create step|allocate resources)"
)
_EXIT_CODE = re.compile(r"Exited with exit code (\d+)")
_TASK_SEP = re.compile(r"[,\s-]")
_CREDENTIAL = re.compile(
    r"Invalid job credential|Job credential expired|Munge (?:decode|encode) failed"
    r"|Unable to (?:create|verify) job credential|Zero Bytes were transmitted or received"
)
_STEPD_NODE = re.compile(
    r"slurmstepd(?:-\S+)?: error: (?:execve\(\): \S*slurm_script|"
    r"Unable to create TMPDIR|.*Kill task failed|.*Node configuration differs)"
)
# NVRx's re-run state machine exit codes (seed 004): 16 asks for a run on other hardware, 17
# says result validation failed and the job must not continue; 93 is NVRx's "do not restart".
_EXIT_CODE_ADVICE: dict[int, tuple[Category, bool, bool]] = {
    16: (GPU, True, True),
    17: (APPLICATION, False, False),
    93: (APPLICATION, False, False),
}


def _srun(text: str, line: str, names: NodeNames) -> Signal | None:
    m = _SRUN_NODE_FAIL.search(text)
    if m is not None:
        host = m["host"]
        return Signal("srun_node_failure", NODE, f"srun: node failure on {host}", line, True,
                      _nodes_for(text, names, host), None, True, True)  # fmt: skip
    m = _STEP_LAYOUT.search(text)
    if m is not None:
        return Signal("step_launch_failed", SCHEDULER, f"srun could not launch the step: "
                      f"{m.group(0)}", line, True, (), None, True)  # fmt: skip
    m = _TASK_LAUNCH.search(text)
    if m is not None:
        host = m["host"]
        return Signal("task_launch_failed", NODE, f"task launch failed on {host}: {m['why']}",
                      line, True, _nodes_for(text, names, host), None, True, True)  # fmt: skip
    m = _SRUN_TASK.search(text)
    if m is not None:
        return _srun_task(m, line, names, text)
    return None


def _srun_task(m: re.Match[str], line: str, names: NodeNames, text: str) -> Signal:
    host, tasks, what = m["host"], m["tasks"].strip(), m["what"]
    nodes = _nodes_for(text, names, host)
    first_task = int(_TASK_SEP.split(tasks, maxsplit=1)[0])
    summary = f"srun: {host} task {tasks}: {what}"
    code = _EXIT_CODE.search(what)
    if code is not None:
        exit_code = int(code[1])
        if exit_code in _EXIT_CODE_ADVICE:
            category, requeue, exclude = _EXIT_CODE_ADVICE[exit_code]
            return Signal("srun_task_exit", category, summary, line, True, nodes, first_task,
                          requeue, exclude, detail=f"exit {exit_code}")  # fmt: skip
        # The task's own output says why; this line only says that it failed.
        return Signal("srun_task_exit", UNKNOWN, summary, line, True, nodes, first_task,
                      victim=True, detail=f"exit {exit_code}")  # fmt: skip
    if "Bus error" in what:
        return Signal("srun_task_crash", NODE, summary, line, True, nodes, first_task,
                      detail=what)  # fmt: skip
    if "Segmentation fault" in what or "Aborted" in what:
        return Signal("srun_task_crash", UNKNOWN, summary, line, True, nodes, first_task,
                      detail=what)  # fmt: skip
    if "Out Of Memory" in what:
        return Signal("host_oom", NODE, summary, line, True, nodes, first_task, detail=what)
    # Killed / Terminated: srun kills the other tasks once one has failed.
    return Signal("srun_task_killed", UNKNOWN, summary, line, True, nodes, first_task,
                  victim=True, detail=what)  # fmt: skip


# --- GPU: the driver, CUDA, NVLink ----------------------------------------------------------

_FALLEN = re.compile(
    r"fallen off the bus|GPU is lost|GPU (?:has )?(?:been )?lost\b|Unable to determine the device"
    r" handle for GPU|RmInitAdapter failed|GPU requires reset|NVRM: GPU at \S+ has fallen"
    r"|NVML: Driver/library version mismatch",
    re.IGNORECASE,
)
_ECC = re.compile(
    r"uncorrectable ECC|ECC error|double[- ]bit (?:ECC )?error|\bDBE\b|ECCUncorrectable"
    r"|uncorrectable (?:memory|DRAM|SRAM) error|Uncontained ECC",
    re.IGNORECASE,
)
# A TPU's driver: "[/dev/accel0 tpu1013:pe1:0] !!!! FATAL ERROR !!!! ...", "Received Error
# Interrupt! fatal: true", "... all pending programs will fail, and results may be corrupted".
# An Ascend NPU's runtime that lost its device: "tsd client wait response fail, device response
# code[1]. unknown device error.", "rtGetDevMsg execute failed, reason=[driver error:internal
# error]".
_ACCEL_FATAL = re.compile(
    r"!!!! FATAL ERROR !!!!|Received Error Interrupt! fatal: true"
    r"|error has occurred, all pending programs will fail"
    r"|reason=\[driver error:[^\]]*\]|device response code\[\d+\]\. unknown device error"
)
# The amdgpu kernel driver resetting a GPU it found hung or faulted ("amdgpu 0000:dd:00.0:
# amdgpu: GPU reset begin!", "GPU reset(2) failed", "MODE1 reset", "ring gfx_0.0.0 timeout").
_AMDGPU_RESET = re.compile(
    r"(?P<what>GPU reset begin|GPU reset\(\d+\) failed|GPU mode1 reset|MODE1 reset"
    r"|ring \S+ timeout)"
)
_NVLINK = re.compile(
    r"NVLink (?:error|fatal|failure|training failed)|uncorrectable NVLink|NVSwitch"
    r"(?: fatal| error|.*(?:error|fatal|fail))|nvlink.*(?:fatal|error detected)",
    re.IGNORECASE,
)
# CUDA runtime error numbers (cudaError_t and the legacy THC "cuda runtime error (N)") that say
# the device or driver failed, as opposed to the program.
# 802/803: the driver stack or the GPU fabric is not up (cudaErrorSystemNotReady, a driver/
# fabric-manager mismatch): the node, not the program.
_CUDA_DEVICE_CODES = frozenset({3, 30, 39, 46, 63, 64, 100, 214, 218, 219, 220, 719, 802, 803, 999})
_CUDA_APP_CODES = frozenset({2, 9, 11, 59, 74, 77, 98, 101, 209, 700, 701, 702, 710, 716})
_CUDA_RUNTIME_CODE = re.compile(
    r"cuda runtime error \((\d+)\)|error=(\d+) :|error (\d+): |[Cc]uda failure (\d+)"
    r"|cudaSuccess \((\d+) vs\. 0\)|cudaError_t (\d+) :|CUDA error (?:code )?([1-9]\d*)\b"
)
_CUDA = re.compile(
    r"CUDA error: (?P<msg>[^.\n]*?)(?:\.|$|\s*\(|\s*CUDA kernel|\s*Search for|\s*Compile with)"
    r"|(?P<code>CUDA_ERROR_[A-Z_]+|cudaError[A-Za-z]+)"
    r"|cuda runtime error \(\d+\) : (?P<legacy>[^\n]*?)(?: at |$)"
    r"|THCudaCheck FAIL .*?: (?P<thc>[^\n]*)"
    r"|(?:CUDA|Cuda) (?:failure|Error)[: ]+(?P<other>[^\n]*)"
    # glog's CHECK: "error == cudaSuccess (4 vs. 0)  unspecified launch failure", or Caffe2's
    # without the numbers: "Check failed: error == cudaSuccess unspecified launch failure", up to
    # the next thread's glog prefix when their reports run together on one line
    r"|== cudaSuccess(?: \(\d+ vs\. 0\))?\s*(?P<glog>[^\n]*?)(?=[FEWI]\d{4} \d\d:|$)"
    # Kaldi's CU_SAFE_CALL: 'cudaError_t 4 : "unspecified launch failure" returned from ...'
    r'|cudaError_t \d+ : "(?P<kaldi>[^"]*)"'
    # the number first, then its text: Marian's "CUDA error 999 'unknown error' - file:54: ..."
    r"|CUDA error (?:code )?[1-9]\d*(?::\s*['\"]?|\s+['\"])(?P<numbered>[^'\"\n]*)"
)
# CUDA error texts: (needle, name, category, immediate)
_CUDA_KINDS: tuple[tuple[str, str, Category, bool], ...] = (
    ("uncorrectable ECC", "cuda_ecc", GPU, True),
    ("ECC", "cuda_ecc", GPU, True),
    ("NVLink", "cuda_nvlink", GPU, True),
    # "An exception occurred on the device while executing a kernel" (CUDA runtime docs). Mid-run,
    # in code that ran thousands of steps before, it is the device or driver (Xid 13/31/43/79
    # in the kernel log): GPU, requeue (tests/corpus/LABELLING.md, amendment 2).
    ("unspecified launch failure", "cuda_launch_failure", GPU, True),
    ("launch timed out", "cuda_launch_timeout", GPU, True),
    ("unknown error", "cuda_unknown", GPU, True),
    ("initialization error", "cuda_init", GPU, True),
    ("system not yet initialized", "cuda_system_not_ready", GPU, True),
    ("system not ready", "cuda_system_not_ready", GPU, True),
    # 803, 804: the driver does not match the runtime or the hardware: the node's install
    ("unsupported display driver", "cuda_system_not_ready", GPU, True),
    ("forward compatibility was attempted", "cuda_system_not_ready", GPU, True),
    ("no CUDA-capable device", "cuda_no_device", GPU, True),
    ("busy or unavailable", "cuda_device_unavailable", GPU, True),
    ("GPU is lost", "cuda_gpu_lost", GPU, True),
    ("hardware stack error", "cuda_hw_stack", GPU, True),
    ("illegal memory access", "cuda_illegal_address", APPLICATION, True),
    ("illegal address", "cuda_illegal_address", APPLICATION, True),
    ("misaligned address", "cuda_misaligned", APPLICATION, True),
    ("illegal instruction", "cuda_illegal_instruction", APPLICATION, True),  # 715
    ("out of memory", "cuda_oom", APPLICATION, False),
    ("device-side assert", "cuda_device_assert", APPLICATION, True),
    ("no kernel image", "cuda_no_kernel_image", APPLICATION, True),
    ("kernel image is invalid", "cuda_no_kernel_image", APPLICATION, True),  # 200
    ("unsupported toolchain", "cuda_no_kernel_image", APPLICATION, True),  # 222: the build's
    ("stream is capturing", "cuda_graph_capture", APPLICATION, False),  # 900-906: CUDA graphs
    ("invalid device function", "cuda_bad_arch", APPLICATION, True),
    # 101: a device index beyond the node's GPUs (the launch's local-rank to GPU mapping)
    ("invalid device ordinal", "cuda_bad_ordinal", APPLICATION, True),
    ("invalid argument", "cuda_invalid_argument", APPLICATION, False),
    ("invalid configuration", "cuda_invalid_config", APPLICATION, False),
    ("operation not supported", "cuda_not_supported", APPLICATION, False),
)
# The driver API's names for the errors above (TensorFlow and other driver-API users print the
# enum: "CUDA_ERROR_LAUNCH_FAILED"), read as the runtime's words: the errors of a kernel that ran.
# Not the codes TensorFlow's start-up probe prints on a node it then runs on without a GPU
# ("failed call to cuInit: CUDA_ERROR_NO_DEVICE", CUDA_ERROR_UNKNOWN), nor its allocator's
# CUDA_ERROR_OUT_OF_MEMORY, which it retries smaller.
_CUDA_DRIVER_TEXT = {
    "CUDA_ERROR_LAUNCH_FAILED": "unspecified launch failure",
    "CUDA_ERROR_LAUNCH_TIMEOUT": "launch timed out",
    "CUDA_ERROR_HARDWARE_STACK_ERROR": "hardware stack error",
    "CUDA_ERROR_ILLEGAL_ADDRESS": "illegal memory access",
    "CUDA_ERROR_MISALIGNED_ADDRESS": "misaligned address",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION": "illegal instruction",
    "CUDA_ERROR_ASSERT": "device-side assert",
    "CUDA_ERROR_NO_BINARY_FOR_GPU": "no kernel image",
}
# MXNet's and others' allocators say it with the call's name: "cudaMalloc failed: out of memory".
_CUDA_OOM = re.compile(
    r"CUDA out of memory|OutOfMemoryError|CUBLAS_STATUS_ALLOC_FAILED"
    r"|cudaMalloc\w* (?:retry )?failed: out of memory"
)
# A device-side assertion: "...: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0` failed."
_DEVICE_ASSERT = re.compile(r"Assertion `.*` failed|block: \[\d+,\d+,\d+\], thread: \[")


def _gpu(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    nodes = names.find(text)
    if "NVRM" in text or "GPU" in text or "fallen" in text or "NVML" in text:
        m = _FALLEN.search(text)
        if m is not None:
            # The driver's or nvidia-smi's word, not the training process's: the job then hangs
            # on the GPU or dies of it (the Xid line, when there is one, is the fatal report).
            return Signal("gpu_lost", GPU, f"GPU lost: {m.group(0)}", line, False, nodes, rank,
                          True, True, fatal=False)  # fmt: skip
    if "Driver/library version mismatch" in text:
        # NVML (nvidia-smi, NCCL's "Last error: nvmlInit_v2() failed: ...", torch): the node's
        # loaded kernel module is not the installed driver's (an update without a reboot). The
        # node's install: keep it out.
        return Signal("driver_mismatch", GPU, "GPU driver/library version mismatch", line,
                      False, nodes, rank, True, True)  # fmt: skip
    if "ECC" in text or "ouble" in text or "DBE" in text or "ncorrectable" in text:
        m = _ECC.search(text)
        if m is not None:
            return Signal("ecc", GPU, f"GPU memory error: {m.group(0)}", line, True, nodes,
                          rank, True, True)  # fmt: skip
    if (
        "!!!!" in text
        or "Interrupt!" in text
        or "pending programs" in text
        or "driver error" in text
        or "device error" in text
    ):
        m = _ACCEL_FATAL.search(text)
        if m is not None:
            return Signal("accelerator_fatal", GPU, f"accelerator fault: {m.group(0)}", line, True,
                          nodes, rank, True, True)  # fmt: skip
    if "HW Exception by GPU" in text:
        # ROCm's runtime (HSA): the device raised a hardware exception ("reason :GPU Hang"),
        # the AMD counterpart of a fatal Xid; "node-N" is the GPU's agent number, not a host.
        reason = text.partition("reason")[2].strip(" :")[:60]
        return Signal("gpu_hw_exception", GPU, f"GPU hardware exception (ROCm): {reason}", line,
                      True, nodes, rank, True, True)  # fmt: skip
    if "amdgpu" in text:
        m = _AMDGPU_RESET.search(text)
        if m is not None:
            # The kernel driver found the GPU hung or faulted and resets it: the AMD
            # counterpart of a fatal Xid; the job on it is lost.
            return Signal("gpu_reset", GPU, f"GPU reset by its driver (amdgpu): {m['what']}",
                          line, False, nodes, rank, True, True, fatal=False)  # fmt: skip
    if "Memory access fault by GPU" in text:
        # ROCm's runtime: a kernel touched memory it may not ("Reason: Page not present or
        # supervisor privilege", "Write access to a read-only page"): the counterpart of CUDA's
        # illegal memory access, the program's (or its library's) bug when nothing says the
        # hardware failed. "node-N" is the GPU's agent number, not a host.
        return Signal("gpu_memory_access_fault", APPLICATION,
                      "GPU memory access fault (ROCm): an invalid address", line, True, (),
                      rank)  # fmt: skip
    if "NVLink" in text or "NVSwitch" in text or "nvlink" in text:
        m = _NVLINK.search(text)
        if m is not None:
            return Signal("nvlink", GPU, f"NVLink/NVSwitch error: {m.group(0)}", line, True,
                          nodes, rank, True, True)  # fmt: skip
    return None


def _cuda(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    if "low on memory" in text:
        return None  # Ray's OutOfMemoryError is the host's memory (see _HOST_OOM)
    m = _CUDA.search(text)
    if m is None:
        if _CUDA_OOM.search(text):
            return Signal("cuda_oom", APPLICATION, "CUDA out of memory", line, False,
                          names.find(text), rank)  # fmt: skip
        return None
    msg = (
        m["msg"] or m["code"] or m["legacy"] or m["thc"] or m["other"] or m["glog"] or m["kaldi"]
        or m["numbered"] or ""
    )  # fmt: skip
    if m["code"]:
        msg = _CUDA_DRIVER_TEXT.get(m["code"], msg)
    # NCCL's own prefix names the host whose CUDA call failed ("gpu-7:2852:3596 [0] ... NCCL
    # WARN Cuda failure 999 'unknown error'").
    prefix = _NCCL_HOST.search(text) if "NCCL" in text else None
    nodes = _nodes_for(text, names, prefix["host"] if prefix is not None else None)
    code_m = _CUDA_RUNTIME_CODE.search(text)
    code = int(next(g for g in code_m.groups() if g)) if code_m is not None else None
    if code in _CUDA_DEVICE_CODES:
        # The device or its driver failed on the node that printed it: keep it out.
        return Signal("cuda_device_error", GPU, f"CUDA error {code}: {msg}", line, True, nodes,
                      rank, True, True, detail=str(code))  # fmt: skip
    for needle, name, category, immediate in _CUDA_KINDS:
        if needle.lower() in msg.lower() or (needle in text and not m["code"]):
            exclude = category is GPU and name in ("cuda_ecc", "cuda_nvlink", "cuda_gpu_lost")
            return Signal(name, category, f"CUDA error: {msg}", line, immediate, nodes, rank,
                          None, exclude, detail=msg)  # fmt: skip
    if code in _CUDA_APP_CODES:
        return Signal("cuda_error", APPLICATION, f"CUDA error {code}: {msg}", line, True, nodes,
                      rank, detail=str(code))  # fmt: skip
    return Signal("cuda_error", UNKNOWN, f"CUDA error: {msg}", line, False, nodes, rank,
                  detail=msg)  # fmt: skip


# --- NCCL, gloo, torch.distributed: transports, collectives, rendezvous ---------------------

# NCCL's own prefix: "host:pid:tid [cudaDev] [file.c:line ]NCCL WARN ..."
_NCCL_HOST = re.compile(
    r"(?:^|\s|>:?)(?P<host>[A-Za-z0-9][\w.-]*):\d+:\d+ \[\d+\] (?:\S+:? ?\d* )?NCCL (?:WARN|INFO)"
)
# "with error 12, opcode 0, ..." (older NCCL) or "with status=12 opcode=0 ..." (newer)
_NCCL_IB = re.compile(
    r"NET/IBP? ?: ?Got completion from peer (?P<peer>\S+) with (?:error |status=)(?P<err>\d+)"
)
_TRANSPORT = re.compile(
    r"Call to (?:recv|send|write|read|connect|accept|bind|ibv_\w+|fi_\w+)"
    r" (?:from \S+ |to \S+ )?failed"
    r"|Connection (?:reset|refused|timed out) by (?:remote )?peer|closed by remote peer"
    r"|Connection reset"
    r"|Broken pipe|socketProgress\w*: |socketStartConnect|socketFinalizeAccept|Socket recv failed"
    r"|async (?:fatal )?event|catastrophic error|port (?:error|state changed to (?:DOWN|INIT))"
    r"|link (?:down|flap)|Failed to execute operation|[Pp]roxy (?:thread|Service).*?error"
    r"|NET/(?:IB|OFI|Socket)[^:]*: .*(?:fail|error|Couldn't)|Couldn't open AV|ibv_\w+ failed"
    r"|Transport retry count exceeded|IBV_WC_\w+_ERR|(?:ncclSystemError|ncclRemoteError)"
    r"|unhandled system error|remote process exited|network error"
    r"|efa_rdm_\w+_handle_error\(\)|connect \[\S+\]:\d+: Connection refused"
    # mlx5's and UCX's words for a failed completion or a peer that stopped answering
    r"|got completion with error|Remote access error on|Endpoint timeout"
    # NCCL's socket transport ("Net : Connect to 10.0.0.2<52061> failed : No route to host") and
    # its topology search across the node's links ("Failed to find reverse path from remNode")
    r"|Connect to \S+ failed|Failed to find reverse path"
    # NCCL's bootstrap retrying a peer that refuses ("Call to connect returned Connection
    # refused, retrying"): the peer's port is not open yet, or never will be
    r"|Call to connect returned Connection refused"
    # gloo forming its TCP mesh between the ranks' hosts, and its TCP pairs failing
    # ("pair.cc:611] Connect timeout [10.0.0.2]:27023", "Read error [10.0.0.2]:6046: Software
    # caused connection abort": ECONNABORTED, the local end gave up on the connection)
    r"|connectFullMesh failed|\] Connect timeout \[|\] (?:Read|Write) error \[\S+\]:\d+: [^.]+"
    r"|Software caused connection abort"
    r"|UCX\s+ERROR.*(?:Connection refused|Connection reset|Endpoint timeout)"
    # AWS Neuron's collectives (ENC) failing to register a ring's buffers with the network
    # transport ("ENC:ncclNetRegMr failed neuronNetRegMr request to NCCL", "failed to register
    # channel buffer", "failed to configure network connector for RING"): EFA, as ibv_reg_mr is IB
    r"|failed \w*NetRegMr request|failed to register channel buffer"
    r"|failed to configure network connector"
    # TensorFlow's collective ops (MultiWorkerMirroredStrategy) aborting an all-reduce whose
    # peer's socket went away: "Aborting RingReduce with Unavailable: Socket closed"
    r"|Aborting \w+ with Unavailable: [^.]+|StartAbort Unavailable: [^.]+",
    re.IGNORECASE,
)
# NCCL WARN lines that every healthy job can print while it starts.
_NCCL_BENIGN = re.compile(
    r"Could not find: lib|Failed to open libibverbs|NET/Plugin|No plugin found|libnccl-net"
    r"|NCCL_\w+ set by environment|Ignoring|deprecated|disabled|Falling back|not supported"
    r"|No NIC info|Bootstrap : Using|P2P is disabled",
    re.IGNORECASE,
)
_NCCL_ERR = re.compile(
    r"(?P<kind>unhandled cuda error|ncclUnhandledCudaError|internal error|ncclInternalError"
    r"|invalid usage|ncclInvalidUsage|NCCL communicator was aborted|Duplicate GPU detected"
    r"|NCCL Error \d+|NCCL error)"
)
_NCCL_GENERIC = re.compile(r"NCCL (?:error|Error \d+)")
# HCCL (Ascend's collectives) failing an operation: "OPS function error: HcclAllreduce, error code
# is 6", "HCCL error in: ...". Its EI lines that follow say what failed (a peer that never came).
_HCCL_ERR = re.compile(r"\bHccl[A-Z]\w*, error code is \d+|\bHCCL error\b")
# A collective or rendezvous that never completed: the job hangs (the process may die of it
# later, by its watchdog). The rank that reports it waited for another; it is not the cause.
_COLLECTIVE_TIMEOUT = re.compile(
    r"Watchdog caught collective operation timeout|Timed out waiting \d+ ?ms for \w+ operation"
    r"|watchdog got stuck|Heartbeat monitor timed out"
    r"|collective operation timeout|monitoredBarrier.{0,80}(?:timed out|Timeout)"
    r"|[Bb]arrier (?:timed out|timeout)|Ranks? [\d, ]+failed to pass monitoredBarrier"
    r"|Timed out initializing process group in store based barrier"
    r"|DistStoreError: .*(?:[Tt]imed? ?out|Timeout)|Socket Timeout|wait timeout after \d+"
    r"|Timed out after \d+ seconds waiting for clients|RendezvousTimeoutError"
    r"|timed out in (?:allreduce|allgather|broadcast|reduce|barrier|all_reduce|all_gather)"
    r"|NCCL timeout|ncclCommWatchdog.*timeout|Timeout\(ms\)=\d+\) ran for \d+"
    # a c10d store client that never reached its server; JAX's/TF's coordination service
    # missing a task's heartbeats ("... heartbeat timeout. This indicates that the remote task
    # has failed, got preempted, or crashed"): nothing progresses, the cause is elsewhere
    r"|client socket has timed out after \d+ ?ms|Task \S+ heartbeat timeout"
    r"|heartbeat timeout\. This indicates|tasks are unhealthy \(stopped sending heartbeats\)"
    # HCCL (Ascend's collectives): "EI0006: ... Getting socket times out. Reason: Remote Rank
    # did not send the data in time", "EI0002: ... The wait execution of the Notify register
    # times out": a collective whose peer never came
    r"|\bEI\d{4}: .{0,200}?\btimes out\b|Remote Rank did not send the data in time"
    # gloo closing a pair whose operation ran past the process group's timeout (pair.cc)
    r"|Application timeout caused pair closure",
)
# torch elastic's agent cannot reach its rendezvous store: the job makes no progress.
_RENDEZVOUS = re.compile(
    r"failed to send a keep-alive heartbeat|RendezvousConnectionError|RendezvousClosedError"
    r"|The client socket has failed to connect|connect\(\) to \S+ failed|Connection refused"
)
# c10d or NCCL could not look up a host's address ("The IPv6 network addresses of (cn-r07-01,
# 29420) cannot be retrieved (gai error: -3 - Temporary failure in name resolution)"): DNS or the
# hosts file. Healthy jobs print it too (an IPv6 lookup where IPv4 works), so it is no cause by
# itself: it explains a store connect that then times out (engine.py).
_NAME_UNRESOLVED = re.compile(
    r"Temporary failure in name resolution|Name or service not known"
    r"|No address associated with hostname"
)
# c10d's socket when a read from the store's connection got nothing in time: "[c10d]
# waitForInput: socket SocketImpl(fd=3, ...) timed out after 60000ms".
_STORE_WAIT_TIMEOUT = re.compile(r"\bwaitForInput: socket .* timed out after \d+ ?ms")
# gloo/c10d: the peer went away. Its own log has the cause.
_PEER_GONE = re.compile(r"Connection closed by peer|peer closed the connection|EOF from peer")
# A transport error that says only that the other end closed: its process may have died (its
# own line says why), or the link failed.
_PEER_LOSS = re.compile(
    r"Connection reset|closed by (?:remote )?peer|Broken pipe|Software caused connection abort",
    re.IGNORECASE,
)


def _distributed(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    m = _COLLECTIVE_TIMEOUT.search(text)
    if m is not None:
        return Signal("collective_timeout", UNKNOWN, f"collective never completed: {m.group(0)}",
                      line, True, names.find(text), rank, True, victim=True,
                      hang=True)  # fmt: skip
    if "waitForInput" in text and _STORE_WAIT_TIMEOUT.search(text) is not None:
        # The launcher's agents keep a connection to the rendezvous store for as long as the job
        # runs; one that got no answer for a minute lost its path to the store's host (or that
        # host froze): a warning, which a silence or a hang that follows is blamed on.
        return Signal("store_timeout", NETWORK, f"c10d: {text.strip()[:150]}", line, False,
                      names.find(text), rank, True, fatal=False)  # fmt: skip
    prefix = _NCCL_HOST.search(text)
    host = prefix["host"] if prefix is not None else None
    nodes = _nodes_for(text, names, host)
    is_nccl = "NCCL" in text
    if is_nccl and "WARN" in text and _NCCL_BENIGN.search(text):
        return None
    if is_nccl and "Failed to find CUDA library" in text:
        # NCCL cannot load libcuda (a container or WSL without the driver's library on its
        # path): its initialisation fails next, on every node, on every attempt.
        return Signal("nccl_setup", APPLICATION, "NCCL: the CUDA driver library is missing",
                      line, False, nodes, rank)  # fmt: skip
    if "ccl" in text or "HCCL" in text:
        m = _HCCL_ERR.search(text)
        if m is not None:
            return Signal("hccl_error", UNKNOWN, f"HCCL: {m.group(0)}", line, False, nodes, rank,
                          detail=m.group(0), victim=True)  # fmt: skip
    if "NET plugin" in text and "Failed to initialize" in text:
        # NCCL's "Last error:" after an init failure ("ncclInvalidUsage", which NCCL also answers
        # for this): no network transport (IB, its plugin, sockets) came up in this process: the
        # node's fabric or its drivers, not the program. It explains the error printed before
        # it, so it is no victim of that error (attribution.py).
        return Signal("nccl_net_init", NETWORK, "NCCL: no network plugin could be initialised",
                      line, False, nodes, rank)  # fmt: skip
    m = _NCCL_IB.search(text)
    if m is not None:
        # IB error 12 is IBV_WC_RETRY_EXC_ERR (transport retries exhausted): a link or a peer.
        return Signal("nccl_ib_completion_error", NETWORK,
                      f"NCCL IB completion error {m['err']} from peer {m['peer']}", line, False,
                      nodes, rank, True, detail=f"error {m['err']}", fatal=False)  # fmt: skip
    m = _NCCL_ERR.search(text) if is_nccl or "Duplicate" in text else None
    if m is not None:
        # "NCCL error in: ..., unhandled cuda error": the specific kind says what failed.
        kinds = [k["kind"] for k in _NCCL_ERR.finditer(text)]
        kind = next((k for k in kinds if not _NCCL_GENERIC.fullmatch(k)), kinds[0])
        if "Duplicate GPU" in kind or "usage" in kind.lower():
            return Signal("nccl_usage", APPLICATION, f"NCCL: {kind}", line, False, nodes, rank,
                          detail=kind)  # fmt: skip
        if "cuda" in kind.lower():
            # Some CUDA call inside NCCL failed: its "Last error: Cuda failure N" line says
            # which (999, 802: the device; 2: out of memory); alone it names no cause.
            return Signal("nccl_cuda", UNKNOWN, f"NCCL: {kind}", line, False, nodes, rank,
                          detail=kind, victim=True)  # fmt: skip
        if "aborted" in kind:  # torn down because of a failure elsewhere
            return Signal("nccl_aborted", UNKNOWN, f"NCCL: {kind}", line, False, nodes, rank,
                          victim=True, detail=kind)  # fmt: skip
        transport = _TRANSPORT.search(text)
        if transport is None and "remote process" not in text:
            # NCCL's generic words; its "Last error:" lines that follow say what failed.
            return Signal("nccl_error", UNKNOWN, f"NCCL: {kind}", line, False, nodes, rank,
                          detail=kind, victim=True)  # fmt: skip
    m = _NAME_UNRESOLVED.search(text)
    if m is not None and any(word in text for word in ("c10d", "socket", "NCCL", "gloo")):
        # The host it names is the one that could not be looked up, not one at fault.
        return Signal("name_unresolved", NETWORK, f"a host name did not resolve: {m.group(0)}",
                      line, False, (), rank, True, fatal=False)  # fmt: skip
    m = _TRANSPORT.search(text)
    if m is not None and (is_nccl or "gloo" in text or "c10d" in text or "NET/" in text
                          or "nccl" in text  # TensorFlow's "ncclCommInitRank failed: ..."
                          or "socket" in text.lower() or "ibv" in text or "mlx" in text
                          or "Dist" in text or "Proxy" in text or "Net :" in text
                          or "libfabric" in text or "UCX" in text
                          or "remNode" in text or "ENC:" in text):  # fmt: skip
        victim = "remote process exited" in text and "network error" not in text
        return Signal("transport_error", NETWORK, f"network transport: {m.group(0)}", line,
                      False, nodes, rank, True, victim=victim, fatal=False,
                      peer_lost=_PEER_LOSS.search(m.group(0)) is not None)  # fmt: skip
    m = _PEER_GONE.search(text)
    if m is not None:
        return Signal("peer_gone", NETWORK, f"a peer went away: {m.group(0)}", line, False,
                      nodes, rank, True, victim=True, fatal=False)  # fmt: skip
    m = _RENDEZVOUS.search(text)
    store = ("elastic", "rendezvous", "Rendezvous", "c10d", "socket", "TCPStore", "store")
    if m is not None and any(word in text for word in store):
        return Signal("rendezvous", NETWORK, f"rendezvous store unreachable: {m.group(0)}",
                      line, False, nodes, rank, True, fatal=False)  # fmt: skip
    return None


# --- the host: OOM killer, bus errors, fatal signals, killed processes ------------------------

_HOST_OOM = re.compile(
    # (kernels before 5.x said "Out of memory: Kill process 25635 (python) score 974 or sacrifice
    # child", then "Killed process 25635 (python) total-vm:...")
    r"Out of memory: Kill(?:ed)? process (?P<pid>\d+) \((?P<proc>[^)]*)\)"
    r"|\bKilled process \d+ \([^)]*\) total-vm:"
    r"|Memory cgroup out of memory: Killed process (?P<cpid>\d+)"
    r"|Detected (?P<events>\d+) oom[-_]kill event|\boom[-_]kill\b|oom-killer"
    r"|Exceeded (?:job|step) memory limit|exceeded (?:the )?memory limit"
    r"|TERM_MEMLIMIT|killed by the cgroup out-of-memory"
    r"|job killed: [vp]?mem .{0,80}exceeded limit"
    # Ray's memory monitor kills a worker when its host runs out (ray.exceptions.OutOfMemoryError),
    # and its report ends with advice that links its OOM-prevention page
    r"|the node running low on memory|/ray-oom-prevention\.html"
)
# The host's own hardware (CPU, memory, PCIe) as the kernel reports it: an uncorrected memory
# error (EDAC "UE"; "CE", corrected, is routine) or a fatal APEI/machine-check event.
_HOST_HARDWARE = re.compile(
    r"EDAC \S+: \d+ UE\b|\[Hardware Error\]: (?:event severity: fatal|.*\bUncorrected\b"
    r"|.*Machine Check Exception)|Kernel panic - not syncing|soft lockup - CPU#\d+ stuck"
)
# A mixed-precision loss scale halved below fp16's smallest value (2^-24) by overflow after
# overflow (apex "reducing loss scale to 1e-45", DeepSpeed "..., reducing to 0.0"): every
# gradient is inf/NaN, the job is numerically broken however long it runs on.
_LOSS_SCALE = re.compile(
    r"(?:reducing loss scale to|[Ll]oss scale:? \S+, reducing to) ([\d.eE+-]+)"
)
_LOSS_SCALE_FLOOR = 2.0**-24
# fairseq halves its scale on every overflow ("| WARNING: overflow detected, setting loss scale
# to: 0.000122") and raises FloatingPointError("Minimum loss scale reached") once it reaches its
# minimum (`--min-loss-scale`, 1e-4 by default): within one halving of it, the run is over.
_FAIRSEQ_LOSS_SCALE = re.compile(r"overflow detected, setting loss scale to:? ([\d.eE+-]+)")
_FAIRSEQ_LOSS_SCALE_FLOOR = 2e-4
# torch elastic's "failed (exitcode: -7)" is the same death in numbers: signal 7 is SIGBUS.
_BUS_ERROR = re.compile(
    # (Cray PALS's mpiexec: "x3109c0s13b0n0: rank 0 died from signal 7 and dumped core")
    r"\bBus error\b|bus error encountered|\bSIGBUS\b|exitcode\s*:\s*-7\b|died from signal 7\b",
    re.IGNORECASE,
)
# Shared memory that could not be had: NCCL's "Error while creating shared memory segment
# /dev/shm/nccl-uc5H5q (size 9637888)", torch's "unable to write to file </torch_4740_...>: No
# space left on device (28)".
_SHM = re.compile(
    r"Error while creating shared memory segment"
    r"|unable to (?:write to|open|mmap) (?:shared memory )?(?:file|object) </torch_\d+"
)
# Fatal signals only in the grammar of a death report: "Installing signal handlers for SIGTERM,
# SIGINT and SIGABRT" names a signal and reports nothing.
_FATAL_SIGNAL = r"SIG(?:SEGV|ABRT|ILL|FPE)\b"
_SEGV = re.compile(
    # (PyTorch's fatal-signal handler: "!!!!!!! Segfault encountered !!!!!!!", a native stack next)
    r"[Ss]egmentation fault|\b[Ss]egfault\b|core dumped|Fatal Python error"
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
    + r"|exit(?:ed)? on signal (?:11|6)\b|exitcode\s*:\s*-(?:11|6)\b"
    # PyTorch's DataLoader on a worker a native fault ended ("DataLoader worker (pid 2256) is
    # killed by signal: Aborted.", after tcmalloc's "Attempt to free invalid pointer")
    + r"|is killed by signal: (?:Aborted|Illegal instruction|Floating point exception)"
)
# Ray's word that a worker's host went away ("The actor is dead because its node has died.",
# NodeDiedError, a raylet marked dead): the node, whatever the actor was doing.
_NODE_DIED = re.compile(
    r"because its node has died|NodeDiedError|[Nn]ode \S+ (?:has been |was )?marked (?:as )?dead"
    # "The node with node id: 8f20... and ip: 10.1.0.3 has been marked dead because the detector
    # has missed too many heartbeats from it"
    r"|[Nn]ode with node id\b.{0,200}? (?:has been |was )marked (?:as )?dead"
)
# An uncaught C++ exception: std::terminate, then abort(). Its `what():` line (read on its own)
# carries the message that says what failed.
_CPP_TERMINATE = re.compile(r"terminate called after throwing an instance of '(?P<type>[^']+)'")
_ABORT = re.compile(r"Fatal Python error: Abort|\bAborted\b|SIGABRT|signal 6\b|exitcode\s*:\s*-6\b")
# A process the kernel or a person killed (SIGKILL): who did it, the line does not say.
_KILLED = re.compile(
    # (the shell's word may land on a progress bar's line: "216/1063 [00:27<02:17]Killed")
    r"^(?:.*\bline \d+:\s+\d+\s+|.*\])?Killed(?:\s+\S.*)?$|^已杀死$|Signal 9 \(SIGKILL\) received"
    r"|exitcode\s*:\s*-9\b|killed by signal: Killed|exited on signal 9\b|terminated with signal"
    r" SIGKILL|is killed by signal: Killed"
)
# torch elastic's report of a worker it saw fail: its exit code (negative: the signal that ended
# it) and its local rank.
_ELASTIC_FAILED = re.compile(r"failed \(exitcode: (-?\d+)\) local_rank: (\d+)")
_CHILD_FAILED = re.compile(
    r"\bChildFailedError\b|failed \(exitcode: -?\d+\) local_rank|Root Cause \(first observed"
    r"|MPI_ABORT was invoked|mpirun noticed that process rank \d+"
    r"|mpirun detected that one or more processes exited with non-zero status"
    r"|An error occurred in MPI_\w+|MPI_ERRORS_ARE_FATAL"
)
# Open MPI and Horovod saying that another process died (its own output has the cause, maybe
# further on in a merged log: these wait for it, they do not report at once).
_PEER_PROCESS_DIED = re.compile(
    r"Per user-direction, the job has been aborted|MPI communication peer process has unexpectedly"
    r" disconnected|Horovod has been shut down\. This was caused by an exception on one of the"
    r" ranks"
)
# slurmctld's record of how a job ended: "_job_complete: JobId=127441 WTERMSIG 9".
_JOB_COMPLETE = re.compile(
    r"_job_complete: JobId=(?P<id>\d+) (?:WTERMSIG (?P<sig>\d+)|WEXITSTATUS (?P<code>\d+))"
)
# The launcher could not reach another host to start the job's processes there (Open MPI's
# ssh/rsh launch, Horovod, DeepSpeed's pdsh): the hosts cannot talk to each other.
_LAUNCH_UNREACHABLE = re.compile(
    r"^ssh: (?:connect to host \S+ port \d+: (?:Connection refused|Connection timed out"
    r"|No route to host)|Could not resolve hostname \S+)"
    r"|ORTE was unable to reliably start one or more daemons"
    r"|An ORTE daemon has unexpectedly failed|ORTE has lost communication with a remote daemon"
    r"|pdsh@\S+: \S+: ssh exited with exit code 255"
)
# Kubernetes evicting a pod because its node ran short (the kubelet's words).
_EVICTED = re.compile(
    r"The node was low on resource: \[?(?P<what>[\w-]+)|\bOOMKilled\b|Pod was evicted|\bEvicted\b.*"
    r"(?:node|memory|disk)"
)
# ProcessGroupNCCL's note that some operation failed or timed out: what follows says which.
_NCCL_OPS_FAILED = "Some NCCL operations have failed or timed out"
# A launcher's or batch system's report of a process's exit code: "failed (exitcode: 17)",
# torch elastic's "exitcode  : 17", LSF's "Exited with exit code 17.", "exit status 17".
_EXIT_STATUS = re.compile(
    r"(?i:exitcode)\s*:\s*(?P<a>\d+)|Exited with exit code (?P<b>\d+)"
    r"|exit(?:ed with)? (?:status|code)(?:[ =]| = )(?P<c>\d+)"
)
# Megatron-LM's re-run state machine (megatron/core/rerun_state_machine.py) says which exit it
# takes: re-run elsewhere (16) or validation failed, do not go on (17).
_MEGATRON_RERUN = re.compile(
    r"(?P<e16>Saving a checkpoint and exiting now\. Please resume the job from the checkpoint to"
    r" rerun)|(?P<e17>Exiting now\. The job can be resumed from a previous checkpoint)"
)

# Its log prefix names the rank's node and device ("Rank 1, node node2, device 0, iteration #14:
# First rerun: unexpected result is reproducible within the tolerance ... Need to rerun on a
# different GPU"): the suspect GPU, which its exit 16 then asks to rerun elsewhere.
_MEGATRON_SUSPECT = re.compile(
    r"Rank \d+, node (?P<node>[A-Za-z0-9][\w.-]*), device \d+, iteration #\d+: First rerun: "
    r"unexpected result is reproducible"
)


def _host(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    nodes = names.find(text)
    if "potential root causes" in text or "A worker died or was killed" in text:
        # Ray's raylet: a worker died; the causes it lists ("(1) ... OOM killer ... (3) ...
        # SIGSEGV") are guesses, not reports. Its own error, if the log has it, says why.
        return Signal("worker_died", UNKNOWN, f"a worker died: {text.strip()[:120]}", line,
                      False, nodes, rank, True)  # fmt: skip
    if (
        "emory" in text
        or "oom" in text
        or "MEMLIMIT" in text
        or "killed: " in text
        or "total-vm" in text
    ):
        m = _HOST_OOM.search(text)
        if m is not None:
            return Signal("host_oom", NODE, f"host out of memory: {m.group(0)}", line, False,
                          nodes, rank, True, detail=m["proc"] or "")  # fmt: skip
    if (
        ("shared memory object" in text or "shared memory(shm)" in text) and "unable to " in text
    ) or (("shared memory segment" in text or "</torch_" in text) and _SHM.search(text)):
        # PyTorch's DataLoader cannot map its /dev/shm segment, or write its shared-memory file
        # ("unable to write to file </torch_4740_2273530805_10039>: No space left on device"),
        # NCCL cannot create its SHM transport's segment: the node's shared memory, as with the
        # workers' bus errors below (not the job's storage).
        return Signal("shm_exhausted", NODE, f"shared memory: {text.strip()[:150]}", line, False,
                      nodes, rank, True)  # fmt: skip
    if (
        "us error" in text
        or "US error" in text
        or "SIGBUS" in text
        or ": -7" in text
        or "signal 7" in text  # Cray PALS's "rank 0 died from signal 7"
    ):
        m = _BUS_ERROR.search(text)
        if m is not None:
            said = text.strip()[:150] if "-7" not in m[0] else f"a worker ended by SIGBUS ({m[0]})"
            return Signal("bus_error", NODE, f"bus error: {said}", line, True, nodes, rank, True)
    if "node" in text or "Node" in text:
        m = _NODE_DIED.search(text)
        if m is not None:
            return Signal("node_died", NODE, f"a node died: {text.strip()[:150]}", line, False,
                          nodes, rank, True)  # fmt: skip
    if "terminate called" in text:
        m = _CPP_TERMINATE.search(text)
        if m is not None:
            # The process aborts next; its what() (or another rank's error) says why: wait.
            return Signal("cpp_exception", UNKNOWN, f"uncaught C++ exception {m['type']}", line,
                          False, nodes, rank, detail=m["type"])  # fmt: skip
    m = _SEGV.search(text)
    if m is not None:
        if _ABORT.search(text):
            # abort() follows an error its process reported itself (a C++ exception's what(),
            # a watchdog's exception), often a line or another rank's line later: wait for it.
            # torch elastic names the worker it saw abort by its local rank (its rank, when
            # one agent runs them all).
            if rank is None and (worker := _ELASTIC_FAILED.search(text)) is not None:
                rank = int(worker[2])
            return Signal("aborted", UNKNOWN, f"process aborted: {m.group(0)}", line, False,
                          nodes, rank)  # fmt: skip
        return Signal("segfault", UNKNOWN, f"process crashed: {m.group(0)}", line, True, nodes,
                      rank)  # fmt: skip
    if "_job_complete" in text:
        m = _JOB_COMPLETE.search(text)
        if m is not None and m["sig"] in ("11", "6", "7", "4", "8"):
            return Signal("segfault", UNKNOWN, f"job {m['id']} ended by signal {m['sig']}", line,
                          True, nodes, rank)  # fmt: skip
        if m is not None and m["sig"]:
            return Signal("killed", UNKNOWN, f"job {m['id']} killed by signal {m['sig']}", line,
                          False, nodes, rank)  # fmt: skip
        if m is not None and m["code"] not in (None, "0"):
            return Signal("worker_failed", UNKNOWN, f"job {m['id']} exited with {m['code']}",
                          line, False, nodes, rank, victim=True, fatal=False)  # fmt: skip
    if "illed" in text or "SIGKILL" in text or "-9" in text or "已杀死" in text:
        m = _KILLED.search(text.strip())
        if m is not None:
            return Signal("killed", UNKNOWN, f"a process was killed: {text.strip()[:150]}",
                          line, False, nodes, rank)  # fmt: skip
    if "exitcode: -" in text:
        m = _ELASTIC_FAILED.search(text)
        if m is not None and m[1].startswith("-") and m[1] != "-15":
            # torch elastic's worker that a signal ended, one the forms above do not name
            # (SIGQUIT's -3, SIGHUP's -1): it died unseen, as a SIGKILLed one. (-15 is the
            # SIGTERM a stop from outside or the agent itself sends.)
            ended = int(m[2]) if rank is None else rank
            return Signal("killed", UNKNOWN, f"a worker was ended by signal {m[1][1:]}", line,
                          False, nodes, ended)  # fmt: skip
    if "Killing subprocess" in text and "sigkill_handler" in text:
        # The DeepSpeed launcher tearing its workers down: one failed (its return code, and
        # maybe its error, follow) or the launcher was told to stop. Either way the run ends.
        return Signal("workers_killed", UNKNOWN, "the DeepSpeed launcher killed its workers",
                      line, False, nodes, rank, victim=True)  # fmt: skip
    if "return code = " in text:
        # The DeepSpeed launcher's report of a worker's end: "... exits with return code = -9".
        m = re.search(r"exits with return code = (-?\d+)", text)
        code = int(m[1]) if m is not None else 0
        if code == -9:
            return Signal("killed", UNKNOWN, "a worker was killed (SIGKILL)", line, False, nodes,
                          rank)  # fmt: skip
        if code == -11 or code == -6:
            return Signal("segfault", UNKNOWN, f"a worker crashed (signal {-code})", line, True,
                          nodes, rank)  # fmt: skip
        if code in _EXIT_CODE_ADVICE:
            category, requeue, exclude = _EXIT_CODE_ADVICE[code]
            return Signal("exit_code", category, f"exited with code {code}", line, True, nodes,
                          rank, requeue, exclude, detail=f"exit {code}")  # fmt: skip
        if code:
            return Signal("worker_failed", UNKNOWN, f"a worker exited with code {code}", line,
                          True, nodes, rank, victim=True)  # fmt: skip
    if "ORTE" in text or "ssh" in text:
        m = _LAUNCH_UNREACHABLE.search(text.strip())
        if m is not None:
            return Signal("launch_unreachable", NETWORK, f"cannot start on a host: {m.group(0)}",
                          line, False, nodes, rank, True)  # fmt: skip
    status: int | None = None
    if "xit" in text:
        m = _EXIT_STATUS.search(text)
        status = int(m["a"] or m["b"] or m["c"]) if m is not None else None
        if status is not None and status in _EXIT_CODE_ADVICE:
            category, requeue, exclude = _EXIT_CODE_ADVICE[status]
            code = status
            return Signal("exit_code", category, f"exited with code {code}", line, True, nodes,
                          rank, requeue, exclude, detail=f"exit {code}")  # fmt: skip
    if "resource" in text or "OOMKilled" in text or "vict" in text:
        m = _EVICTED.search(text)
        if m is not None:
            return Signal("evicted", NODE, f"evicted: {m.group(0)[:120]}", line, False, nodes,
                          rank, True)  # fmt: skip
    if "rerun on a different" in text:
        m = _MEGATRON_SUSPECT.search(text)
        if m is not None:
            # Which GPU reproduced the bad result: the one exit 16 asks to rerun away from.
            host = m["node"]
            return Signal("megatron_rerun_suspect", GPU, f"Megatron re-run state machine: the "
                          f"bad result reproduces on {host}'s GPU", line, False,
                          _nodes_for(text, names, host), rank, True, True, fatal=False)  # fmt: skip
    if "exiting now" in text or "Exiting now" in text:
        m = _MEGATRON_RERUN.search(text)
        if m is not None:
            code = 16 if m["e16"] else 17
            category, requeue, exclude = _EXIT_CODE_ADVICE[code]
            what = f"Megatron re-run state machine: exit {code}"
            return Signal("megatron_rerun", category, what, line, True, nodes, rank, requeue,
                          exclude, detail=f"exit {code}")  # fmt: skip
    m = _CHILD_FAILED.search(text)
    if m is not None:
        # torch elastic's agent reports each worker it saw die ("failed (exitcode: 1)
        # local_rank: 1"), then restarts the group while it has restarts left (--max-restarts):
        # only its ChildFailedError summary says it gave up. Wait for that, or for the relaunch.
        final = not m.group(0).startswith("failed (")
        return Signal("worker_failed", UNKNOWN, f"a worker process failed: {m.group(0)}", line,
                      final, nodes, rank, victim=True)  # fmt: skip
    if "aborted" in text or "peer process" in text or "Horovod" in text:
        m = _PEER_PROCESS_DIED.search(text)
        if m is not None:
            return Signal("worker_failed", UNKNOWN, f"another process died: {m.group(0)}", line,
                          False, nodes, rank, victim=True)  # fmt: skip
    if status:
        # A launcher's, batch system's or operator's word that a process failed, without the
        # cause: whatever the log said before it explains the failure.
        return Signal("worker_failed", UNKNOWN, f"a process exited with code {status}", line,
                      False, nodes, rank, victim=True, fatal=False)  # fmt: skip
    if _NCCL_OPS_FAILED in text:
        return Signal("nccl_ops_failed", UNKNOWN, _NCCL_OPS_FAILED, line, False, nodes, rank,
                      victim=True, fatal=False)  # fmt: skip
    if (
        "can't open file" in text
        or "command not found" in text
        or "execve()" in text
        or "not found in $PATH" in text  # Apptainer/Singularity/Docker: no such entry point
    ):
        # A script's own line ("slurm_script: line 377: python: command not found"): the shell
        # goes on to the next line, and what the job does next says whether it mattered.
        in_script = "command not found" in text and _SCRIPT_LINE.search(text) is not None
        return Signal("cannot_run", APPLICATION, f"cannot run: {text.strip()[:150]}", line,
                      False, nodes, rank, fatal=not in_script)  # fmt: skip
    return None


_SCRIPT_LINE = re.compile(r": line \d+: \S+: command not found")


# --- storage ----------------------------------------------------------------------------------

_STORAGE = re.compile(
    # (an errno's name is a word of its own: "imageio/" holds no EIO)
    # (Rust's std::io::Error, as safetensors and tokenizers raise it, ends "(os error 5)")
    r"(?P<eio>Input/output error|\[Errno 5\]|\bEIO\b|Remote I/O error|\[Errno 121\]"
    r"|\(os error (?:5|121)\))"
    # TensorFlow reports ENOSPC/EDQUOT as RESOURCE_EXHAUSTED on the file's path
    r"|(?P<enospc>No space left on device|\[Errno 28\]|\bENOSPC|Resource exhausted: /"
    r"|\(os error 28\))"
    r"|(?P<estale>Stale (?:file|NFS file) handle|\[Errno 116\]|\bESTALE|\(os error 116\))"
    r"|(?P<edquot>Disk quota exceeded|\[Errno 122\]|\bEDQUOT|\(os error 122\))"
    r"|(?P<erofs>Read-only file system|\[Errno 30\]|\(os error 30\))"
    # ENODEV on a file: the device under its mount is gone (a lost disk, FUSE or NFS mount)
    r"|(?P<enodev>\[Errno 19\]|\(os error 19\))"
    r"|(?P<ckptop>OP_REQUIRES failed at save_restore_v2_ops)"
    r"|(?P<write>PytorchStreamWriter failed writing|file write failed|failed to write\b.*"
    r"(?:checkpoint|ckpt)|PytorchStreamReader failed reading"
    # torch.save's zip writer when the file system takes fewer bytes than it wrote (a full
    # disk: "unexpected pos 1088 vs 1024", the C++ stream's "basic_ios::clear: iostream error")
    # and a write that came up short ("wrote 39776036 blocks instead of 41251350")
    r"|unexpected pos \d+ vs \d+|basic_ios::clear: iostream error"
    r"|wrote \d+ \w+ instead of \d+|short write)"
    r"|(?P<fs>LustreError|Lustre: .*(?:evicted|Connection to \S+ .*was lost)|beegfs.*(?:error|fail)"
    r"|HDF5-DIAG: Error|H5[A-Z]\w*\(\).*(?:failed|unable)|nfs: server \S+ not"
    r" responding|Transport endpoint is not connected|\bmmfs\w*: .*error|GPFS.*(?:error|fail)"
    r"|unable to (?:open|write|read|flush) (?:file|dataset)"
    # SQLite's locks on a shared file system (MIOpen's user database on Lustre, caches)
    r"|SQLite database: (?:locking protocol|database is locked|disk I/O error)"
    r"|sqlite3\.OperationalError: (?:locking protocol|database is locked|disk I/O error))",
    re.IGNORECASE,
)


# A file that is not there (ENOENT) or may not be read (EACCES): the job's path or setup, even when
# a storage library (HDF5, h5py) reports it.
_NOT_STORAGE = re.compile(
    r"errno = 2\b|\[Errno 2\]|No such file or directory|errno = 13\b|\[Errno 13\]|Permission denied"
)


def _storage(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    m = _STORAGE.search(text)
    if m is None:
        return None
    if m.lastgroup == "eio" and ("UCX" in text or "NCCL" in text or "ibv_" in text):
        return None  # a communication library's errno (UCX's remote key), not a file's
    if m.lastgroup in ("fs", "ckptop") and (_NOT_STORAGE.search(text) or "Not found:" in text):
        return None
    if m.lastgroup == "enodev" and "/dev/" in text:
        return None  # a device file (/dev/nvidia0, /dev/infiniband/...) is no file system's
    if m.lastgroup == "fs" and "endpoint is not connected" in m.group(0) and "what():" in text:
        # ENOTCONN is a FUSE mount's gone (Python's OSError on a file) or a socket's: a C++
        # std::system_error's what() is the process group's connection to its peer.
        return Signal("transport_error", NETWORK, f"network transport: {m.group(0)}", line,
                      False, names.find(text), rank, True)  # fmt: skip
    which = m.lastgroup or "io"
    return Signal(f"storage_{which}", STORAGE, f"storage error: {m.group(0)[:120]}", line,
                  False, names.find(text), rank, True)  # fmt: skip


# --- the entry point --------------------------------------------------------------------------


# A program that says, on the failure's own line, that it handled it and goes on ("trace for
# step 50 not written: OSError(28, ...); continuing without it", "... failed, retrying in 5 s").
_HANDLED = re.compile(
    r"[;,.] (?:continuing|will retry|retrying|skipping)\b|\bcontinuing (?:without|anyway)\b",
    re.IGNORECASE,
)


def detect_crash(line: str, names: NodeNames | None = None) -> Signal | None:
    """The failure signal on `line`, or None. Call only for lines that pass `may_matter`."""
    names = names or _NO_NAMES
    rank, _, text = split_prefix(line)
    signal = _detect(text, line, rank, names)
    if signal is None:
        return None
    if not signal.immediate and not signal.hang and signal.fatal and _HANDLED.search(text):
        # survivable, and the program says on the same line that it survived it. A warning
        # (not fatal) stays: alone it alarms no one, and if the job then dies of a generic error
        # ("NCCL error: internal error" after "Call to connect returned Connection refused,
        # retrying"), the retried failure is what explains it.
        return None
    if signal.rank is None and rank is not None:
        signal = replace(signal, rank=rank)
    return signal


# NCCL's INFO lines (several per rank at start-up) report failures only in these words (its
# bootstrap's "Call to connect returned Connection refused, retrying" among them).
_NCCL_INFO_TROUBLE = ("rror", "ailed", "imeout", "imed out", "bort", "xit", "ignal", "refused")


def quiet_nccl_info(text: str) -> bool:
    """An NCCL INFO line that reports no trouble: several per rank at start-up, never a signal."""
    return "NCCL INFO" in text and not any(word in text for word in _NCCL_INFO_TROUBLE)


# c10d's own INFO-level lines ("[I1123 21:28:41.17 TCPStoreLibUvBackend.cpp:130] [c10d - debug]
# Remote peer closed the connection."): with TORCH_CPP_LOG_LEVEL=INFO every store client's
# normal goodbye is logged so. c10d reports its failures at W and E.
_C10D_INFO = re.compile(r"\[?I\d{4} \d{2}:\d{2}:\d{2}(?:\.\d+)?(?: +\d+)? +\S+\] \[c10d")


def c10d_info(text: str) -> bool:
    """A c10d INFO-level line: its words ("closed", "failed") describe normal operation."""
    return "[c10d" in text and _C10D_INFO.match(text) is not None


def _detect(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    if quiet_nccl_info(text) or c10d_info(text):
        return None  # the common case at start-up, without a dozen pattern searches
    found = _scheduler(text, line, rank)
    if found is not None:
        return found
    if "srun: error" in text or "salloc: error" in text or "sbatch: error" in text:
        found = _srun(text, line, names)
        if found is not None:
            return found
    if "slurmstepd" in text and _STEPD_NODE.search(text):
        return Signal("slurmd_error", NODE, f"slurmd: {text.strip()[:150]}", line, True,
                      names.find(text), rank, True)  # fmt: skip
    if "redential" in text or "Munge" in text or "Zero Bytes" in text:
        m = _CREDENTIAL.search(text)
        if m is not None:
            return Signal("credential", NODE, f"authentication (munge/slurmd): {m.group(0)}",
                          line, True, names.find(text), rank, True)  # fmt: skip
    if "EDAC" in text or "Hardware Error" in text or "anic" in text or "lockup" in text:
        m = _HOST_HARDWARE.search(text)
        if m is not None:
            return Signal("host_hardware", NODE, f"host hardware error: {text.strip()[:150]}",
                          line, False, names.find(text), rank, True, True)  # fmt: skip
    if "loss scale" in text:
        m = _LOSS_SCALE.search(text)
        floor = _LOSS_SCALE_FLOOR
        if m is None:
            m, floor = _FAIRSEQ_LOSS_SCALE.search(text), _FAIRSEQ_LOSS_SCALE_FLOOR
        if m is not None and _below(m[1], floor):
            return Signal("loss_scale_collapsed", APPLICATION, f"loss scale collapsed to {m[1]}"
                          " (every step overflows)", line, False, (), rank)  # fmt: skip
    if "Xid" in text and parse_xid(text) is not None:
        return _xid(text, line, rank, names)  # informational Xids (63, 92) are no failure
    found = _gpu(text, line, rank, names)
    if found is not None:
        return found
    if "CUDA" in text or "uda" in text or "CUBLAS" in text or "OutOfMemoryError" in text:
        found = _cuda(text, line, rank, names)
        if found is not None:
            return found
    found = _distributed(text, line, rank, names)
    if found is not None:
        return found
    found = _host(text, line, rank, names)
    if found is not None:
        return found
    found = _storage(text, line, rank, names)
    if found is not None:
        return found
    if "NaN" in text or "iverged" in text or "Invalid loss" in text or ", stopping train" in text:
        m = _DIVERGED.search(text)
        if m is not None:
            return Signal("nan_loss", APPLICATION, f"training diverged: {m.group(0)}", line,
                          False, names.find(text), rank)  # fmt: skip
    if "ismatch" in text:
        m = _COLLECTIVE_MISMATCH.search(text)
        if m is not None:
            return Signal("collective_mismatch", APPLICATION, f"collectives do not match across "
                          f"ranks: {m.group(0)}", line, False, names.find(text), rank)  # fmt: skip
    if "Assertion" in text:
        m = _HOST_ASSERT.search(text)
        if m is not None:
            return Signal("assertion", APPLICATION, f"assertion failed: {m.group(0)[:150]}",
                          line, False, names.find(text), rank)  # fmt: skip
    if "EXHAUSTED" in text or "Exhausted" in text or "OOM when allocating" in text:
        m = _DEVICE_MEMORY_EXHAUSTED.search(text)
        if m is not None:
            return Signal("device_oom", APPLICATION, f"device memory exhausted: {m.group(0)}",
                          line, False, names.find(text), rank)  # fmt: skip
    if "returned nan" in text or "returned an invalid" in text:
        return Signal("nan_detected", APPLICATION, f"autograd anomaly: {text.strip()[:150]}",
                      line, False, names.find(text), rank)  # fmt: skip
    if ("Assertion" in text or "block: [" in text) and _DEVICE_ASSERT.search(text):
        return Signal("device_assert", APPLICATION, "device-side assertion failed", line, False,
                      names.find(text), rank)  # fmt: skip
    if ": error: " in text:
        m = _ARGPARSE.match(text)
        if m is not None:
            return Signal("bad_arguments", APPLICATION, f"command line refused: {text[:150]}",
                          line, False, names.find(text), rank)  # fmt: skip
    if "] " in text and ("F" in text[:2] or ": F " in text):
        m = _FATAL_LOG.search(text)
        if m is not None:
            return _fatal_log(m["msg"] or m["tfmsg"] or "", line, rank, names)
    if text.startswith("Exception in main"):
        m = _CHAINER_LOOP.match(text)
        if m is not None:
            return exception_signal("Exception", m["msg"], line, rank, names)
    if "Uncaught " in text:
        m = _UNCAUGHT.search(text)
        if m is not None:
            return exception_signal(m["type"], m["msg"], line, rank, names)
    if "Error executing job" in text and _HYDRA_FAILED.search(text) is not None:
        return Signal("job_raised", UNKNOWN, "Hydra: the job's function raised an exception",
                      line, False, names.find(text), rank, True, victim=True)  # fmt: skip
    return bare_exception(text, line, rank, names)


# A logger's report of the exception that ended the program, from an excepthook (OLMo's
# "CRITICAL [olmo.util:158, rank=0] Uncaught OLMoThreadError: ..."), behind its prefix.
_UNCAUGHT = re.compile(
    r"\bUncaught (?:exception:? )?(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): "
    r"(?P<msg>.*)$"
)
# Hydra's line when the job's function raised: the exception's own report, when printed,
# follows it (HYDRA_FULL_ERROR decides how much) and says why; alone, the log does not.
_HYDRA_FAILED = re.compile(r"\bError executing job with overrides: ")


# A FATAL line of glog or TensorFlow's logger ("F1123 20:48:03.076 77 file.cc:86] Check failed:
# x", "2022-08-19 19:12:17.857: F tensorflow/.../file.cc:86] Check failed: x"): the process aborts
# right after writing it.
_FATAL_LOG = re.compile(
    r"^\[?F\d{4} \d{2}:\d{2}:\d{2}(?:\.\d+)? +\d+ \S+:\d+\] (?P<msg>.*)"
    r"|: F \S+:\d+\] (?P<tfmsg>.*)"
)


def _fatal_log(message: str, line: str, rank: int | None, names: NodeNames) -> Signal:
    """A broken invariant of the program (a `Check failed`, a limit exceeded): the program's,
    like an assertion. A message that names a cause (a CUDA error, a full disk) never gets
    here: the detectors before this one read the whole line."""
    summary = f"fatal error: {message[:150]}"
    return Signal("fatal_log", APPLICATION, summary, line, False, names.find(line), rank)


# A framework's own verdict that training diverged (detectron2's FloatingPointError, Lightning's
# and fairseq's NaN checks), also when the exception line around it is mangled or cut.
_DIVERGED = re.compile(
    r"Loss became infinite or NaN|[Tt]raining has diverged|contain(?:s)? Inf/NaN"
    r"|Invalid loss, terminating training"
    # torchvision's detection and classification references: "Loss is nan, stopping training"
    r"|\bLoss is (?:nan|inf|-inf), stopping training"
)


# Ranks that called different collectives (or the same one with different sizes): the
# program's order of calls, the same on every run (c10d's TORCH_DISTRIBUTED_DEBUG=DETAIL check;
# gloo's "Received data size doesn't match expected size. Is there a distributed collective
# mismatch in your code?").
_COLLECTIVE_MISMATCH = re.compile(
    r"[Dd]etected mismatch between collectives|collective mismatch in your code"
)


# A C or C++ program's own assertion (assert(3): glibc's "prog: file.c:97: f: Assertion `x'
# failed.", other libcs' and MSVC's "Assertion failed: x (file.c:97)"): the program's bug.
_HOST_ASSERT = re.compile(r"Assertion failed: .+ \(\S+:\d+\)|: Assertion `.*' failed")
# XLA/TensorFlow out of device memory (TPU or GPU): the program's size, like CUDA OOM.
_DEVICE_MEMORY_EXHAUSTED = re.compile(
    r"RESOURCE_EXHAUSTED: (?:Attempting to (?:reserve|allocate)|Out of memory|OOM)"
    r"|ResourceExhaustedError|OOM when allocating tensor"
)


def _below(number: str, floor: float) -> bool:
    try:
        return float(number) < floor
    except ValueError:
        return False


def _xid(text: str, line: str, rank: int | None, names: NodeNames) -> Signal | None:
    xid = parse_xid(text)
    if xid is None:
        return None
    info = xid.info
    nodes = _nodes_for(text, names, xid.host)
    if xid.code == 45 and "caused by previous Xid" in text:
        # Preemptive cleanup of the channels an earlier GPU error broke: that error is the cause.
        return Signal("xid", GPU, f"Xid 45 after a GPU error ({xid.message[:80]})", line, True,
                      nodes, rank, True, False, detail="45")  # fmt: skip
    if xid.code not in XID_TABLE:
        # A code the table does not know: a GPU event whose weight the next lines tell.
        return Signal("xid", GPU, f"Xid {xid.code}: {xid.message[:80]}", line, False, nodes,
                      rank, True, detail=str(xid.code), fatal=False)  # fmt: skip
    if not info.fatal:
        return None  # informational (row remap recorded, SBE rate): no crash
    # An Xid the application usually causes (13, 31, 43) waits: the hardware Xid or the
    # process's own error that often follows in the same kernel log decides the cause.
    immediate = info.category is not APPLICATION
    return Signal("xid", info.category, f"Xid {xid.code}: {info.meaning}", line, immediate,
                  nodes, rank, info.requeue, info.exclude, detail=str(xid.code))  # fmt: skip


# --- Python exceptions ------------------------------------------------------------------------

_TRACEBACK_START = "Traceback (most recent call last):"
# `torch.OutOfMemoryError: CUDA out of memory`, `RuntimeError: x`, `KeyboardInterrupt`
_EXCEPTION = re.compile(
    r"(?P<type>(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt|Exit|Failure"
    r"|Warning|Timeout)|StopIteration)(?::\s*(?P<msg>.*))?$"
)
# Inside a traceback, its exception line names a class of any name, qualified by its module
# ("torch._dynamo.exc.Unsupported: ...", "omegaconf.errors.MissingMandatoryValue: ...").
_QUALIFIED_EXCEPTION = re.compile(r"(?P<type>(?:[a-z_]\w*\.)+[A-Z]\w*)(?::\s+(?P<msg>.*)|:?$)")
# A line that is nothing but an exception report (no traceback header before it, or the header
# cut away): `RuntimeError: ...`, `torch.distributed.DistBackendError: ...`, `Exception: ...`;
# in a pasted log perhaps in Markdown bold (`**RuntimeError: ...**`).
_BARE_EXCEPTION = re.compile(
    r"^\s*(?:\*\*)?(?:E\s+)?(?P<type>(?:[a-z_][\w]*\.)*(?:[A-Z]\w*(?:Error|Exception|Failure|Failed)"
    r"|Exception))(?: \(see above for traceback\))?(?P<sep>:\s|:$|$)(?P<msg>.*)$"
)
# argparse refusing the command line ("train.py: error: argument --fp16: ...", exit 2): the
# job's own launch line, the same on every attempt.
_ARGPARSE = re.compile(
    r"^\S+: error: (?:argument \S+|unrecognized arguments:|the following arguments are required:)"
)
# Chainer's trainer reports the exception that ends its loop before the traceback.
_CHAINER_LOOP = re.compile(r"^Exception in main training loop: (?P<msg>.*)$")
# Raised by code that cannot run at all: the same error recurs on every attempt.
_NOT_A_CRASH = frozenset(
    {"KeyboardInterrupt", "SystemExit", "GeneratorExit",
     # an operation cancelled because something else ended it (TensorFlow's queues closing at
     # shutdown, asyncio tasks, futures): the cause, if any, is elsewhere
     "CancelledError",
     # the job script's `conda activate/deactivate`, not the training: if the environment is
     # then wrong, the program's own ImportError says so
     "CondaError"}
)  # fmt: skip
# An exception whose message is a failed connection (`RuntimeError: Connection reset by peer` from
# init_process_group) failed on the network, whatever its type.
_NETWORK_MESSAGE = re.compile(
    r"Connection (?:reset|refused|timed out|closed) by (?:remote )?peer|Connection refused"
    r"|Broken pipe|Network is unreachable|No route to host|Name or service not known"
    r"|Temporary failure in name resolution"
)
# An exception that reports another process or thread died (a Ray actor or worker, a peer
# process, a data-loading thread): the raiser is a victim; the dead one's own report has the
# cause.
_PEER_DIED = re.compile(
    r"(?:actor|worker|process) died unexpectedly|(?:ActorDied|RayActor|WorkerCrashed"
    r"|ActorUnavailable|OwnerDied|RaySystem)Error|A worker died or was killed while executing"
    # a thread the raiser ran work in (a data loader's) ended with an error of its own
    r"|\bthread\b[^:]* failed$"
    # the DataLoader's summary of its workers that died ("DataLoader worker (pid(s) 14694)
    # exited unexpectedly"): how they died, if the log has it, is on another line
    r"|\bworker \(pid\(s\) [\d, ]+\) exited unexpectedly$"
)
# An OS resource a process could not get for the moment (EAGAIN: threads, processes, locked
# memory): the host's state at that time, not the code; a requeue may well go through.
_TRANSIENT_OS = re.compile(r"Resource temporarily unavailable|\[Errno 11\]")
# The host's memory, as the C library reports it (ENOMEM).
_HOST_MEMORY = re.compile(r"Cannot allocate memory|\[Errno 12\]")
# Python's words when the OS refused it a thread: the host's limit on processes and threads (a
# pids cgroup, `ulimit -u`) was reached, by this job or another; nothing in the code is wrong.
_NO_THREAD = "can't start new thread"
_NETWORKISH = frozenset(
    {"DistNetworkError", "DistStoreError", "ConnectionError", "ConnectionResetError",
     "ConnectionRefusedError", "ConnectionAbortedError", "BrokenPipeError", "TimeoutError",
     "RendezvousConnectionError", "RendezvousTimeoutError", "gaierror", "SSLError"}
)  # fmt: skip


def exception_signal(
    exc_type: str, message: str, line: str, rank: int | None, names: NodeNames | None = None
) -> Signal | None:
    """Classify a Python exception (its `Type: message` line)."""
    short = exc_type.rsplit(".", 1)[-1]
    if short in _NOT_A_CRASH or short.endswith("Warning"):
        return None
    if short == "CommandNotFoundError" and "to use 'conda" in message:
        return None  # conda's own (a CondaError): the job script's `conda activate`, as above
    names = names or _NO_NAMES
    nodes = names.find(line)
    if short == "ChildFailedError":  # torchrun's report that a worker failed: see the worker's
        return Signal("worker_failed", UNKNOWN, "torch elastic: a worker process failed", line,
                      True, nodes, rank, victim=True, detail=exc_type)  # fmt: skip
    summary = f"Python exception {exc_type}" + (f": {message[:200]}" if message else "")
    if _PEER_DIED.search(exc_type) or _PEER_DIED.search(message):
        return Signal("peer_died", UNKNOWN, summary, line, False, nodes, rank, True,
                      victim=True, detail=exc_type)  # fmt: skip
    inner = _detect(message, line, rank, names) if message else None
    if inner is not None and inner.name != "python_exception":
        # RuntimeError: CUDA error: ..., DistBackendError: NCCL error ..., OSError: [Errno 5] ...
        return replace(inner, summary=summary, detail=exc_type, fatal=True)
    if _TRANSIENT_OS.search(message):
        return Signal("os_resource", UNKNOWN, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    if _HOST_MEMORY.search(message):
        return Signal("host_memory", NODE, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    if message.startswith(_NO_THREAD):
        return Signal("host_threads", NODE, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    if short in _NETWORKISH or _NETWORK_MESSAGE.search(message):
        found = Signal("python_exception", NETWORK, summary, line, False, nodes, rank, True,
                       detail=exc_type,
                       peer_lost=_PEER_LOSS.search(message) is not None)  # fmt: skip
        return _outside_service(found) if _HTTP_EXCEPTION.match(exc_type) else found
    if _SERVER_FAILED.search(message):
        # A server that answered with its own failure was reached and failed to serve the data
        # (a dataset streamed from a hub, an object store): the remote store's fault, and
        # transient; a requeue reads it again.
        return Signal("outside_store_failed", STORAGE, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    if short in ("MemoryError",):
        return Signal("python_exception", NODE, summary, line, False, nodes, rank, True,
                      detail=exc_type)  # fmt: skip
    # Everything else a Python program raises and does not handle is its own error: a bug, a
    # bad configuration, a shape or dtype mismatch, a missing file or module.
    return Signal("python_exception", APPLICATION, summary, line, False, nodes, rank,
                  detail=exc_type)  # fmt: skip


# An HTTP client's frames (Python's urllib/http.client, requests, urllib3, httpx, the Hugging
# Face hub): a connection it could not make is to a service outside the cluster.
_HTTP_CLIENT = re.compile(
    r"/(?:urllib/request|http/client|requests/|urllib3/|httpx/|huggingface_hub/|aiohttp/)"
)
# Python's POSIX semaphores and shared memory (multiprocessing's locks and queues, a DataLoader's
# worker queues) live in /dev/shm: a file system error raised in these frames is the node's shared
# memory, not the job's storage.
_SHM_FRAME = re.compile(r"/multiprocessing/(?:synchronize|shared_memory|heap)\.py\b")
# The thread behind a multiprocessing queue (a DataLoader worker's results): an exception it
# raises while pickling an item is printed and caught (`Queue._on_queue_feeder_error`).
_FEEDER_FRAME = re.compile(r'/multiprocessing/queues\.py", line \d+, in _feed$')
# threading's excepthook: "Exception in thread Thread-1:", "Exception in thread
# Thread-3 (_worker):" (Python 3.10+ adds the target's name).
_THREAD_EXCEPTION = re.compile(r"Exception in thread (?P<name>.+?):$")
_MAX_THREADS = 8
_THREAD_WAIT = 8  # lines an announced thread's traceback may come after its announcement
_HTTP_EXCEPTION = re.compile(
    r"^(?:urllib\.error\.URLError|requests\.exceptions\.\w+|urllib3\.exceptions\.\w+"
    r"|huggingface_hub\.\S+|httpx\.\w+)$"
)


def _outside_service(found: Signal) -> Signal:
    """A download or an API call that could not reach its server (a model hub, a dataset URL):
    not the cluster's fabric, and no node to exclude; the job has to fetch it beforehand (compute
    nodes are often cut off from the internet on purpose).

    A transfer that broke off midway (a reset, a read timeout, a streaming client closed after
    one) reached its server: the service was there and the link dropped. That is transient, and
    a requeue resumes (a dataset streamed from a hub for hours): NETWORK, still no node."""
    if _MID_STREAM.search(found.summary):
        return replace(found, name="outside_service_dropped", category=NETWORK, requeue=True,
                       victim=False, peer_lost=False)  # fmt: skip
    return replace(found, name="outside_service", category=APPLICATION, requeue=False,
                   victim=False)  # fmt: skip


# An HTTP server's own failure: a 5xx status, as requests and the Hugging Face hub word it.
_SERVER_FAILED = re.compile(
    r"\b5\d\d Server Error\b|\b50[234] (?:Service Unavailable|Bad Gateway|Gateway Time-?out)\b"
)
# An HTTP transfer that broke off after it had connected (requests', urllib3's, http.client's and
# httpx's words for it).
_MID_STREAM = re.compile(
    r"Connection reset|Connection broken|Connection aborted|RemoteDisconnected|IncompleteRead"
    r"|ChunkedEncodingError|Read timed out|ReadTimeout|client has been closed"
)


# A write the file system refused: EPERM (an immutable file or directory) or EACCES.
_WRITE_DENIED = re.compile(r"\[Errno (?:1|13)\] (?:Operation not permitted|Permission denied)")


def write_denied(signal: Signal) -> bool:
    """`signal` is a program's exception that a file system refused it access."""
    return signal.category is APPLICATION and _WRITE_DENIED.search(signal.summary) is not None


def bare_exception(
    text: str, line: str, rank: int | None, names: NodeNames | None = None
) -> Signal | None:
    """An exception line on its own (`RuntimeError: ...`), without a traceback before it."""
    if "rror" not in text and "xception" not in text and "ailure" not in text:
        return None
    m = _BARE_EXCEPTION.match(text)
    if m is None:
        return None
    exc_type = m["type"]
    if "." in exc_type and not exc_type.split(".")[-1][:1].isupper():
        return None
    return exception_signal(exc_type, m["msg"].strip(), line, rank, names)


@dataclass(slots=True)
class _OpenTraceback:
    """What is known of one rank's traceback before its exception line."""

    seen: int = 0  # its lines so far
    http: bool = False  # a frame was an HTTP client's
    shm: bool = False  # the last frame was in multiprocessing's /dev/shm code
    feeder: bool = False  # the first frame was a multiprocessing queue's feeder thread
    # One entry per traceback this state follows, oldest first: the thread Python named before
    # it ("Exception in thread NAME:": that thread's only), or "". More than one when tracebacks
    # of the same rank began before the first printed a frame (two threads' reports
    # interleaved): each ends in its own exception line.
    threads: list[str] = field(default_factory=list)
    ignored: bool = False  # Python said before it "Exception ignored in ...": no death


class Traceback:
    """Follows Python tracebacks per rank (ranks' lines interleave) to their exception line.

    State is one small entry per rank currently inside a traceback; a traceback that never
    reaches an exception line is dropped after `max_lines` of that rank's lines.
    """

    def __init__(self, *, max_lines: int = 400, max_open: int = 4096) -> None:
        self._open: dict[int | None, _OpenTraceback] = {}  # by rank (or srun label)
        # The last "Exception ignored in ..." line's rank (or label), until its traceback starts
        self._ignored: tuple[int | None] | None = None
        # Threads whose exception Python announced ("Exception in thread Thread-1:"), by rank (or
        # label), oldest first, until their tracebacks start (several may be announced first)
        self._threads: dict[int | None, list[str]] = {}
        self._thread_lines = 0  # lines since the last announcement
        # A traceback that ended in StopIteration (an iterator ran out: in a training loop, the
        # data) is a death unless a handler caught it: the rank's next line then says "During
        # handling of the above exception", and the signal is taken back (`retracted`).
        self._stop_key: tuple[int | None] | None = None
        self.retracted = False
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
            self.active = bool(self._open) or self._stop_key is not None

    def _feed(self, line: str, names: NodeNames | None) -> Signal | None:
        self.consumed = self.retracted = False
        if self._stop_key is not None:
            rank, label, text = split_prefix(line)
            stripped = text.strip()
            if stripped.startswith("During handling"):
                caught = self._stop_key == (label if label is not None else rank,)
                self._stop_key = None
                if caught:
                    self.retracted = self.consumed = True
                    return None
            elif stripped:
                self._stop_key = None
        if "Exception ignored" in line:
            # Python's report of an exception it ignores (in a __del__, a weakref callback, an
            # atexit function at shutdown): it prints the traceback and goes on, or exits as
            # it was exiting anyway. Its traceback follows on the next line.
            rank, label, text = split_prefix(line)
            if text.startswith("Exception ignored"):
                self._ignored = (label if label is not None else rank,)
                self.consumed = True
                return None
        if "Exception in thread " in line:
            # threading's report of an exception that ended one thread (not the process): its
            # traceback follows, maybe after other threads' reports.
            rank, label, text = split_prefix(line)
            m = _THREAD_EXCEPTION.match(text.strip())
            if m is not None:
                pending = self._threads.setdefault(label if label is not None else rank, [])
                if len(pending) < _MAX_THREADS and len(self._threads) <= self._max_open:
                    pending.append(m["name"])
                self._thread_lines = 0
                self.consumed = True
                return None
        if self._threads and "Traceback" not in line:
            # An announcement whose traceback does not follow within a few lines: the next
            # traceback, whenever it comes, is not that thread's.
            self._thread_lines += 1
            if self._thread_lines > _THREAD_WAIT:
                self._threads.clear()
        if not self._open and "Traceback" not in line:
            self._ignored = None
            return None
        rank, label, text = split_prefix(line)
        key = label if label is not None else rank
        if text.startswith(_TRACEBACK_START) or text.endswith(_TRACEBACK_START):
            if len(self._open) >= self._max_open:
                self._open.pop(next(iter(self._open)))
            threads = self._threads.get(key)
            thread = threads.pop(0) if threads else ""
            if threads is not None and not threads:
                del self._threads[key]
            open_ = self._open.get(key)
            if open_ is not None and open_.seen == 0 and len(open_.threads) <= _MAX_THREADS:
                open_.threads.append(thread)  # interleaved with the one begun just before
            else:
                self._open[key] = _OpenTraceback(ignored=self._ignored == (key,), threads=[thread])
            self._ignored = None
            self.consumed = True
            return None
        self._ignored = None
        state = self._open.get(key)
        if state is None:
            return None
        if state.seen >= self._max_lines:
            del self._open[key]
            return None
        # Frames ("  File ...", code lines) are indented; chained tracebacks add a blank line
        # and a sentence ("During handling ...", "The above exception ...") before their own
        # "Traceback" line.
        stripped = text.strip()
        state.seen += 1
        if stripped.startswith("File "):
            state.http = state.http or _HTTP_CLIENT.search(stripped) is not None
            state.shm = _SHM_FRAME.search(stripped) is not None
            if state.seen == 1:
                state.feeder = _FEEDER_FRAME.search(stripped) is not None
        if (
            not stripped
            or text[:1] in " \t^~"
            or stripped.startswith(("During handling", "The above exception"))
        ):
            self.consumed = True
            return None
        if stripped[:2] == "**":  # a pasted log's Markdown bold around the line
            stripped = stripped.strip("*").strip()
        m = _EXCEPTION.match(stripped) or _QUALIFIED_EXCEPTION.match(stripped)
        if m is None:
            return None
        thread = state.threads.pop(0) if state.threads else ""
        if not state.threads:  # else an interleaved traceback's exception line is still to come
            del self._open[key]
        if state.ignored:
            self.consumed = True  # not a bare exception line either
            return None
        found = exception_signal(m["type"], m["msg"] or "", line, rank, names)
        if (
            state.http
            and found is not None
            and (
                found.category is NETWORK
                or (found.category is APPLICATION and _MID_STREAM.search(found.summary))
            )
        ):
            return _outside_service(found)
        if state.shm and found is not None and found.category is STORAGE:
            found = replace(found, name="shm_exhausted", category=NODE,
                            summary=f"shared memory (/dev/shm): {found.summary}")  # fmt: skip
        if found is not None and m["type"] == "StopIteration":
            self._stop_key = (key,)
        if thread and found is not None and thread != "MainThread":
            # The exception ended that thread; the process goes on (the main thread may wait on
            # it: a hang, or a crash it reports itself).
            found = replace(found, fatal=False, immediate=False,
                            summary=f"{found.summary} (in thread {thread})")  # fmt: skip
        if state.feeder and found is not None:
            # multiprocessing's queue feeder thread prints what it could not send and goes on:
            # the process lives, and the item never arrives (its reader may wait forever).
            found = replace(found, fatal=False, immediate=False,
                            summary=f"{found.summary} (in a queue's feeder thread)")  # fmt: skip
        return found
