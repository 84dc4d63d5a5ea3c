"""What Megatron-LM's rerun state machine and NVRx's ft_launcher print when they end a job.

Texts from Megatron-LM core_v0.19.0 megatron/core/rerun_state_machine.py (logged through
Python logging with Megatron's `logging.basicConfig`, i.e. "LEVEL:logger:message") and from
nvidia-resiliency-ext (d8686d9) fault_tolerance/launcher.py with its log_manager format. The
faultjob really re-runs the step and really exits with the code; only the wording is theirs.
"""

from __future__ import annotations

import logging
import sys
from datetime import datetime

EXIT_CODE_RESUME_TO_DISAMBIGUATE = 16
EXIT_CODE_FAILED_ON_RESULT_VALIDATION = 17
NVRX_NO_RESTART_EXIT_CODE = 93
NAN_MESSAGE = "found NaN in local forward loss calculation"

_LOGGER_NAME = "megatron.core.rerun_state_machine"


def rerun_logger() -> logging.Logger:
    """Megatron's logger: basicConfig's default format "%(levelname)s:%(name)s:%(message)s"."""
    logger = logging.getLogger(_LOGGER_NAME)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def disabled_mode_error(rank: int, node: str, device: int, iteration: int, result: str) -> str:
    """The RuntimeError text of validate_result() with the state machine disabled, fatal."""
    return (
        f"Rank {rank}, node {node}, device {device}, iteration {iteration}: "
        f"Unexpected result {result} (message='{NAN_MESSAGE}')"
    )


def unexpected_result(rank: int, iteration: int, result: str) -> str:
    return (
        f"Unexpected result {result} on rank {rank} at iteration #{iteration} "
        f"invocation #1 (message='{NAN_MESSAGE}')"
    )


def failure(rank: int, node: str, device: int, iteration: int, message: str) -> str:
    """log_failure(): the rank/node/device prefix and a trailing "!"."""
    return f"Rank {rank}, node {node}, device {device}, iteration #{iteration}: {message}!"


NEED_RERUN = "Need to rerun step to check reproducibility of initial result"
VALIDATION_ENABLED = "Result validation enabled"


def first_rerun_reproducible(result: str, initial: str) -> str:
    return (
        "First rerun: unexpected result is reproducible within the tolerance "
        f"({result} = {initial}). Need to rerun on a different GPU to verify correctness."
    )


def first_rerun_not_reproducible(result: str, initial: str) -> str:
    return (
        "First rerun: unexpected result is not reproducible within the tolerance "
        f"({result} != {initial})"
    )


POSSIBLE_TRANSIENT = "Possible transient error!"
EXIT_CHECKPOINT_16 = (
    "Saving a checkpoint and exiting now. Please resume the job from the checkpoint to rerun "
    "the last iteration and establish a diagnostic"
)
EXIT_17 = "Exiting now. The job can be resumed from a previous checkpoint"


def nvrx_lines(node: str, node_rank: int, role: str = "default") -> list[str]:
    """ft_launcher's two ERROR lines when its progress tracker stops the job (exit 93)."""
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    prefix = f"{stamp} [ERROR] [{node}] [workload:?(?) infra:{node_rank}(0)]"
    reason = "Progress tracker detected no progress across restarts."
    return [
        f"{prefix} launcher.py:620 [{role}] {reason} No more restarts will be attempted.",
        f"{prefix} launcher.py:3653 NVRx decided the job must not be restarted (no_progress): "
        f"{reason}. Agent's exit code = {NVRX_NO_RESTART_EXIT_CODE}",
    ]
