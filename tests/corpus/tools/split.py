#!/usr/bin/env python3
"""Split the labelled corpus into a tuning set and a held-out set.

Usage (from the repository root):

    python tests/corpus/tools/split.py            # move incoming/ into tune/ and heldout/
    python tests/corpus/tools/split.py --dry-run  # show what would happen, change nothing
    python tests/corpus/tools/split.py --check    # only validate tune/ and heldout/

Layout (all under tests/corpus/):

    incoming/<name>.log + incoming/labels.json   new, not yet assigned excerpts
    tune/<name>.log     + tune/labels.json       tuning set
    heldout/<name>.log  + heldout/labels.json    held-out set (never used to write rules)
    SOURCES.md                                   one line per source group (regenerated)

Rules
-----
* Every excerpt belongs to a *source group*: the first URL in its label's ``source``
  without fragment or query (so every excerpt of one issue thread is one group).
  GitHub ``/blob/<commit>/<path>`` URLs are keyed by repository and path, without the
  commit. A label may set an explicit ``"group"`` string to override this; a source
  without a URL (e.g. ``GENERATED: ...``) is keyed by its full text.
* A group already present in tune/ or heldout/ never moves; new excerpts of that group
  follow it.
* A new group goes to heldout when sha256(group key) mod 3 == 0, otherwise to tune.
  Then, deterministically, the assignment is adjusted so that every primary class
  (CRASH logs by category GPU, NODE, NETWORK, STORAGE, APPLICATION, SCHEDULER; other
  logs by anomaly HANG, STRAGGLER, NONE) has at least a third of its logs, and at least
  min(4, n) of them, in heldout, and at least a third of all logs are held out: new tune
  groups holding a short class are moved to heldout in ascending hash order, rarest
  class first.
* Re-running with an empty incoming/ changes nothing (idempotent).

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import shutil
import sys
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

CORPUS = Path(__file__).resolve().parent.parent
INCOMING = CORPUS / "incoming"
# "fresh" is a second held-out set, drawn from a later batch (`--heldout-name fresh`) and
# measured once, after the rules were final: the first held-out set was measured while they
# were still being written.
# "heldout3" is the third held-out set, drawn (and labelled without running the engine) after
# heldout/ and fresh/ had been used to write rules: from then on those two are tuning data.
# "heldout4" is the fourth held-out set: new public excerpts from sources cited nowhere else,
# gathered and labelled by LABELLING.md without running the engine, committed before it is
# measured.
# "heldout5" is the fifth held-out set, drawn after heldout4/ had been used to write rules: new
# public excerpts from sources cited nowhere else in the corpus, gathered and labelled by
# LABELLING.md without running the engine on them, committed before it is measured.
# "heldout6" is the sixth held-out set, drawn after heldout5/ had been used to write rules: new
# public excerpts from sources cited nowhere else in the corpus, gathered and labelled by
# LABELLING.md without running the engine on them or reading its rules, committed before it is
# measured.
# "heldout7" is the seventh held-out set, drawn after heldout6/ had been used to write rules, the
# same way, from sources cited nowhere else (forum and Q&A threads as well as issue threads).
# "heldout8" is the eighth, drawn after heldout7/ had been used to write rules, the same way
# (mostly job output committed to public repositories). "heldout9" is the ninth, drawn after
# heldout8/ had been used to write rules, the same way; "heldout10" the tenth, after heldout9/;
# "heldout11" the eleventh, after heldout10/; "heldout12" the twelfth, after heldout11/;
# "heldout13" the thirteenth, after heldout12/; "heldout14" the fourteenth, after heldout13/;
# "heldout15" the fifteenth, after heldout14/; "heldout16" the sixteenth, after heldout15/;
# "heldout17" the seventeenth, after heldout16/; "heldout18" the eighteenth, after heldout17/;
# "heldout19" the nineteenth, after heldout18/; "heldout20" the twentieth, after heldout19/;
# "heldout21" the twenty-first, after heldout20/; "heldout22" the twenty-second, after heldout21/;
# "heldout23" the twenty-third, after heldout22/; "heldout24" the twenty-fourth, after heldout23/;
# "heldout25" the twenty-fifth, after heldout24/; "heldout26" the twenty-sixth, after heldout25/;
# "heldout27" the twenty-seventh, after heldout26/; "heldout28" the twenty-eighth, after heldout27/;
# "heldout29" the twenty-ninth, after heldout28/; "heldout30" the thirtieth, after heldout29/;
# "heldout31" the thirty-first, after heldout30/; "heldout32" the thirty-second, after heldout31/;
# "heldout33" the thirty-third, after heldout32/.
SPLITS = {
    "tune": CORPUS / "tune",
    "heldout": CORPUS / "heldout",
    "fresh": CORPUS / "fresh",
    "heldout3": CORPUS / "heldout3",
    "heldout4": CORPUS / "heldout4",
    "heldout5": CORPUS / "heldout5",
    "heldout6": CORPUS / "heldout6",
    "heldout7": CORPUS / "heldout7",
    "heldout8": CORPUS / "heldout8",
    "heldout9": CORPUS / "heldout9",
    "heldout10": CORPUS / "heldout10",
    "heldout11": CORPUS / "heldout11",
    "heldout12": CORPUS / "heldout12",
    "heldout13": CORPUS / "heldout13",
    "heldout14": CORPUS / "heldout14",
    "heldout15": CORPUS / "heldout15",
    "heldout16": CORPUS / "heldout16",
    "heldout17": CORPUS / "heldout17",
    "heldout18": CORPUS / "heldout18",
    "heldout19": CORPUS / "heldout19",
    "heldout20": CORPUS / "heldout20",
    "heldout21": CORPUS / "heldout21",
    "heldout22": CORPUS / "heldout22",
    "heldout23": CORPUS / "heldout23",
    "heldout24": CORPUS / "heldout24",
    "heldout25": CORPUS / "heldout25",
    "heldout26": CORPUS / "heldout26",
    "heldout27": CORPUS / "heldout27",
    "heldout28": CORPUS / "heldout28",
    "heldout29": CORPUS / "heldout29",
    "heldout30": CORPUS / "heldout30",
    "heldout31": CORPUS / "heldout31",
    "heldout32": CORPUS / "heldout32",
    "heldout33": CORPUS / "heldout33",
}
SOURCES_MD = CORPUS / "SOURCES.md"

ANOMALIES = ("CRASH", "HANG", "STRAGGLER", "NONE")
CATEGORIES = ("GPU", "NODE", "NETWORK", "STORAGE", "APPLICATION", "SCHEDULER", "UNKNOWN")
# Table / stratification order: rarest, most important classes first.
PRIMARY = (
    "STRAGGLER",
    "GPU",
    "NODE",
    "NETWORK",
    "STORAGE",
    "SCHEDULER",
    "HANG",
    "APPLICATION",
    "NONE",
)
TABLE_ORDER = (
    "GPU",
    "NODE",
    "NETWORK",
    "STORAGE",
    "APPLICATION",
    "SCHEDULER",
    "UNKNOWN",
    "HANG",
    "STRAGGLER",
    "NONE",
)
REQUIRED = ("source", "anomaly", "category", "requeue", "culprit_nodes", "why")
OPTIONAL = ("job_nodes", "checkpoints", "silence_s", "group")
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]*\.log")
URL_RE = re.compile(r"https?://[^\s<>\"']+")


# ----------------------------------------------------------------------------- helpers
def load_labels(d: Path) -> dict:
    p = d / "labels.json"
    if not p.exists():
        return {}
    with p.open(encoding="utf-8") as f:
        return json.load(f)


def save_labels(d: Path, labels: dict) -> None:
    d.mkdir(parents=True, exist_ok=True)
    text = json.dumps(dict(sorted(labels.items())), indent=1, ensure_ascii=False) + "\n"
    p = d / "labels.json"
    if not p.exists() or p.read_text(encoding="utf-8") != text:
        p.write_text(text, encoding="utf-8")


def klass(label: dict) -> str:
    """The class a log counts towards: CRASH by category, otherwise by anomaly."""
    if label.get("anomaly") == "CRASH":
        return label.get("category") or "UNKNOWN"
    return label.get("anomaly", "?")


def first_url(source: str) -> str | None:
    m = URL_RE.search(source or "")
    if not m:
        return None
    url = m.group(0)
    # Trailing punctuation from prose, and an unbalanced closing parenthesis.
    while url and url[-1] in ".,;:":
        url = url[:-1]
    while url.endswith(")") and url.count("(") < url.count(")"):
        url = url[:-1]
    return url


def group_key(label: dict) -> str:
    if label.get("group"):
        return str(label["group"])
    url = first_url(label.get("source", ""))
    if url is None:
        return (label.get("source") or "").strip()
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if parts.netloc.lower() in ("github.com", "www.github.com"):
        segs = path.split("/")
        # /owner/repo/blob/<commit>/path -> /owner/repo/blob/path
        commit = len(segs) > 4 and re.fullmatch(r"[0-9a-fA-F]{7,40}", segs[4])
        if commit and segs[3] in ("blob", "tree", "raw"):
            segs = segs[:4] + segs[5:]
        path = "/".join(segs)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, "", ""))


def project_of(key: str) -> str:
    parts = urlsplit(key)
    if parts.netloc in ("github.com", "www.github.com"):
        segs = [s for s in parts.path.split("/") if s]
        if len(segs) >= 2:
            return f"{segs[0]}/{segs[1]}"
    if parts.netloc:
        return parts.netloc
    return key.split(":", 1)[0].strip() or "?"


def hval(key: str) -> int:
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest(), 16)


def target(n: int) -> int:
    """Minimum number of held-out logs for a primary class with n logs."""
    return max(math.ceil(n / 3), min(4, n))


# -------------------------------------------------------------------------- validation
def validate_label(name: str, lab: dict) -> list[str]:
    errs = []
    if not NAME_RE.fullmatch(name):
        errs.append(f"{name}: file name must match [a-z0-9_-]+.log")
    for k in REQUIRED:
        if k not in lab:
            errs.append(f"{name}: missing field '{k}'")
    for k in lab:
        if k not in REQUIRED and k not in OPTIONAL:
            errs.append(f"{name}: unknown field '{k}'")
    a, c, r = lab.get("anomaly"), lab.get("category"), lab.get("requeue")
    if a not in ANOMALIES:
        errs.append(f"{name}: illegal anomaly {a!r}")
    if c is not None and c not in CATEGORIES:
        errs.append(f"{name}: illegal category {c!r}")
    if r not in (True, False, None):
        errs.append(f"{name}: illegal requeue {r!r}")
    if a == "NONE" and (c is not None or r is not None):
        errs.append(f"{name}: NONE needs category null and requeue null")
    if a == "CRASH" and c is None:
        errs.append(f"{name}: CRASH needs a category")
    if a in ("CRASH", "HANG", "STRAGGLER"):
        want = True if a != "CRASH" else (c != "APPLICATION")
        if r is not want:
            errs.append(f"{name}: requeue should be {want} for {a}/{c}")
    for k in ("culprit_nodes", "job_nodes"):
        if k in lab and not (isinstance(lab[k], list) and all(isinstance(x, str) for x in lab[k])):
            errs.append(f"{name}: {k} must be a list of host names")
    checkpoints = lab.get("checkpoints", 0)
    if not (isinstance(checkpoints, int) and checkpoints >= 0):
        errs.append(f"{name}: checkpoints must be a non-negative int")
    if "silence_s" in lab and not isinstance(lab["silence_s"], (int, float)):
        errs.append(f"{name}: silence_s must be a number")
    for k in ("source", "why"):
        if k in lab and not (isinstance(lab[k], str) and lab[k].strip()):
            errs.append(f"{name}: {k} must be a non-empty string")
    return errs


# Threads cited both in tune/ (under an explicit group, which hid the thread from this check
# until heldout11/ was drawn) and in fresh/: fresh/'s held-out figures of round 2 counted these
# four logs; both sets are tuning data now. Any other thread in two sets fails the check.
SHARED_BEFORE_THE_CHECK = frozenset(
    {
        "https://github.com/NVIDIA/nccl/issues/1814",
        "https://github.com/SystemsGenetics/GEMmaker/pull/242",
        "https://github.com/databrickslabs/dolly/issues/139",
        "https://github.com/kohya-ss/sd-scripts/issues/1434",
    }
)


def check_splits() -> list[str]:
    errs: list[str] = []
    groups: dict[str, set] = defaultdict(set)
    for split, d in SPLITS.items():
        labels = load_labels(d)
        files = {p.name for p in d.glob("*.log")} if d.exists() else set()
        for name in sorted(set(labels) - files):
            errs.append(f"{split}: label without file: {name}")
        for name in sorted(files - set(labels)):
            errs.append(f"{split}: file without label: {name}")
        for name, lab in sorted(labels.items()):
            errs += [f"{split}: {e}" for e in validate_label(name, lab)]
            # An explicit group must not hide that the thread is cited in another set.
            for key in {group_key(lab), group_key({**lab, "group": None})}:
                groups[key].add(split)
            p = d / name
            if p.exists() and not p.read_text(encoding="utf-8", errors="replace").strip():
                errs.append(f"{split}: empty log: {name}")
    for g, s in sorted(groups.items()):
        if len(s) > 1 and g not in SHARED_BEFORE_THE_CHECK:
            errs.append(f"source group in both splits: {g}")
    seen: dict[str, str] = {}
    for split, d in SPLITS.items():
        for name in load_labels(d):
            if name in seen:
                errs.append(f"file name in both {seen[name]} and {split}: {name}")
            seen[name] = split
    return errs


# ------------------------------------------------------------------------------ split
def plan(
    existing: dict[str, dict], incoming: dict, held_name: str = "heldout"
) -> tuple[dict, list[str]]:
    """Return {file name: split} for incoming files, and a list of errors.

    New groups go to `tune` or to `held_name`; with a held-out name other than "heldout" the
    proportions are those of this batch alone (a fresh sample of it).
    """
    errs: list[str] = []
    group_split: dict[str, str] = {}
    for split, labels in existing.items():
        for lab in labels.values():
            g = group_key(lab)
            if group_split.setdefault(g, split) != split:
                errs.append(f"group already in both splits: {g}")
    taken = {n for labels in existing.values() for n in labels}
    for name, lab in incoming.items():
        if name in taken:
            errs.append(f"incoming {name}: a file of that name is already in a split")
        errs += [f"incoming: {e}" for e in validate_label(name, lab)]
        if not (INCOMING / name).exists():
            errs.append(f"incoming: label without file: {name}")
    if errs:
        return {}, errs

    # Logs per group (existing and incoming) and their classes.
    new_groups: dict[str, list[str]] = defaultdict(list)
    for name, lab in incoming.items():
        g = group_key(lab)
        if g not in group_split:
            new_groups[g].append(name)

    assign = {g: (held_name if hval(g) % 3 == 0 else "tune") for g in new_groups}
    batch_only = held_name != "heldout"
    order = sorted(new_groups, key=lambda g: (hval(g), g))

    def counts() -> tuple[Counter, Counter, int, int]:
        total, held = Counter(), Counter()
        n_all = n_held = 0
        for split, labels in existing.items():
            if batch_only:
                break
            for lab in labels.values():
                total[klass(lab)] += 1
                n_all += 1
                if split == "heldout":
                    held[klass(lab)] += 1
                    n_held += 1
        for lab in incoming.values():
            g = group_key(lab)
            s = group_split.get(g) or assign[g]
            total[klass(lab)] += 1
            n_all += 1
            if s == held_name:
                held[klass(lab)] += 1
                n_held += 1
        return total, held, n_all, n_held

    for cls in PRIMARY:
        for g in order:
            total, held, _, _ = counts()
            if held[cls] >= target(total[cls]):
                break
            if assign[g] == "tune" and any(klass(incoming[n]) == cls for n in new_groups[g]):
                assign[g] = held_name
    for g in order:
        _, _, n_all, n_held = counts()
        if n_held >= math.ceil(n_all / 3):
            break
        if assign[g] == "tune":
            assign[g] = held_name

    result = {}
    for name, lab in incoming.items():
        g = group_key(lab)
        result[name] = group_split.get(g) or assign[g]
    return result, []


def write_sources(all_labels: dict[str, dict]) -> None:
    rows: dict[str, dict] = {}
    for split, labels in all_labels.items():
        for lab in labels.values():
            g = group_key(lab)
            r = rows.setdefault(g, {"split": split, "n": 0})
            r["n"] += 1
    lines = [
        "# Corpus sources",
        "",
        "One line per source group (all excerpts of one issue thread or file form one group",
        "and sit in the same split). Generated by `tests/corpus/tools/split.py`; do not edit.",
        "",
        "| source | project | split | excerpts |",
        "|---|---|---|---|",
    ]
    for g in sorted(rows, key=lambda k: (rows[k]["split"], project_of(k).lower(), k)):
        r = rows[g]
        shown = g.replace("|", "\\|")
        lines.append(f"| {shown} | {project_of(g)} | {r['split']} | {r['n']} |")
    n_groups = Counter(r["split"] for r in rows.values())
    lines += [
        "",
        "Groups: "
        + ", ".join(f"{name} {n_groups[name]}" for name in SPLITS)
        + f", total {len(rows)}.",
        "",
    ]
    text = "\n".join(lines)
    if not SOURCES_MD.exists() or SOURCES_MD.read_text(encoding="utf-8") != text:
        SOURCES_MD.write_text(text, encoding="utf-8")


def print_table(all_labels: dict[str, dict]) -> None:
    c = {s: Counter(klass(lab) for lab in labels.values()) for s, labels in all_labels.items()}
    g = {s: len({group_key(lab) for lab in labels.values()}) for s, labels in all_labels.items()}
    classes = [k for k in TABLE_ORDER if any(c[s][k] for s in c)]
    classes += sorted({k for s in c for k in c[s]} - set(classes))
    w = max(len(k) for k in [*classes, "class", "groups"]) + 2
    names = [name for name in SPLITS if name in c and (name in ("tune", "heldout") or c[name])]
    print(f"{'class':<{w}}" + "".join(f"{n:>9}" for n in names) + f"{'total':>7}")
    for k in classes:
        row = [c[n][k] for n in names]
        print(f"{k:<{w}}" + "".join(f"{v:>9}" for v in row) + f"{sum(row):>7}")
    row = [sum(c[n].values()) for n in names]
    print(f"{'all logs':<{w}}" + "".join(f"{v:>9}" for v in row) + f"{sum(row):>7}")
    row = [g[n] for n in names]
    print(f"{'groups':<{w}}" + "".join(f"{v:>9}" for v in row) + f"{sum(row):>7}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="show the plan, change nothing")
    ap.add_argument("--check", action="store_true", help="only validate the splits")
    ap.add_argument(
        "--heldout-name",
        default="heldout",
        choices=tuple(name for name in SPLITS if name != "tune"),
        help="where new groups' held-out share goes (fresh: a second held-out set)",
    )
    args = ap.parse_args(argv)

    if not args.check:
        existing = {s: load_labels(d) for s, d in SPLITS.items()}
        incoming = load_labels(INCOMING)
        stray = (
            sorted(p.name for p in INCOMING.glob("*.log") if p.name not in incoming)
            if INCOMING.exists()
            else []
        )
        for name in stray:
            print(f"warning: incoming/{name} has no label; left in place", file=sys.stderr)
        result, errs = plan(existing, incoming, args.heldout_name)
        if errs:
            for e in errs:
                print("error:", e, file=sys.stderr)
            return 1
        if args.dry_run:
            preview = {s: dict(labels) for s, labels in existing.items()}
            for name, split in result.items():
                preview[split][name] = incoming[name]
            print(f"would move {len(result)} incoming file(s)")
            print_table(preview)
            return 0
        for name, split in sorted(result.items()):
            d = SPLITS[split]
            d.mkdir(parents=True, exist_ok=True)
            shutil.move(str(INCOMING / name), str(d / name))
            existing[split][name] = incoming.pop(name)
            save_labels(d, existing[split])
        for s, d in SPLITS.items():
            save_labels(d, existing[s])
        if INCOMING.exists():
            save_labels(INCOMING, incoming)
        write_sources(existing)
        if result:
            print(f"moved {len(result)} incoming file(s)")

    errs = check_splits()
    all_labels = {s: load_labels(d) for s, d in SPLITS.items()}
    print_table(all_labels)
    if errs:
        for e in errs:
            print("check:", e, file=sys.stderr)
        return 1
    print("check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
