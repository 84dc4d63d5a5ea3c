"""Several attempts of one job in one file. Pure; used by `ajr check-log` (a whole file).

Slurm appends a requeued batch job's output to the file its earlier attempt wrote (preemption
with PreemptMode=REQUEUE, `scontrol requeue`, a node failure with JobRequeue): the file then
holds the first attempt's end (slurmstepd's "*** JOB 9 ON n1 CANCELLED AT ... DUE TO
PREEMPTION ***"), then the next attempt from its start. The watcher sees each attempt on its
own: each reads its attempt's own log with a fresh engine (the seed's log names carry the
attempt's start, and a file an earlier attempt wrote is never taken for a later one,
activities/logs/locate.py). A reader of the whole file must split it the same way, or the
first attempt's preemption decides the fate of a job whose last attempt finished.

An attempt's end is no proof that another began: the job's own lines after Slurm's cancel may
be its dying words (a SIGTERM handler's save). A checkpoint *loaded* after the cancel is: a
dying process saves, it does not load.
"""

from __future__ import annotations

import re

# slurmstepd's line when Slurm ends a job or a step (any reason: the load decides).
_CANCELLED = re.compile(r"\*\*\* (?:JOB|STEP) \S+ ON \S+ CANCELLED AT ")
# Lines Slurm's own tools print as a step ends: srun's, slurmstepd's (with its host).
_SLURM_OWN = re.compile(r"(?:srun|slurmstepd(?:-[\w.-]+)?|sbatch|salloc): ")


def slurm_cancelled(text: str) -> bool:
    """`text` (a line, with or without its rank prefix) is Slurm's cancel of the job or a
    step."""
    return "CANCELLED AT" in text and _CANCELLED.search(text) is not None


def slurm_own(text: str) -> bool:
    """`text` is srun's or slurmstepd's own line: the end of a step, not a job's output."""
    return _SLURM_OWN.match(text) is not None
