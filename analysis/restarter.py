"""Is the job run by an in-job restarter (NVRx `ft_launcher`)? Pure; fed by the log engine.

Such a launcher restarts every rank in place after a failure (a crash, a missed heartbeat) and
exits only when it gives up (93: do not requeue). ajr then leaves in-place failures to it and
acts on the job's exit, so the two never restart the same failure.
"""

from __future__ import annotations

# NVRx's own names in its log lines: the launcher, its package (logger names such as
# `nvidia_resiliency_ext.fault_tolerance.launcher`) and its per-rank monitor.
TOKENS = ("ft_launcher", "nvidia_resiliency_ext", "RankMonitorServer")


def mentions_in_job_restarter(line: str) -> bool:
    return any(token in line for token in TOKENS)
