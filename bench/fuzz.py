"""Fuzz ajr's input parsers with many inputs: the properties of tests/unit/test_fuzz.py.

Runs each property (comments, squeue JSON garbage, squeue JSON of every supported Slurm shape,
scontrol key=value round trip, scontrol/sinfo garbage, garbage log bytes, real fault lines
spliced with noise) with `--examples` inputs (hypothesis, not derandomised) and prints one JSON
object: per property the inputs really run, the seconds taken and the failure (if any).

    PYTHONPATH=. .venv/bin/python bench/fuzz.py --examples 10000 --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
import traceback
from typing import Any

PROPERTIES = (
    ("comment", "test_fuzz_comment"),
    ("squeue_garbage", "test_fuzz_squeue_garbage"),
    ("squeue_versions", "test_fuzz_squeue_every_version_reads_the_good_jobs"),
    ("scontrol_round_trip", "test_fuzz_scontrol_key_values_round_trip"),
    ("scontrol_garbage", "test_fuzz_scontrol_and_sinfo_garbage"),
    ("log_garbage", "test_fuzz_log_garbage_is_never_acted_on"),
    ("log_mixed", "test_fuzz_log_real_lines_in_noise"),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--only", action="append", default=[], help="property name (repeatable)")
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)
    os.environ["AJR_FUZZ_EXAMPLES"] = str(args.examples)
    # Imported after the variable is set: the module reads it for its hypothesis settings.
    module = importlib.import_module("tests.unit.test_fuzz")
    results: dict[str, Any] = {}
    for name, function in PROPERTIES:
        if args.only and name not in args.only:
            continue
        started = time.monotonic()
        failure = ""
        try:
            getattr(module, function)()
        except Exception:  # the property's own failure, reported with its input
            failure = traceback.format_exc(limit=3)[-2000:]
        results[name] = {
            "inputs": module.INPUTS[name],
            "seconds": round(time.monotonic() - started, 1),
            "failure": failure,
        }
        if not args.json:
            print(
                f"{name}: {results[name]['inputs']} inputs, {results[name]['seconds']} s",
                file=sys.stderr,
            )
    report = {"examples_per_property": args.examples, "properties": results}
    print(json.dumps(report, indent=None if args.json else 2))
    return 1 if any(r["failure"] for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
