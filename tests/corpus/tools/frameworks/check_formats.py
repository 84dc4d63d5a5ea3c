"""Check the regular expressions of tests/corpus/frameworks/FORMATS.md against the logs there.

For every ``<framework>_*.log`` it applies that framework's save-start, save-done, load and
progress patterns (``re.search`` on every line, lines split on ``\\n`` *and* ``\\r`` because
tqdm redraws with ``\\r``), reduces them to steps the way FORMATS.md says (one save per
checkpoint however many lines it prints), and compares with ``labels.json``.

Run: ``python3 tests/corpus/tools/frameworks/check_formats.py`` (exit status 1 on a mismatch).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "frameworks"


@dataclass
class Formats:
    """Patterns of one framework; each has a ``step`` group where the line carries one."""

    save_start: list[re.Pattern[str]] = field(default_factory=list)
    save_done: list[re.Pattern[str]] = field(default_factory=list)
    load: list[re.Pattern[str]] = field(default_factory=list)
    progress: list[re.Pattern[str]] = field(default_factory=list)
    # lines that give the step of the save in progress (its start line has none)
    save_step: list[re.Pattern[str]] = field(default_factory=list)
    # A save whose start is printed but whose completion never is: it counts as completed when
    # the log goes on (progress, another save, normal end) after its start line.
    done_is_implicit: bool = False


C = re.compile
FORMATS: dict[str, Formats] = {
    "hf_trainer": Formats(
        save_start=[
            C(r"Saving model checkpoint to (?P<path>\S*?(?:checkpoint-(?P<step>\d+))?)\s*$")
        ],
        load=[
            C(r"Resuming training from checkpoint with epoch \d+ and global step (?P<step>\d+)"),
            C(r"Continuing training from global step (?P<step>\d+)"),
        ],
        progress=[C(r"(?:^|\r)\s*\d+%\|[^|]*\|\s*(?P<step>\d+)/\d+ \[")],
        done_is_implicit=True,
    ),
    "accelerate": Formats(
        save_start=[C(r"Saving current state to (?P<path>\S*?(?P<step>\d+)?)\s*$")],
        save_done=[
            C(r"Random states saved in (?P<path>\S*?(?P<step>\d+)?/random_states_\d+\.pkl)")
        ],
        load=[C(r"Loading states from (?P<path>\S*?(?P<step>\d+)?)\s*$")],
        progress=[C(r"^step (?P<step>\d+) loss")],
    ),
    "lightning": Formats(
        save_start=[
            C(
                r"Epoch \d+, global step (?P<step>\d+): '[^']+' reached \S+ \(best \S+\), "
                r"saving model to '[^']+' as top \d+"
            )
        ],
        load=[
            C(r"Restored all states from the checkpoint at \S*?step=(?P<step>\d+)"),
            C(r"Restored all states from the checkpoint at \S+"),
        ],
        progress=[C(r"Epoch \d+:\s+\d+%\|[^|]*\|\s*(?P<step>\d+)/\d+ \[")],
        done_is_implicit=True,
    ),
    "deepspeed": Formats(
        save_start=[C(r"\[Torch\] Checkpoint global_step(?P<step>\d+) is about to be saved!")],
        load=[
            C(r"\[Torch\] End Load checkpoint from \S*global_step(?P<step>\d+)/\S*model_states\.pt")
        ],
        progress=[C(r"\[Rank 0\] step=(?P<step>\d+), skipped=")],
        done_is_implicit=True,
    ),
    "dcp": Formats(
        save_start=[C(r"Received async checkpoint request with id=\S*?(?P<step>\d+)\s*$")],
        save_done=[
            C(
                r"Completed checkpoint save request for checkpoint_id="
                r"\S*?checkpoint_id='[^']*?(?P<step>\d+)'"
            )
        ],
        progress=[C(r"^step (?P<step>\d+) loss")],
    ),
    "torchtitan": Formats(
        save_start=[C(r"(?P<phase>Saving|Staging) the checkpoint\.$")],
        save_done=[
            C(r"Finished (?:saving|staging) the checkpoint in [\d.]+ seconds\."),
            C(r"Last step checkpoint completed in [\d.]+s"),
        ],
        save_step=[
            C(r"Saving a (?:full|model only) checkpoint.* at last step, step (?P<step>\d+)\.")
        ],
        load=[C(r"Loading the checkpoint from \S*step-(?P<step>\d+)\.$")],
    ),
    "megatron": Formats(
        save_start=[C(r"saving checkpoint at iteration\s+(?P<step>\d+) to \S+")],
        save_done=[
            C(r"successfully saved (?:local )?checkpoint (?:from|at) iteration\s+(?P<step>\d+)")
        ],
        load=[
            C(r"successfully loaded checkpoint from \S+ (?:\[[^\]]*\] )?at iteration (?P<step>\d+)")
        ],
        progress=[C(r"\] iteration\s+(?P<step>\d+)/\s*\d+ \|")],
    ),
}


def _step(m: re.Match[str]) -> int | None:
    s = m.groupdict().get("step")
    return int(s) if s else None


def analyse(framework: str, text: str) -> dict[str, object]:
    """Saves (completed, in log order), interrupted saves, loads and the first step after a load."""
    f = FORMATS[framework]
    kinds = (
        ("start", f.save_start),
        ("done", f.save_done),
        ("step", f.save_step),
        ("load", f.load),
        ("progress", f.progress),
    )
    events: list[tuple[str, int | None]] = []
    for line in re.split(r"[\r\n]", text):
        for kind, pats in kinds:
            m = next((m for p in pats if (m := p.search(line))), None)
            if m:
                events.append((kind, _step(m)))
                break
    killed = bool(re.search(r"Killed|exitcode\s*:\s*-9|return code = -9|Signal 9", text))
    saves: list[int | None] = []
    pending: list[int | None] = []  # saves started and not yet known to be complete
    loads: list[int | None] = []
    first_after_load: int | None = None
    waiting = False
    for kind, step in events:
        if kind == "start":
            if f.done_is_implicit and pending:
                saves.append(pending.pop())
            pending.append(step)
        elif kind == "step" and pending:
            pending[-1] = step
        elif kind == "done":
            if step is not None and step in pending:
                pending.remove(step)
            elif pending:
                step = pending.pop(0) if step is None else step
            saves.append(step)
        elif kind == "load":
            if not (loads and loads[-1] == step and waiting):
                loads.append(step)
            waiting = True
        elif kind == "progress":
            if f.done_is_implicit and pending:
                saves.append(pending.pop())
            if waiting and step is not None and (loads[-1] is None or step > loads[-1]):
                first_after_load, waiting = step, False
    interrupted = len(pending)
    if f.done_is_implicit and pending and not killed:
        saves.extend(pending)  # the job ended normally after its last save
        interrupted = 0
    return {
        "saves": saves,
        "interrupted_saves": interrupted,
        "loads": loads,
        "first_iteration_after_load": first_after_load,
    }


def main() -> int:
    labels = json.loads((CORPUS / "labels.json").read_text())
    bad = 0
    for name, lab in sorted(labels.items()):
        got = analyse(lab["framework"], (CORPUS / name).read_text(errors="replace"))
        want = {k: lab[k] for k in got}
        ok = got == want
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {name}: {got}" + ("" if ok else f"\n    want {want}"))
    print(f"{len(labels) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
