"""The basic analyzer: a small crash-signature set, checkpoint patterns and a flat hang timeout.

The log-intelligence engine replaces it behind the same `LogAnalyzer` protocol.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from analysis.analyzer import AnalyzerContext, Finding, Milestones
from models.categories import Category
from models.recovery import Observed

CRASH_SIGNATURES: tuple[tuple[str, Category, re.Pattern[str]], ...] = (
    (
        "segfault",
        Category.APPLICATION,
        re.compile(
            r"segmentation fault|\b(?:received|caught|got|by|with)\s+(?:signal\s+)?SIGSEGV",
            re.IGNORECASE,
        ),
    ),
    ("cuda", Category.GPU, re.compile(r"CUDA error|CUDA_ERROR_|cudaError", re.IGNORECASE)),
    (
        "nccl",
        Category.NETWORK,
        re.compile(
            r"NCCL error|ncclSystemError|ncclInternalError|NCCL WARN.*(?:error|timeout)",
            re.IGNORECASE,
        ),
    ),
    ("xid", Category.GPU, re.compile(r"\bNVRM: Xid\b|\bXid \(PCI:")),
)
_TRACEBACK_START = re.compile(r"Traceback \(most recent call last\):")
# The last line of a traceback: `torch.OutOfMemoryError: ...`, `KeyboardInterrupt`.
_EXCEPTION_LINE = re.compile(
    r"^\s*(?:\d+:\s*)?((?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt|Exit))\b(?::|$)"
)
_RANK_PREFIX = re.compile(r"^\s*\d+:\s")


def _word(node: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(node)}(?![\w-])")


class SignatureAnalyzer:
    def __init__(self, context: AnalyzerContext) -> None:
        self._context = context
        self._checkpoint = (
            re.compile("|".join(f"(?:{p})" for p in context.settings.checkpoint_patterns))
            if context.settings.checkpoint_patterns
            else None
        )
        self._node_words = [(node, _word(node)) for node in context.job_nodes]
        self._in_traceback = False
        self._traceback_head = ""
        self._checkpoints = 0

    @property
    def checkpoints(self) -> int:
        return self._checkpoints

    def milestones(self) -> Milestones:
        return Milestones()  # the basic signature set does not follow progress

    def end_of_attempt(self, *, failed: bool, at: float) -> None:
        return None

    def final_finding(self) -> Finding | None:
        return None

    def export_state(self) -> dict[str, Any]:
        return {"in_traceback": self._in_traceback, "head": self._traceback_head[:1000]}

    def restore_state(self, state: Mapping[str, Any]) -> bool:
        if not isinstance(state, Mapping) or "in_traceback" not in state:
            return False
        self._in_traceback = bool(state["in_traceback"])
        self._traceback_head = str(state.get("head") or "")
        return True

    def nodes_named_in(self, line: str) -> tuple[str, ...]:
        return tuple(node for node, word in self._node_words if word.search(line))

    def feed(self, line: str, at: float) -> Finding | None:
        if self._checkpoint is not None and self._checkpoint.search(line):
            self._checkpoints += 1
            return None
        for name, category, pattern in CRASH_SIGNATURES:
            if pattern.search(line):
                return Finding(
                    Observed.CRASH,
                    f"{name} signature",
                    evidence=(line,),
                    culprit_nodes=self.nodes_named_in(line),
                    category=category,
                )
        if _TRACEBACK_START.search(line):
            self._in_traceback, self._traceback_head = True, line
            return None
        if self._in_traceback:
            body = _RANK_PREFIX.sub("", line)
            if body.startswith((" ", "\t")) or not body.strip():
                return None
            self._in_traceback = False
            match = _EXCEPTION_LINE.match(line)
            if match:
                return Finding(
                    Observed.CRASH,
                    f"Python exception {match.group(1)}",
                    evidence=(self._traceback_head, line),
                    culprit_nodes=self.nodes_named_in(line),
                    category=Category.APPLICATION,
                )
        return None

    def silence(self, silent_for: float, at: float) -> Finding | None:
        if silent_for >= self._context.settings.hang_timeout_s:
            return Finding(
                Observed.HANG,
                f"no new log line for {silent_for:.0f}s "
                f"(hang timeout {self._context.settings.hang_timeout_s:.0f}s)",
                category=Category.UNKNOWN,
            )
        return None
