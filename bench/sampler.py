"""A low-rate stack sampler for a bench's worker (py-spy is not installed on the bench host).

`python -m bench.sampler OUT.jsonl -m worker worker` runs the module as `python -m` would, and a
daemon thread looks at every other thread's Python stack every `AJR_SAMPLE_S` (0.02 s). Every
30 s it appends the cumulative counts to OUT.jsonl (time, samples, busy samples, the functions
most often on a busy stack and at its top), so a window's profile is the difference of two lines.

A sample that a thread spends waiting (its top frame in `select`, a lock or a queue's `wait`, a
`sleep`) is not busy. Python's sampler runs only when it holds the GIL: a long stretch of C code
holding the GIL delays samples, so these are shares of the samples, never of CPU time.
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import runpy
import sys
import threading
import time
from types import FrameType

IDLE = {"select", "wait", "sleep", "_worker", "poll", "epoll", "acquire", "get", "accept"}


def _name(frame: FrameType) -> str:
    code = frame.f_code
    return f"{'/'.join(code.co_filename.rsplit('/', 2)[-2:])}:{code.co_name}"


def main() -> None:
    out, flag, module, *rest = sys.argv[1:]
    if flag != "-m":
        raise SystemExit("usage: python -m bench.sampler OUT.jsonl -m module [args]")
    interval = float(os.environ.get("AJR_SAMPLE_S", "0.02"))
    inclusive: collections.Counter[str] = collections.Counter()
    top: collections.Counter[str] = collections.Counter()
    totals = {"samples": 0, "busy": 0}

    def sample() -> None:
        me = threading.get_ident()
        last_dump = time.monotonic()
        while True:
            time.sleep(interval)
            for ident, frame in sys._current_frames().items():
                if ident == me:
                    continue
                totals["samples"] += 1
                if frame.f_code.co_name in IDLE:
                    continue
                totals["busy"] += 1
                top[_name(frame)] += 1
                seen: set[str] = set()
                current: FrameType | None = frame
                while current is not None:
                    seen.add(_name(current))
                    current = current.f_back
                inclusive.update(seen)
            if time.monotonic() - last_dump >= 30:
                last_dump = time.monotonic()
                dump()

    def dump() -> None:
        line = {
            "t": time.time(),
            **totals,
            "inclusive": dict(inclusive.most_common(80)),
            "top": dict(top.most_common(80)),
        }
        with open(out, "a") as fh:
            fh.write(json.dumps(line) + "\n")

    atexit.register(dump)
    threading.Thread(target=sample, name="bench-sampler", daemon=True).start()
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
