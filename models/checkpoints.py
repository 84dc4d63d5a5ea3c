"""Checkpoint-save log patterns the seeds name as defaults (AJR tutorials, NVRx integration),
and the attempt's record of its saves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

DEFAULT_CHECKPOINT_PATTERNS: tuple[str, ...] = (
    r"save-checkpoint",
    r"SAVE_CHECKPOINT: iteration:.*, ckpt saving takes .* seconds",
    r"Saved checkpoint to",
)


def merged_saves(
    recorded: list[list[Any]],
    recent: Iterable[tuple[int | None, float, float | None]],
    *,
    limit: int = 200,
) -> list[list[Any]]:
    """The attempt's saves recorded so far with the analyzer's recent ones added once each
    (a save is its completion time), oldest first, at most `limit` (the newest kept)."""
    seen = {float(save[1]) for save in recorded}
    merged = [list(save) for save in recorded]
    for step, at, duration in recent:
        if float(at) not in seen:
            seen.add(float(at))
            merged.append([step, float(at), duration])
    merged.sort(key=lambda save: float(save[1]))
    return merged[-limit:]
