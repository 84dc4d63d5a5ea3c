"""Helpers shared by the block-reading tests (engine blocks, check-log's bulk path)."""

from __future__ import annotations

from analysis.detectors import next_candidate


def candidate_starts(data: bytes) -> list[int]:
    """The start of every line of `data` the prefilter accepts, by walking `next_candidate`."""
    found, pos = [], 0
    while (pos := next_candidate(data, pos)) >= 0:
        found.append(pos)
        end = data.find(b"\n", pos)
        if end < 0:
            break
        pos = end + 1
    return found
