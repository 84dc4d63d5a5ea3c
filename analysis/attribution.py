"""From the failure signals of one attempt to a cause: category, culprit nodes, confidence.

Rules, in order:
- Signals that follow a Slurm cancel line (time limit, preemption, node failure, scancel) are
  its consequences: the processes die because Slurm killed them. Not slurmstepd's count of
  the step's OOM kills, printed as the step ends: the kills came before.
- A step cancelled for no stated reason, with nothing else failing, in a log srun writes to
  (where it would have reported a task that died) was cancelled from outside: SCHEDULER.
- A SIGUSR1/2 is the scheduler's (Slurm's --signal, LSF) when it reached the job; one that
  ended fewer workers than the ranks that failed was aimed at one process: UNKNOWN.
- Otherwise the strongest class wins: suspect hardware that names nodes, then other hardware
  and Slurm, then network and storage, then the application's own errors, and last the
  victims (a watchdog timeout, "remote process exited", tasks srun killed after another
  failed). Within a class the first signal wins: the first failing rank, not the ones that
  died of it.
- Culprit nodes (the ones to exclude) come only from hardware-suspect signals; an application
  or network error never excludes a node by itself.
- A requeue is called unwarranted only when the cause is the application's own error.
- A network error after another failure is that failure's victim (the peer went away); a
  process's abort is no such failure: its own error, on another line, is. But a rank that
  aborted and said nothing else died unseen: the connections other ranks lost were its. A
  connection reset or closed by the other end is the victim of a death anywhere in the attempt,
  printed before or after it (ranks' output interleaves). A line that explains the error before
  it (NCCL's "Last error: Failed to initialize any NET plugin") is its cause, not its victim.
- When only victims remain and two ranks or more each lost their connection to a peer, with
  nobody killed and no failure of its own, the link between them failed: NETWORK.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from analysis.layout import node_of_rank
from analysis.signals import (
    APPLICATION,
    GPU,
    NETWORK,
    NODE,
    SCHEDULER,
    STORAGE,
    UNKNOWN,
    Signal,
)
from models.categories import Category

_MAX_EVIDENCE = 8
_CONFIDENCE = (0.9, 0.75, 0.6, 0.7, 0.5, 0.35)  # by class of the root cause


@dataclass(frozen=True)
class Attribution:
    category: Category
    summary: str
    confidence: float  # 0..1: how sure the cause is the root cause
    culprit_nodes: tuple[str, ...] = ()  # suspect hardware: exclude on requeue
    suspect_nodes: tuple[str, ...] = ()  # every job node the signals name
    evidence: tuple[str, ...] = ()  # the root cause's line first
    requeue: bool = True  # a requeue can help (False: a deterministic application error)
    root: Signal | None = None


def _with_rank_node(signal: Signal, rank_nodes: Sequence[str]) -> Signal:
    node = node_of_rank(rank_nodes, signal.rank)
    if signal.nodes or not node:
        return signal
    return replace(signal, nodes=(node,))


def _klass(signal: Signal) -> int:
    if signal.victim:
        return 5
    if signal.name == "job_deleted":
        return 4  # a deletion record: a reason stated with it (node failure, limit) is the cause
    if signal.category in (GPU, NODE) and signal.exclude and signal.nodes:
        return 0
    if signal.category in (GPU, NODE, SCHEDULER):
        return 1
    if signal.category in (NETWORK, STORAGE):
        return 2
    if signal.category is APPLICATION:
        return 3
    return 4


# Signals that explain the error printed just before them (NCCL's "Last error:" lines).
_EXPLAINS = frozenset({"nccl_net_init"})


def _after_a_crash(signals: Sequence[Signal]) -> list[Signal]:
    """Network errors that follow another failure are its victims: the peer went away.

    "NETWORK unless the log shows a peer crashed first (then the peer's cause wins)".
    """
    out: list[Signal] = []
    # Ranks' output interleaves: a connection reset by a peer may be printed before the line
    # where that peer died. Any death in the attempt explains such resets.
    died = any(_a_death(signal) for signal in signals) or _killed_first(signals)
    aborted = _aborted_unheard(signals)
    crashed = False
    for signal in signals:
        lost_an_aborted_peer = signal.peer_lost and bool(aborted - {signal.rank})
        victim = crashed or (signal.peer_lost and died) or lost_an_aborted_peer
        if victim and signal.name in _EXPLAINS:
            victim = False  # the detail of the error just printed, not its consequence
        if victim and signal.category is NETWORK and not signal.victim:
            signal = replace(signal, victim=True)
        out.append(signal)
        crashed = crashed or _a_death(signal)
    return out


# torch elastic's record of a worker that a SIGUSR1/2 ended, with the worker's PID.
_ELASTIC_USR = re.compile(r"Signal 1[02] \(SIGUSR[12]\) received by PID (\d+)")


def _signalled_alone(signals: Sequence[Signal]) -> list[Signal]:
    """A SIGUSR1/2 is the scheduler's when it reaches the job (Slurm's --signal and LSF signal
    every process of the step); when it ended fewer workers than the ranks that printed
    failures (one rank got it, the others were torn down after), someone aimed it at one
    process: a death from outside whose cause the log does not show."""
    # (signals.py reads those records as a stop from outside: "preempted")
    usr = {
        i: m[1]
        for i, s in enumerate(signals)
        if s.name == "preempted" and (m := _ELASTIC_USR.search(s.line)) is not None
    }
    ranks = {s.rank for s in signals if s.rank is not None}
    if not usr or len(set(usr.values())) >= len(ranks):
        return list(signals)
    return [
        replace(s, category=UNKNOWN, summary=f"a worker killed from outside: {s.line.strip()}")
        if i in usr
        else s
        for i, s in enumerate(signals)
    ]


# srun's words for a task a signal ended: SIGKILL's, SIGTERM's and SIGHUP's.
_UNSEEN_KILLS = frozenset({"Killed", "Terminated", "Hangup"})


def _killed_first(signals: Sequence[Signal]) -> bool:
    """srun's first report of a task's end says a signal killed it, before any task exited
    with the error it printed: that task died unseen first (a kill -9, a kernel OOM kill, a
    SIGTERM or SIGHUP from outside Slurm), and the connections its peers lost ("Connection
    reset by peer") went with it. When srun kills the rest of a step after a task failed, the
    failed task's exit is reported first."""
    for signal in signals:
        if signal.name == "srun_task_killed" and signal.detail in _UNSEEN_KILLS:
            return True
        if signal.name in ("srun_task_exit", "srun_task_crash"):
            return False
    return False


def _aborted_unheard(signals: Sequence[Signal]) -> set[int]:
    """The ranks torn down by abort() that said nothing else: they died of a cause the log does
    not show, and the connections other ranks then lost were theirs (an abort after its own
    rank's error, a lost connection included, is that error's: see `_a_death`)."""
    aborted = {s.rank for s in signals if s.teardown and s.rank is not None}
    return aborted - {s.rank for s in signals if not s.teardown}


# A process that a signal killed: it died unseen, and its peers' lost connections follow from it.
_KILLED = re.compile(r"exit ?code\s*:?\s*-\d|[Ss]ignal:? \d|\bSIG[A-Z]{2,}|\bKilled\b")


# c10d's store server failing to bind its port: "The server socket has failed to bind to
# [::]:17717 (errno: 98 - Address already in use)".
_STORE_PORT_TAKEN = re.compile(r"failed to bind to \S*?:(\d+) \(errno: 98\b")


def _store_port_contended(signals: Sequence[Signal]) -> str | None:
    """The port that two or more of the job's processes failed to bind for the rendezvous
    store in one attempt, or None."""
    counts: dict[str, int] = {}
    for signal in signals:
        m = _STORE_PORT_TAKEN.search(signal.line)
        if m is not None:
            counts[m[1]] = counts.get(m[1], 0) + 1
    return next((port for port, n in counts.items() if n >= 2), None)


def _terminated_by_its_cancel(signals: Sequence[Signal], cancel: int) -> bool:
    """srun reported every task of a step "Terminated" (SIGTERM, what a cancel sends) after the
    step's reasonless cancel at `cancel`, none having ended on its own: the step was cancelled
    from outside (scancel, a preemption). srun ending a step after a task failed kills the
    others ("Killed"), after that task's own end."""
    after = signals[cancel + 1 :]
    return (
        signals[cancel].name == "slurm_step_cancelled"
        and bool(after)
        and all(s.name == "srun_task_killed" and s.detail == "Terminated" for s in after)
    )


def _links_failed(signals: Sequence[Signal]) -> bool:
    """Two ranks or more each lost their connection to a peer, and nothing else happened: no
    rank failed of its own, none was killed (the processes exited with the errors they printed).
    Each side saw the other go away, so neither went first: the link between them failed."""
    ranks = {s.rank for s in signals if s.name == "peer_gone" and s.rank is not None}
    return len(ranks) >= 2 and all(
        s.victim and _KILLED.search(s.line) is None for s in signals if s.name != "peer_gone"
    )


def _a_death(signal: Signal) -> bool:
    """A failure of its own that later network errors may follow from. An abort, and a death
    the log gives no cause for (Ray's "a worker died"), are none: those errors may be what they
    died of."""
    return (
        signal.fatal
        and not (signal.victim or signal.hang or signal.cause_elsewhere)
        and signal.category is not NETWORK
    )


def attribute(
    signals: Sequence[Signal],
    rank_nodes: Sequence[str] = (),
    job_nodes: Sequence[str] = (),
    srun_speaks: bool = False,
) -> Attribution | None:
    """The most likely cause among `signals` (in log order), or None when there are none.

    `rank_nodes` maps rank -> node (see layout.py): a signal that names only its rank is
    attributed to the node that rank ran on; a job on a single node has that node as the culprit
    of a hardware fault. A collective timeout is never a cause (it says that the job hangs, see
    the engine); when only victims remain, the cause is UNKNOWN. `srun_speaks`: srun's own
    lines are in the log, so its reports of how tasks ended would be too.
    """
    # (a hang's signal counts: a cancel after a watchdog's timeout is the hung job's end)
    only_signal = len(signals) == 1
    causes = [s for s in signals if not s.hang]
    if not causes:
        return None
    signals = _after_a_crash([_with_rank_node(signal, rank_nodes) for signal in causes])
    signals = _signalled_alone(signals)
    # Everything after Slurm's own cancel line happened because of it; a cancel without a
    # reason (a step ended) may be followed by the job's, which says why (preemption).
    cancels = [i for i, signal in enumerate(signals) if signal.name.startswith("slurm_")]
    # A reasonless job cancel anywhere (scancel of the job: its steps' cancels come first).
    job_cancelled = any(s.name == "slurm_step_cancelled" and s.detail == "job" for s in signals)
    step_terminated = bool(cancels) and _terminated_by_its_cancel(signals, cancels[0])
    # The ranks' own signal handlers then called it a preemption (slurmstepd's step line names
    # no reason; the job's, with PREEMPTION, went to the batch log).
    said_preempted = bool(cancels) and any(
        s.name == "preempted" and s.detail == "preemption" for s in signals[cancels[0] + 1 :]
    )
    if cancels:
        reasoned = [i for i in cancels if not signals[i].victim]
        cut = (reasoned or cancels)[0]
        if signals[cut].name == "slurm_node_failure" and not signals[cut].nodes:
            # slurmstepd's "JOB 1 ON n1 ... DUE TO NODE FAILURE" names the batch host; srun's
            # "Node failure on n2", printed with it, names the node that failed.
            failed = next((s for s in signals[cut:] if s.name == "srun_node_failure"), None)
            if failed is not None:
                signals[cut] = replace(signals[cut], nodes=failed.nodes, exclude=True)
        # slurmstepd's count of the step's OOM kills, printed as the step ends, is no
        # consequence of the cancel (a cancel signals; the memory cgroup counts its own kills):
        # the deaths before the cancel were those kills.
        signals = signals[: cut + 1] + [s for s in signals[cut + 1 :] if s.name == "host_oom"]
        if signals[cut].outside_stop and any(_a_death(s) for s in signals[:cut]):
            # A process had died of its own before the stop, and training never went past it
            # (the engine forgets the signals training gets past): the stop ended a job that
            # had failed already and sat on (its other ranks waiting, its script not done).
            signals[cut] = replace(signals[cut], victim=True)
    ranked = sorted(range(len(signals)), key=lambda i: (_klass(signals[i]), i))
    root = signals[ranked[0]]
    klass = _klass(root)

    culprits: list[str] = []
    if klass == 0:
        for signal in signals:
            if _klass(signal) == 0:
                culprits += [n for n in signal.nodes if n not in culprits]
    hardware = root.category is GPU or (root.category is NODE and root.exclude)
    if not culprits and hardware and not root.victim and len(set(job_nodes)) == 1:
        culprits = [job_nodes[0]]
    suspects: list[str] = []
    for signal in signals:
        suspects += [n for n in signal.nodes if n not in suspects]

    evidence = [root.line]
    for signal in signals:
        if len(evidence) >= _MAX_EVIDENCE:
            break
        if signal.line not in evidence:
            evidence.append(signal.line)

    agreeing = sum(1 for s in signals if s.category == root.category and not s.victim)
    confidence = min(0.95, _CONFIDENCE[klass] + 0.05 * max(0, agreeing - 1))
    category = root.category
    if root.victim:
        # Only victims: the cause is not in the log. A whole job cancelled without a reason that
        # nothing failed before is a person's scancel from outside: the scheduler's, not the
        # job's; so is a step's whose tasks were all terminated by it, or that its ranks then
        # called a preemption. (A step's reasonless cancel is also srun's after a task died
        # unseen: UNKNOWN.)
        # So is a step's cancel that is the attempt's only failure signal in a log srun writes
        # to: a task that died unseen would have left srun's report of it beside the cancel.
        alone = srun_speaks and only_signal
        from_outside = job_cancelled or step_terminated or said_preempted or alone
        category = SCHEDULER if root.name == "slurm_step_cancelled" and from_outside else UNKNOWN
        if _links_failed(signals):
            category = NETWORK
    requeue = root.requeue_helps if not root.victim else True
    summary = root.summary
    port = _store_port_contended(signals)
    if port is not None and category is NETWORK:
        # Not a port some other program holds: the job's own processes each tried to host the
        # rendezvous store (every task took itself for rank 0), and all but one failed. The
        # launch gives its tasks no ranks of their own; a requeue launches them the same way.
        category, requeue = APPLICATION, False
        summary = (
            f"{summary} (several of the job's processes tried to bind the store's port {port}:"
            " each took itself for rank 0)"
        )
    if len(signals) > 1:
        summary += f" (first cause of {len(signals)} failure signals)"
    return Attribution(
        category=category,
        summary=summary,
        confidence=confidence,
        culprit_nodes=tuple(culprits),
        suspect_nodes=tuple(suspects),
        evidence=tuple(evidence),
        requeue=requeue,
        root=root,
    )
