"""`ajr check-log`: each format rule, what ajr detects, the JSON and the real command line."""

from __future__ import annotations

import calendar
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from activities.logs.checklog import (
    EXIT_ANOMALY,
    EXIT_FORMAT,
    EXIT_OK,
    CheckLogError,
    check_log,
)

pytestmark = pytest.mark.unit

GOOD_NAME = "gpt3_4242_date_24-07-30_time_14-21-44.log"
START = 1_722_349_304  # 2024-07-30 14:21:44 UTC
ROOT = Path(__file__).resolve().parents[2]


def stamp(t: float) -> str:
    return time.strftime("[%Y-%m-%d %H:%M:%S]", time.gmtime(t))


def megatron(
    *,
    iterations: int = 12,
    step_s: float = 10.0,
    stamps: bool = True,
    ranks: bool = True,
    tflops: bool = True,
    saves: bool = True,
    pause_after: int | None = None,  # iteration after which the log falls silent...
    pause_s: float = 0.0,  # ...this long
) -> list[str]:
    """A small healthy Megatron log: 2 ranks, an iteration report every `step_s` seconds."""

    def line(rank: int, t: float, text: str) -> str:
        prefix = f"{rank}: " if ranks else ""
        return f"{prefix}{stamp(t) + ' ' if stamps else ''}{text}"

    t = float(START)
    out = [
        line(0, t, "using world size: 2, data-parallel size: 2"),
        line(1, t, "building GPT model ..."),
    ]
    for i in range(1, iterations + 1):
        t += step_s
        throughput = " | throughput per GPU (TFLOP/s/GPU): 386.7" if tflops else ""
        out.append(
            line(1, t, f"iteration {i:8d}/  508626 | elapsed time per iteration (ms): "
                 f"{step_s * 1000:.1f}{throughput} | lm loss: 2.3E+00 |")
        )  # fmt: skip
        out.append(line(0, t, f"[INFO] rank 0: fetched batch {i}"))
        if saves and i % 5 == 0:
            out.append(line(0, t, f"saving checkpoint at iteration {i:7d} to /fsx/ckpt"))
            out.append(
                line(0, t, f"  successfully saved checkpoint at iteration {i:7d} to /fsx/ckpt")
            )
        if pause_after == i:
            t += pause_s
    return out


def write(tmp_path: Path, lines: list[str], name: str = GOOD_NAME) -> str:
    path = tmp_path / name
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    return str(path)


# name, log file name, lines, expected problem rules, expected anomaly
CASES: list[tuple[str, str, list[str], set[str], str]] = [
    ("good", GOOD_NAME, megatron(), set(), "NONE"),
    ("no job id", "gpt3_training.log", megatron(), {"file_name"}, "NONE"),
    # the seed's own example name has a 4-digit year: accepted like the 2-digit one
    ("4-digit year", "gpt3_4242_date_2024-07-30_time_14-21-44.log", megatron(), set(), "NONE"),
    ("wrong date order", "gpt3_4242_time_14-21-44.log", megatron(), {"file_name"}, "NONE"),
    ("no timestamps", GOOD_NAME, megatron(stamps=False), {"timestamps", "line_cadence"}, "NONE"),
    ("no rank prefixes", GOOD_NAME, megatron(ranks=False), {"rank_prefixes"}, "NONE"),
    ("silent for 5 minutes", GOOD_NAME, megatron(pause_after=6, pause_s=300),
     {"line_cadence"}, "HANG"),
    ("no TFLOP lines", GOOD_NAME, megatron(tflops=False), {"tflops"}, "NONE"),
    ("no checkpoint saves", GOOD_NAME, megatron(saves=False), {"checkpoints"}, "NONE"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "filename", "lines", "rules", "anomaly"), CASES, ids=[c[0] for c in CASES]
)
def test_format_rules(
    tmp_path: Path, name: str, filename: str, lines: list[str], rules: set[str], anomaly: str
) -> None:
    report = check_log(write(tmp_path, lines, filename))
    assert {p.rule for p in report.problems} == rules
    assert all(p.problem and p.fix for p in report.problems)  # every problem says how to fix it
    out = report.to_json()
    assert out["anomaly"] == anomaly
    if anomaly == "NONE":
        expected_exit = EXIT_FORMAT if rules else EXIT_OK
        assert out["attribution"] is None and out["requeue"] is None and out["evidence"] == []
    else:
        expected_exit = EXIT_ANOMALY
    assert report.exit_code == out["exit_code"] == expected_exit


def test_a_good_log_reports_its_saves_and_throughput(tmp_path: Path) -> None:
    out = check_log(write(tmp_path, megatron())).to_json()
    assert out["job_id"] == 4242
    assert [c["step"] for c in out["checkpoint_saves"]] == [5, 10]
    assert all(c["time"] and c["line"] for c in out["checkpoint_saves"])
    assert out["tflops"] == [386.7] * 12
    assert out["format_problems"] == []
    assert out["largest_gap_s"] == 10.0


def test_the_seeds_four_digit_year_name_is_found(tmp_path: Path) -> None:
    report = check_log(
        write(tmp_path, megatron(), "megatron_1234567_date_2024-07-31_time_18-15-55.log")
    )
    assert report.problems == [] or all(p.rule != "file_name" for p in report.problems)
    assert report.job_id == 1234567


def test_a_hang_names_the_silent_lines(tmp_path: Path) -> None:
    out = check_log(write(tmp_path, megatron(pause_after=6, pause_s=300))).to_json()
    assert out["anomaly"] == "HANG"
    assert out["largest_gap_s"] == 310.0
    assert out["evidence"][0].startswith("silent from line")
    assert out["requeue"] is True  # a hang: a requeue can help


def test_a_hang_while_ajr_waits_on_a_straggler_is_what_it_acts_on(tmp_path: Path) -> None:
    """A straggler is requeued at its next save (or after `straggler_wait_s`): if the attempt
    hangs first, the hang is what ajr acts on, and what check-log reports as the anomaly (the
    straggler stays among the findings). A hang after the wait is too late to matter."""

    def slowed(steps_after: int) -> list[str]:
        lines, t = [], float(START)
        for i in range(1, 13 + steps_after):
            t += 10.0
            tflops = 386.7 if i <= 12 else 150.0
            lines.append(
                f"1: {stamp(t)} iteration {i:8d}/  508626 | elapsed time per iteration (ms): "
                f"10000.0 | throughput per GPU (TFLOP/s/GPU): {tflops} | lm loss: 2.3E+00 |"
            )
        return lines

    report = check_log(write(tmp_path, slowed(12)), silent_for=600.0)
    assert [d.kind for d in report.findings] == ["STRAGGLER", "HANG"]
    assert report.anomaly is report.findings[1]
    assert report.to_json()["anomaly"] == "HANG"
    text = "\n".join(report.render())
    assert "  HANG at line" in text and "  before it STRAGGLER at line" in text
    report = check_log(write(tmp_path, slowed(12)), silent_for=600.0)
    # found 60 s before the last line, the hang 120 s (its allowance) after it: a wait of
    # 100 s had requeued the straggler first
    report.straggler_wait_s = 100.0
    assert report.anomaly is report.findings[0]
    finished = check_log(write(tmp_path, slowed(12)))
    assert [d.kind for d in finished.findings] == ["STRAGGLER"]


def test_a_time_zone_change_between_stamps_is_no_silence(tmp_path: Path) -> None:
    """The job script's `date -u` header, then the program's lines in local time (UTC+8): the
    8-hour jump is the zone, not a hang. Time that passed within one zone still counts."""
    header = time.strftime("[start] %Y-%m-%dT%H:%M:%SZ host=n1", time.gmtime(START - 5))
    local = [line.replace(stamp(t := START + 10.0 * i), stamp(t + 8 * 3600)) for i, line in
             enumerate(megatron(iterations=6, saves=False, ranks=False))]  # fmt: skip
    shifted = [line for line in local if "[" in line]
    out = check_log(write(tmp_path, [header, *shifted])).to_json()
    assert out["anomaly"] == "NONE", out["summary"]
    silent = check_log(write(tmp_path, [header, *megatron(pause_after=3, pause_s=8 * 3600)]))
    assert silent.to_json()["anomaly"] == "HANG"


def test_a_long_save_is_no_hang_but_breaks_the_cadence_rule(tmp_path: Path) -> None:
    # Checkpointing gets its own allowance (600 s) in the engine: no HANG, but the 2-minute
    # rule still asks for a heartbeat line.
    lines = megatron(iterations=4)
    t = START + 40
    lines += [
        f"0: {stamp(t)} saving checkpoint at iteration       4 to /fsx/ckpt",
        f"0: {stamp(t + 400)}   successfully saved checkpoint at iteration       4 to /fsx/ckpt",
        f"1: {stamp(t + 410)} iteration 5/508626 | throughput per GPU (TFLOP/s/GPU): 386.7",
    ]
    out = check_log(write(tmp_path, lines)).to_json()
    assert out["anomaly"] == "NONE"
    assert [p["rule"] for p in out["format_problems"]] == ["line_cadence"]


def crash_lines() -> list[str]:
    t = START + 130
    return [
        *megatron(),
        f"3: {stamp(t)} [INFO] rank 3: fetched batch 13",
        f"{stamp(t + 1)} node3 kernel: NVRM: Xid (PCI:0000:2b:00): 79, pid=1896, GPU has fallen "
        "off the bus.",
        f"3: {stamp(t + 2)} RuntimeError: CUDA error: unspecified launch failure",
        "srun: error: node3: task 3: Exited with exit code 1",
    ]


def test_a_crash_log_names_cause_nodes_ranks_and_evidence(tmp_path: Path) -> None:
    path = write(tmp_path, crash_lines())
    report = check_log(path, nodes=("node1", "node2", "node3"))
    out = report.to_json()
    assert out["anomaly"] == "CRASH"
    assert out["attribution"] in ("GPU", "NODE")
    assert out["requeue"] is True
    assert out["culprit_nodes"] == ["node3"]
    assert out["culprit_ranks"] == [3]  # srun's task exit on node3
    assert "Xid (PCI:0000:2b:00): 79" in out["evidence"][0]
    assert [c["step"] for c in out["checkpoint_saves"]] == [5, 10]  # reported before the crash
    assert report.exit_code == EXIT_ANOMALY


def test_a_culprit_the_aftermath_names_is_reported(tmp_path: Path) -> None:
    """The crash is found at slurmstepd's cancel (which names the batch host only); srun's
    "Node failure on node2" after it names the node to exclude."""
    lines = [
        *megatron(),
        "slurmstepd-node1: error: *** JOB 4242 ON node1 CANCELLED AT 2024-07-30T14:24:00 DUE TO"
        " NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
        "srun: error: Node failure on node2",
    ]
    out = check_log(write(tmp_path, lines), nodes=("node1", "node2")).to_json()
    assert out["anomaly"] == "CRASH" and out["attribution"] == "NODE"
    assert out["culprit_nodes"] == ["node2"]


def test_a_gpu_failure_takes_its_culprit_from_the_node_failure_after_it(tmp_path: Path) -> None:
    """A GPU that failed ("CUDA error: unknown error", no node on the line) took its node down:
    srun's "Node failure on node2" after it names the node to exclude."""
    lines = [
        *megatron(),
        "terminate called after throwing an instance of 'c10::CUDAError'",
        "  what():  CUDA error: unknown error",
        "srun: error: Node failure on node2",
    ]
    out = check_log(write(tmp_path, lines), nodes=("node1", "node2")).to_json()
    assert out["anomaly"] == "CRASH" and out["attribution"] == "GPU"
    assert out["culprit_nodes"] == ["node2"]


def test_an_error_the_log_ends_on_is_a_crash(tmp_path: Path) -> None:
    # A survivable-looking error (CUDA OOM) waits for training to go on; the file ends instead.
    lines = [
        *megatron(),
        "1: Traceback (most recent call last):",
        '1:   File "/train.py", line 1, in step',
        "1: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ]
    out = check_log(write(tmp_path, lines)).to_json()
    assert out["anomaly"] == "CRASH"
    assert out["attribution"] == "APPLICATION"
    assert out["culprit_ranks"] == [1]
    assert "OutOfMemoryError" in out["evidence"][0]


def requeued(second: list[str], *, load: bool = True) -> list[str]:
    """A job preempted after iteration 12 and requeued by Slurm, whose next attempt's output
    (`second`, after a restart banner and, with `load`, a checkpoint load) was appended."""
    t = START + 200
    when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))
    return [
        *megatron(),
        f"slurmstepd: error: *** JOB 4242 ON node1 CANCELLED AT {when} DUE TO PREEMPTION ***",
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        f"{stamp(t + 150)} job 4242 restart count 1",
        *([f"0: {stamp(t + 160)} resumed from /fsx/ckpt/iter_0000010 at step 10"] if load else []),
        *second,
    ]  # fmt: skip


def later(lines: list[str], by: float = 400.0) -> list[str]:
    """`lines` (megatron()'s), their stamps moved on by `by` seconds."""
    out = []
    for line in lines:
        head, _, rest = line.partition("[")
        when, _, tail = rest.partition("]")
        moved = calendar.timegm(time.strptime(when, "%Y-%m-%d %H:%M:%S")) + by
        out.append(f"{head}{stamp(moved)}]{tail}")
    return out


def test_the_wait_between_two_attempts_is_no_line_cadence_problem(tmp_path: Path) -> None:
    """Four minutes pass between the first attempt's cancel and the requeued attempt's first line
    (the job waited in the queue); each attempt writes a line every 10 s, which is all the
    line-cadence rule asks. The same four minutes inside one attempt are a problem."""
    out = check_log(write(tmp_path, requeued(later(megatron())))).to_json()
    assert "line_cadence" not in [p["rule"] for p in out["format_problems"]]
    (tmp_path / "one").mkdir()
    quiet = megatron(pause_after=6, pause_s=240.0)
    out = check_log(write(tmp_path / "one", quiet)).to_json()
    assert "line_cadence" in [p["rule"] for p in out["format_problems"]]


def test_an_attempt_slurm_requeued_into_the_same_file_is_judged_on_its_own(tmp_path: Path) -> None:
    """Slurm appends a requeued job's output to the same file: the preemption ended the first
    attempt (listed), the verdict is the last attempt's (as the watcher of that attempt, which
    reads on with a fresh engine, decides). A checkpoint loaded after Slurm's cancel proves the
    next attempt; without one the file is one attempt, and the preemption is its end."""
    healthy = check_log(write(tmp_path, requeued(later(megatron()))))
    out = healthy.to_json()
    assert out["anomaly"] == "NONE", out["findings"]
    assert [a["start_line"] for a in out["attempts"]] == [1, len(megatron()) + 3]
    assert [(f["kind"], f["attempt"]) for f in out["findings"]] == [("CRASH", 0)]
    assert [c["step"] for c in out["checkpoint_loads"]] == [10]
    assert "2 attempts in this file" in "\n".join(healthy.render())
    crashed = requeued(
        [
            *later(megatron()),
            "1: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB",
        ]
    )
    out = check_log(write(tmp_path, crashed)).to_json()
    assert out["anomaly"] == "CRASH" and out["attribution"] == "APPLICATION"
    assert [f["attempt"] for f in out["findings"]] == [0, 1]
    no_load = check_log(write(tmp_path, requeued(later(megatron()), load=False))).to_json()
    assert no_load["anomaly"] == "CRASH" and no_load["attribution"] == "SCHEDULER"
    assert [a["start_line"] for a in no_load["attempts"]] == [1]


def test_a_job_that_requeues_itself_twice_is_judged_on_its_third_attempt(tmp_path: Path) -> None:
    """A batch script that requeues its own job before the time limit (`--signal=USR1@..`,
    `scontrol requeue`, `--open-mode=append`): each attempt resumes "from the latest
    checkpoint" without naming its step. The second resume is another load, not a repeat of
    the first: three attempts, the last one healthy."""

    def requeue_and_resume(at: float) -> list[str]:
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(at))
        return [
            f"slurmstepd: error: *** JOB 4242 ON node1 CANCELLED AT {when} DUE TO JOB REQUEUE ***",
            f"{stamp(at + 150)} job 4242 restarted",
            f"0: {stamp(at + 155)} resumed from the latest checkpoint",
            f"1: {stamp(at + 155)} resumed from the latest checkpoint",
        ]

    lines = [
        *megatron(),
        *requeue_and_resume(START + 200),
        *later(megatron(), 400.0),
        *requeue_and_resume(START + 600),
        *later(megatron(), 800.0),
    ]
    out = check_log(write(tmp_path, lines)).to_json()
    assert len(out["attempts"]) == 3, out["attempts"]
    assert out["anomaly"] == "NONE", out["findings"]
    assert [f["attempt"] for f in out["findings"]] == [0, 1]


def test_the_time_an_excerpts_cut_hides_is_no_quiet_before_training(tmp_path: Path) -> None:
    """The excerpt's set-up lines, a "..." cut of 15 minutes, then training reports whose pace
    the lines do not state. The cut's 15 minutes are not a silence the job came back from (the
    watcher of the whole log never saw them), so they do not stretch the wait after the first
    report: 5 minutes to the second report is a hang, as the watcher finds it. With the pace
    stated (MMCV's `time: 17.4` s per iteration, 50 iterations a report) it is none."""

    def lines(stated: str) -> list[str]:
        return [
            f"{stamp(START)} mmdet - INFO - Environment info:",
            f"{stamp(START + 1)} mmdet - INFO - Config:",
            "...",
            f"{stamp(START + 900)} mmdet - INFO - Epoch [1][50/2439]\t{stated}loss: 2.1",
            f"{stamp(START + 1200)} mmdet - INFO - Epoch [1][100/2439]\t{stated}loss: 2.0",
        ]

    out = check_log(write(tmp_path, lines(""))).to_json()
    assert [f["kind"] for f in out["findings"]] == ["HANG"], out["findings"]
    out = check_log(write(tmp_path, lines("time: 6.0, data_time: 0.1, "))).to_json()
    assert out["findings"] == [], out["findings"]


def basicsr(start: float, iterations: range, every_s: float = 200.0) -> list[str]:
    """BasicSR's (IQA-PyTorch's) trainer: its start, then a report every 100 iterations."""
    lines = [f"{stamp(start)} INFO: Model [GeneralIQAModel] is created.",
             f"{stamp(start + 25)} INFO: Start training from epoch: 0, iter: 0"]  # fmt: skip
    for n, i in enumerate(iterations, 1):
        lines.append(
            f"{stamp(start + 25 + n * every_s)} INFO: [basel..][epoch: {i // 50:3d}, iter: "
            f"{i:>9,}, lr:(3.000e-05,)] [eta: 2:37:00, time (data): 2.064 (0.521)] l_mos: 2.6e-03"
        )
    return lines


def test_a_trainer_announcing_its_start_is_not_yet_reporting(tmp_path: Path) -> None:
    """BasicSR's "Start training from epoch: 0, iter: 0", then a report every 200 s: the wait
    for the first report is the start's, not a report's pace (counted as a report, the
    announcement made 200 s a hang); its reports, whose counts group thousands ("iter:
    5,100"), are progress."""
    out = check_log(write(tmp_path, basicsr(START, range(100, 5600, 100)))).to_json()
    assert out["findings"] == [], out["findings"]
    # counter-example: reports that stop are a hang
    lines = basicsr(START, range(100, 1100, 100))
    out = check_log(write(tmp_path, lines), silent_for=3600).to_json()
    assert [f["kind"] for f in out["findings"]] == ["HANG"], out["findings"]
    assert "after iteration 1000" in out["findings"][0]["summary"]


def test_the_time_between_a_finished_run_and_the_next_launch_is_no_silence(
    tmp_path: Path,
) -> None:
    """`nohup torchrun ... >> nohup.out` twice: the first run ends its training, the second is
    launched hours later and appends to the file. The hours between are no run's silence."""
    end = START + 25 + 10 * 200
    relaunch = end + 3 * 3600
    glog = time.strftime("W%m%d %H:%M:%S.951555", time.gmtime(relaunch))
    first_run = [
        *basicsr(START, range(100, 1100, 100)),
        f"{stamp(end + 60)} INFO: End of training. Time consumed: 0:34:05",
    ]
    lines = [
        *first_run,
        f"{glog} 1802469 site-packages/torch/distributed/run.py:793] ",
        f"{glog} 1802469 site-packages/torch/distributed/run.py:793] Setting OMP_NUM_THREADS "
        "environment variable for each process to be 1 in default",
        *basicsr(relaunch + 5, range(100, 1100, 100)),
    ]
    out = check_log(write(tmp_path, lines)).to_json()
    assert out["findings"] == [], out["findings"]
    # counter-example: hours of silence after the end of training, with no launch after them,
    # are a job that did not exit
    out = check_log(write(tmp_path, first_run), silent_for=3 * 3600).to_json()
    assert [f["kind"] for f in out["findings"]] == ["HANG"], out["findings"]


def test_a_straggler_report_is_a_straggler(tmp_path: Path) -> None:
    t = START + 130
    lines = [
        *megatron(),
        f"0: {stamp(t)} STRAGGLER DETECTION WARNING: Some GPUs perf dropped. Affected ranks: [1]",
        f"0: {stamp(t)} Rank=1 Node=node2 Score=0.41",
        f"1: {stamp(t + 10)} iteration       13/  508626 | throughput per GPU (TFLOP/s/GPU): 386.7",
    ]
    out = check_log(write(tmp_path, lines), nodes=("node1", "node2")).to_json()
    assert out["anomaly"] == "STRAGGLER"
    assert out["culprit_ranks"] == [1]
    assert out["culprit_nodes"] == ["node2"]


def test_a_last_line_without_newline_is_read(tmp_path: Path) -> None:
    path = tmp_path / GOOD_NAME
    path.write_text("\n".join(megatron()) + "\n0: Segmentation fault (core dumped)")
    assert check_log(str(path)).to_json()["anomaly"] == "CRASH"


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(CheckLogError):
        check_log(str(tmp_path / "nope.log"))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "worker", "check-log", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_the_command_line_prints_one_json_object(tmp_path: Path) -> None:
    path = write(tmp_path, crash_lines())
    done = run_cli(path, "--json", "--nodes", "node[1-3]", "--hang-timeout", "120")
    assert done.returncode == EXIT_ANOMALY, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    keys = {"anomaly", "attribution", "requeue", "culprit_nodes", "culprit_ranks",
            "checkpoint_saves", "tflops", "evidence", "format_problems"}  # fmt: skip
    assert keys <= out.keys()
    assert out["anomaly"] == "CRASH"
    assert out["culprit_nodes"] == ["node3"]
    assert isinstance(out["tflops"], list) and out["tflops"][0] == 386.7


def test_the_command_line_explains_in_text(tmp_path: Path) -> None:
    done = run_cli(write(tmp_path, megatron(tflops=False)))
    assert done.returncode == EXIT_FORMAT
    assert "FAIL throughput lines with TFLOP" in done.stdout
    assert "fix:" in done.stdout
    missing = run_cli(str(tmp_path / "missing.log"))
    assert missing.returncode == 4 and "does not exist" in missing.stderr


def test_line_numbers_hold_without_timestamps(tmp_path: Path) -> None:
    lines = [*megatron(stamps=False), "0: Segmentation fault (core dumped)", "1: bye"]
    report = check_log(write(tmp_path, lines))
    assert report.anomaly is not None and report.anomaly.line == len(lines) - 1


def test_a_line_longer_than_one_read_does_not_end_the_check(tmp_path: Path) -> None:
    lines = [*megatron(), "0: " + "x" * (5 << 20), "0: Segmentation fault (core dumped)"]
    out = check_log(write(tmp_path, lines)).to_json()
    assert out["anomaly"] == "CRASH"
    assert out["lines"] == len(lines)


def test_srun_chunks_of_a_long_line_are_judged_whole(tmp_path: Path) -> None:
    """srun splits labelled lines at 1024 bytes; a signature across the cut is still found."""
    head = "[2024-07-30 14:21:44] RuntimeError: " + "x" * (1024 - 36 - 3)
    assert len(head + "seg") == 1024  # exactly one srun chunk after the "3: " label
    tail = "CUDA error: an illegal memory access was encountered"
    lines = [*megatron(), f"3: {head}seg", f"3: mentation fault (core dumped) {tail}"]
    out = check_log(write(tmp_path, lines)).to_json()
    assert out["anomaly"] == "CRASH"
    assert any("segmentation fault" in line for line in out["evidence"])


def test_an_excerpts_cut_is_no_silence(tmp_path: Path) -> None:
    """A reporter's "..." between two stretches of a log hides hours: they are no hang."""
    t = START + 7200.0
    later = [f"1: {stamp(t + 10 * i)} iteration {i + 100:8d}/  508626 | elapsed time per "
             f"iteration (ms): 10000.0 | lm loss: 2.3E+00 |" for i in range(4)]  # fmt: skip
    cut = check_log(write(tmp_path, [*megatron(iterations=6), "...", *later])).to_json()
    assert cut["anomaly"] == "NONE"
    (tmp_path / "uncut").mkdir()
    silent = check_log(write(tmp_path / "uncut", [*megatron(iterations=6), *later])).to_json()
    assert silent["anomaly"] == "HANG"  # the same two hours without the cut: a hang


def test_an_unmarked_cut_training_went_through_at_its_pace_is_no_silence(tmp_path: Path) -> None:
    """A pasted log with lines left out and no "..." mark: 940 steps at the job's 4.6 s a step
    hide 72 minutes, and the next line is that far on; a job that stalled is not."""

    def steps(first: int, last: int, t0: float) -> list[str]:
        return [f"{stamp(t0 + 46.0 * (i - first) / 10)} INFO [step={i}/1000] loss=2.3"
                f" tokens/s=56000" for i in range(first, last + 1, 10)]  # fmt: skip

    before = steps(10, 50, float(START))
    cut = check_log(write(tmp_path, [*before, *steps(990, 1000, START + 4409.0)])).to_json()
    assert cut["anomaly"] == "NONE"
    (tmp_path / "stalled").mkdir()
    stalled = steps(60, 70, START + 4409.0)  # the same 72 minutes, 10 steps further on
    assert (
        check_log(write(tmp_path / "stalled", [*before, *stalled])).to_json()["anomaly"] == "HANG"
    )


def test_an_excerpt_that_begins_mid_run_is_judged_on_the_pace_its_lines_state(
    tmp_path: Path,
) -> None:
    """An excerpt whose first line is a report of a job that reports every 100 steps of 2 s:
    its first 224 s gap is the job's own pace, stated on the line ("avg_batch_cost: 2.03 s"),
    before two reports could measure it. The same gap with the step 10 further on is a hang."""

    def report(step: int, t: float) -> str:
        return (f"[{time.strftime('%Y/%m/%d %H:%M:%S', time.gmtime(t))}] ppocr INFO: epoch: "
                f"[3/500], global_step: {step}, lr: 0.005000, loss: 0.609742, avg_reader_cost: "
                f"1.81036 s, avg_batch_cost: 2.03538 s, avg_samples: 16.0, ips: 7.86095 "
                f"samples/s")  # fmt: skip

    paced = [report(500, START), report(600, START + 224.0), report(700, START + 448.0)]
    assert check_log(write(tmp_path, paced)).to_json()["anomaly"] == "NONE"
    (tmp_path / "stalled").mkdir()
    stalled = [report(500, START), report(510, START + 224.0), report(520, START + 448.0)]
    assert check_log(write(tmp_path / "stalled", stalled)).to_json()["anomaly"] == "HANG"


def test_progress_without_timestamps_between_two_stamped_lines_is_no_silence(
    tmp_path: Path,
) -> None:
    """A tqdm bar (no timestamps) ran for an hour between the trainer's stamped start and end
    lines: that hour is no silence. Without the bar it is one."""
    start = f"{stamp(START)} [INFO] [launch.py:256:main] process 4711 spawned"
    bar = [f" {i}/400 [{i // 60:02d}:{i % 60:02d}<00:00,  1.10it/s]" for i in range(1, 401)]
    end = f"{stamp(START + 3825.0)} [INFO] [launch.py:351:main] Process 4711 exits successfully."
    assert check_log(write(tmp_path, [start, *bar, end])).to_json()["anomaly"] == "NONE"
    (tmp_path / "quiet").mkdir()
    assert check_log(write(tmp_path / "quiet", [start, end])).to_json()["anomaly"] == "HANG"


def test_an_error_among_lines_without_a_time_waits_for_the_cause_printed_after_it(
    tmp_path: Path,
) -> None:
    """Progress lines without a time fill the minute between two stamps; a rank's lost
    connection comes at their end, then torchrun's stamped report that the other rank died of
    SIGBUS (exit code -7). When in that minute the connection broke the log cannot say: as the
    watcher reading the lines as written, the cause printed just after it is seen (NODE), not
    the lost connection alone (NETWORK)."""
    start = f"{stamp(START)} INFO: world size: 2"
    steps = [f"Epoch [1] Step {i}/3000: loss=1.02, step_time=50.1ms" for i in range(100, 1000, 100)]
    reset = (
        "[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error"
        " [127.0.0.1]:48551: Connection reset by peer"
    )
    glog = time.strftime("%m%d %H:%M:%S", time.gmtime(START + 52.0))  # a minute on
    sent = f"W{glog}.409000 25055 api.py:1028] Sending process 25346 closing signal SIGTERM"
    died = (
        f"E{glog}.533000 25055 torch/distributed/elastic/multiprocessing/api.py:1002]"
        " failed (exitcode: -7) local_rank: 1 (pid: 25347) of binary: /usr/bin/python"
    )
    report = check_log(write(tmp_path, [start, *steps, reset, sent, died])).to_json()
    assert (report["anomaly"], report["attribution"]) == ("CRASH", "NODE"), report["summary"]


def test_a_store_gone_at_exit_is_no_network_fault(tmp_path: Path) -> None:
    """The rank that hosted the TCPStore exited (its program's exit warning, no error); the
    other rank's heartbeat monitor then logs broken pipes to the store and says the store may
    have shut down early: that exit seen from afar, not a network fault. A broken pipe with
    no such word stays a network warning, and the log ending after it a crash."""
    exited = (
        "0: [rank0]:[W526 21:31:35.184031553 ProcessGroupNCCL.cpp:1569] Warning: WARNING:"
        " destroy_process_group() was not called before program exit, which can leak resources."
    )
    pipe = (
        "1: [rank1]:[W526 21:31:46.755409326 TCPStore.cpp:106] [c10d] sendBytes failed on"
        " SocketImpl(fd=63, addr=[nid007287]:55740, remote=[nid007285]:8888): Broken pipe"
    )
    gone = (
        "1: [rank1]:[W526 21:31:46.756966117 ProcessGroupNCCL.cpp:1818] [PG ID 0 PG GUID"
        ' 0(default_pg) Rank 1] Failed to check the "should dump" flag on TCPStore, (maybe'
        " TCPStore server has shut down too early), with error: Broken pipe"
    )
    report = check_log(write(tmp_path, [exited, pipe, gone, pipe, gone])).to_json()
    assert report["anomaly"] == "NONE", report["summary"]
    (tmp_path / "pipe").mkdir()
    report = check_log(write(tmp_path / "pipe", [exited, pipe])).to_json()
    assert (report["anomaly"], report["attribution"]) == ("CRASH", "NETWORK")


def test_a_glog_line_after_a_silence_is_read_at_its_time(tmp_path: Path) -> None:
    """torchrun's glog lines ("W1123 20:48:03.076 ...] Received 15 death signal") have a time
    without a year: in a log whose lines carry years, it is read in that year, so the three
    minutes training sat silent before the signal are a hang."""
    steps = [
        f"[2026-11-23 20:44:{50 + i:02d},000][INFO][rank0] step {20 * i}/3000 | loss 1.2 |"
        " 80.6 ms/step | 12700 tok/s"
        for i in range(1, 9)
    ]
    signal = (
        "W1123 20:48:03.076000 16236 torch/distributed/elastic/agent/server/api.py:753]"
        " Received 15 death signal, shutting down workers"
    )
    report = check_log(write(tmp_path, [*steps, signal])).to_json()
    assert report["anomaly"] == "HANG"
    # A 2025 run headed by torchrun's glog lines (no year known yet: not read; read in the
    # current year they would stand ten minutes before its last line, a false silence)
    head = "W1123 20:40:00.000000 16236 torch/distributed/run.py:874] Setting OMP_NUM_THREADS"
    run = [
        f"[2025-11-23 20:{40 + i // 2:02d}:{30 * (i % 2):02d},000][INFO][rank0] step {20 * i}/3000"
        " | loss 1.2 | 80.6 ms/step | 12700 tok/s"
        for i in range(1, 20)
    ]
    tail = "W1123 20:50:00.000000 16236 ProcessGroupNCCL.cpp:1524] destroy_process_group()"
    (tmp_path / "2025").mkdir()
    report = check_log(write(tmp_path / "2025", [head, *run, tail])).to_json()
    assert report["anomaly"] == "NONE"


def test_the_verdict_is_todays_policy_a_failure_after_the_last_iteration_is_not_requeued(
    tmp_path: Path,
) -> None:
    """check-log's verdict is what a job enrolled today gets (policy v2): done means done. A
    communicator torn down as the ranks exit is no failure at all once training has ended; a
    fault of its own then is one, and still never requeued."""
    from models.recovery import RecoveryConfig
    from worker.checklog import run_check_log

    t = START + 200
    done = [
        *megatron(),
        f"1: {stamp(t)} iteration       13/      13 | elapsed time per iteration (ms): 10000.0 |",
        f"0: {stamp(t + 5)} [after training is done] datetime: 2024-07-30 14:25:09",
        "0: Traceback (most recent call last):",
    ]
    teardown = [*done, "0: RuntimeError: NCCL communicator was aborted on rank 0 during "
                "destroy_process_group"]  # fmt: skip
    report, verdict = run_check_log(write(tmp_path, teardown), RecoveryConfig())
    assert report.anomaly is None and verdict is None
    fault = [*done, "0: RuntimeError: CUDA error: uncorrectable ECC error encountered"]
    report, verdict = run_check_log(write(tmp_path, fault), RecoveryConfig())
    assert report.anomaly is not None and report.anomaly.kind == "CRASH"
    assert verdict is not None and verdict.requeue is False
    # Still running in teardown: cancelled to free its nodes, never requeued.
    assert verdict.action == "cancel" and "training" in " ".join(verdict.reasons)


def test_a_loss_scale_collapse_drawn_on_a_progress_bar_is_the_failure(tmp_path: Path) -> None:
    """DeepSpeed prints its overflow on the tqdm bar's line: the step whose scale reached 0 is
    no step of training but the failure (fp16 diverged); tracebacks cut before their exception
    line follow, and the log ends."""
    bar = " 15%|#5        | {n}/2724 [15:2{n2}:53<84:00:48, 131.10s/it][2023-06-07 23:4{n2}:42,582]"
    overflow = (
        " [INFO] [loss_scaler.py:181:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step."
    )
    lines = [
        bar.format(n=415, n2=1) + overflow + " Attempted loss scale: 4, reducing to 2",
        bar.format(n=416, n2=2) + overflow + " Attempted loss scale: 2, reducing to 1",
        bar.format(n=417, n2=3) + overflow + " Attempted loss scale: 0, reducing to 0",
        " 15%|#5        | 418/2724 [15:26:04<83:57:06, 131.06s/it]"
        "Traceback (most recent call last):",
        '  File "./scripts/run_clm_pt_with_peft.py", line 621, in <module>',
        "Traceback (most recent call last):",
        '  File "./scripts/run_clm_pt_with_peft.py", line 621, in <module>',
        "    main()",
    ]
    report = check_log(write(tmp_path, lines)).to_json()
    assert (report["anomaly"], report["attribution"], report["requeue"]) == (
        "CRASH",
        "APPLICATION",
        False,
    ), report["summary"]


def test_a_storage_error_keras_trained_on_after_is_survived(tmp_path: Path) -> None:
    """A data generator logged an image read's EIO and skipped the image: Keras then opened the
    next epoch and finished it. The epoch header says the epoch before it is done, so the two
    lines are two reports that training went on. Without them the log ends in the error."""
    error = [
        '  File "/usr/local/lib/python3.6/dist-packages/PIL/Image.py", line 2419, in open',
        "    prefix = fp.read(16)",
        "OSError: [Errno 5] Input/output error",
    ]
    went_on = [
        "Epoch 7/40",
        "50/50 [==============================] - 239s 5s/step - loss: 0.3024 - val_loss: 7.5646",
    ]
    report = check_log(write(tmp_path, [*error, *went_on])).to_json()
    assert report["anomaly"] == "NONE", report["summary"]
    (tmp_path / "ends").mkdir()
    report = check_log(write(tmp_path / "ends", error)).to_json()
    assert (report["anomaly"], report["attribution"]) == ("CRASH", "STORAGE")


def _json_steps(first: int, last: int, every_s: int, t0: int, rate: float) -> list[str]:
    """JSON-lines progress reports, one every `every_s` seconds from `t0`, at `rate`."""
    return [
        f'0: {{"ts": "{time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t0 + every_s * i))}",'
        f' "rank": 0, "step": {step}, "loss": 0.62, "samples_per_sec": {rate}}}'
        for i, step in enumerate(range(first, last + 1, 100))
    ]


def test_a_time_limit_that_found_training_long_silent_ended_a_hung_job(tmp_path: Path) -> None:
    """Reports every 5 s, then over two minutes without one until Slurm's time limit: the
    stop came before the watch's next poll, but the job had hung (25x its cadence). The same
    limit 10 s after a report, or under two minutes after it (the seed allows a job two quiet
    minutes), or while a checkpoint was being saved, ended a working job."""

    reports = _json_steps(100, 1100, 5, calendar.timegm((2026, 11, 25, 4, 0, 0)), 5466.2)

    def limit(at: str) -> str:
        return f"slurmstepd-n3: error: *** JOB 3 ON n3 CANCELLED AT 2026-11-25T{at} DUE TO TIME" + (
            " LIMIT ***"
        )

    report = check_log(write(tmp_path, [*reports, limit("04:02:55")])).to_json()
    assert (report["anomaly"], report["requeue"]) == ("HANG", True), report["summary"]
    assert "no progress for 125s" in report["summary"]
    for name, lines in {
        "working": [*reports, limit("04:01:00")],
        "quiet": [*reports, limit("04:02:40")],
        "saving": [
            *reports,
            "0: [2026-11-25 04:00:51] saving checkpoint at iteration 1100",
            limit("04:02:50"),
        ],
    }.items():
        (tmp_path / name).mkdir()
        report = check_log(write(tmp_path / name, lines)).to_json()
        assert (report["anomaly"], report["attribution"]) == ("CRASH", "SCHEDULER"), name


def test_a_step_cancelled_for_no_stated_reason_then_said_preempted_was_preempted(
    tmp_path: Path,
) -> None:
    """slurmstepd's step cancel names no reason (the job's own line, with PREEMPTION, went to
    the batch log); the ranks' own handlers then say what the signal was: a preemption. The
    scheduler stopped a healthy run, so it is requeued as the scheduler's doing. A bare
    SIGTERM after the same cancel says no more than the cancel did (a person's scancel sends
    one too): the cause stays unknown."""
    steps = [
        f"0: 2026-11-25 05:47:{s:02d},726 INFO trainer.loop [rank0]: step {100 * (s // 3)}/6000"
        " | loss 0.55 | 5465 samples/s"
        for s in range(3, 46, 3)
    ]
    cancel = "0: slurmstepd-n3: error: *** STEP 12.0 ON n3 CANCELLED AT 2026-11-25T05:47:47 ***"
    said = {
        "preempted": "1: [rank1] Preemption detected (signal 15, SIGTERM): will save checkpoint",
        "bare": "1: [rank1] received SIGTERM, exiting",
    }
    expected = {"preempted": ("CRASH", "SCHEDULER", True), "bare": ("CRASH", "UNKNOWN", True)}
    for name, line in said.items():
        (tmp_path / name).mkdir()
        report = check_log(write(tmp_path / name, [*steps, cancel, line])).to_json()
        got = (report["anomaly"], report["attribution"], report["requeue"])
        assert got == expected[name], (name, report["summary"])


def test_a_slow_reporter_stopped_after_the_live_watchs_hang_allowance_had_hung(
    tmp_path: Path,
) -> None:
    """A job that reports every 5 minutes: a live watch calls it hung after 15 minutes of
    silence (the setup allowance caps five times its cadence). A time limit 16 minutes after
    its last report ended a job that had hung; one 14 minutes after ended a working job."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))

    def at(t: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))

    reports = []
    for i in range(8):
        t = t0 + 300 * i
        reports.append(f"0: [{at(t)}] iteration {100 * (i + 1)}/90000 | lm loss: 2.1E+00 |")
        if i < 7:  # the data loader's lines between reports: never two minutes without a line
            reports += [
                f"0: [{at(t + 60 * k)}] [INFO] fetched shard {5 * i + k}" for k in (1, 2, 3, 4)
            ]
    last = t0 + 300 * 7

    def limit(after_s: float) -> str:
        stamp_ = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(last + after_s))
        return f"slurmstepd-n3: error: *** JOB 3 ON n3 CANCELLED AT {stamp_} DUE TO TIME LIMIT ***"

    expected = {960: ("HANG", "UNKNOWN"), 840: ("CRASH", "SCHEDULER")}
    for after_s, want in expected.items():
        (tmp_path / str(after_s)).mkdir()
        report = check_log(write(tmp_path / str(after_s), [*reports, limit(after_s)])).to_json()
        assert (report["anomaly"], report["attribution"]) == want, (after_s, report["summary"])


def test_a_worker_torch_elastic_restarts_is_no_crash_until_it_gives_up(tmp_path: Path) -> None:
    """torch elastic's agent reports each worker it saw die, then restarts the worker group
    while it has restarts left (`--max-restarts`): the relaunch resumed from its checkpoint and
    trained on, so the job is healthy. Only the agent's ChildFailedError summary says it gave
    up; the same death followed by it ended the job."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    died = (
        "E1125 04:00:48.257000 24687 torch/distributed/elastic/multiprocessing/api.py:1002]"
        " failed (exitcode: 1) local_rank: 1 (pid: 28125) of binary: /venv/bin/python"
    )
    relaunched = [
        "0: [2026-11-25 04:00:52] process group ready rank=0 world_size=2",
        "0: [2026-11-25 04:00:55] resumed from checkpoint ck/step_800.pt step=800",
        *_json_steps(900, 2000, 5, t0 + 60, 5400.0),
    ]
    gave_up = [
        "Traceback (most recent call last):",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "Root Cause (first observed failure):",
    ]
    before = _json_steps(100, 800, 5, t0, 5466.2)
    report = check_log(write(tmp_path, [*before, died, *relaunched])).to_json()
    assert report["anomaly"] == "NONE", report["summary"]
    (tmp_path / "gave_up").mkdir()
    report = check_log(write(tmp_path / "gave_up", [*before, died, *gave_up])).to_json()
    assert report["anomaly"] == "CRASH", report["summary"]


def test_a_relaunch_from_a_checkpoint_is_measured_against_its_own_speed(tmp_path: Path) -> None:
    """A run 30% slower than its start for 8 reports (a drop needs 10 in a row), then relaunched
    from its checkpoint, where it runs at that speed on: new processes, maybe on other nodes,
    whose baseline is their own. Without the relaunch the same readings are a straggler."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    slowed = [*_json_steps(100, 900, 5, t0, 1000.0), *_json_steps(1000, 1700, 5, t0 + 45, 700.0)]
    load = "0: [2026-11-25 04:02:00] resumed from checkpoint ck/step_1700.pt step=1700"
    resumed = _json_steps(1800, 3000, 5, t0 + 125, 700.0)
    report = check_log(write(tmp_path, [*slowed, load, *resumed])).to_json()
    assert report["anomaly"] == "NONE", report["summary"]
    (tmp_path / "on").mkdir()
    went_on = _json_steps(1800, 3000, 5, t0 + 85, 700.0)
    report = check_log(write(tmp_path / "on", [*slowed, *went_on])).to_json()
    assert report["anomaly"] == "STRAGGLER", report["summary"]


# --- round 29: heldout28's misses as classes ---------------------------------------------------


def _elastic_gave_up(code: int, local_rank: int, root_cause: list[str]) -> list[str]:
    """torch elastic's agent: the worker it saw die, then its ChildFailedError summary, whose
    Root Cause block copies the worker's error file (the traceback) when there is one."""
    return [
        "E1125 04:00:48.257000 24687 torch/distributed/elastic/multiprocessing/api.py:1002]"
        f" failed (exitcode: {code}) local_rank: {local_rank} (pid: 28125) of binary: /bin/python",
        "Traceback (most recent call last):",
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "Root Cause (first observed failure):",
        "[0]:",
        f"  rank      : {local_rank} (local_rank: {local_rank})",
        f"  exitcode  : {code} (pid: 28125)",
        *root_cause,
        "============================================================",
    ]


def _after_training(tmp_path: Path, name: str, ending: list[str], t0: int) -> dict[str, Any]:
    """check-log's report on JSON-lines training (steps 100-900, 5 s apart from `t0`) that
    `ending` follows, written in a folder of its own, `name`."""
    (tmp_path / name).mkdir()
    lines = [*_json_steps(100, 900, 5, t0, 5466.2), *ending]
    return check_log(write(tmp_path / name, lines)).to_json()


def _verdict(report: dict[str, Any]) -> tuple[str, str | None, bool | None]:
    return report["anomaly"], report["attribution"], report["requeue"]


def test_a_rank_aborted_without_a_word_took_its_peers_connection_with_it(tmp_path: Path) -> None:
    """Rank 1 reports "Connection reset by peer"; torch elastic then says rank 0 was the worker
    that died first, of SIGABRT, with no error of its own: rank 1 lost its connection because
    rank 0 died, of a cause the log does not show. When rank 1 is the one that aborted (after
    its own network error, as NCCL's watchdog aborts its process), the network is the cause."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    reset = (
        "[rank1]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read"
        " error [127.0.0.1]:3977: Connection reset by peer."
    )
    abort = ["  traceback : Signal 6 (SIGABRT) received by PID 28125"]
    expected = {0: ("CRASH", "UNKNOWN", True), 1: ("CRASH", "NETWORK", True)}
    for aborted, want in expected.items():
        (tmp_path / str(aborted)).mkdir()
        steps = _json_steps(100, 900, 5, t0, 5466.2)
        lines = [*steps, reset, *_elastic_gave_up(-6, aborted, abort)]
        report = check_log(write(tmp_path / str(aborted), lines)).to_json()
        got = (report["anomaly"], report["attribution"], report["requeue"])
        assert got == want, (aborted, report["summary"])


def test_torch_elastics_summary_is_read_to_the_cause_it_copies(tmp_path: Path) -> None:
    """The agent reports the worker's abort, then its summary, whose Root Cause block carries the
    worker's own traceback from its error file: a device-side assertion, the program's (or its
    data's) bug, not to be requeued. The summary's lines come at once: the report waits for
    them. Without the copied traceback the abort's cause is unknown."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    traceback = [
        "  error_file: /tmp/torchelastic_4s2yzn11/none_2d8h9cwf/attempt_0/7/error.json",
        "  traceback : Traceback (most recent call last):",
        '    File "/app/train.py", line 701, in forward_backward_step',
        "      pred = model_parts[0](inputs)",
        "  torch.AcceleratorError: CUDA error: device-side assert triggered",
        "  Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    ]
    expected = {
        "copied": (traceback, ("CRASH", "APPLICATION", False)),
        "none": (["  error_file: <N/A>"], ("CRASH", "UNKNOWN", True)),
    }
    for name, (root_cause, want) in expected.items():
        report = _after_training(tmp_path, name, _elastic_gave_up(-6, 7, root_cause), t0)
        assert _verdict(report) == want, (name, report["summary"])


def test_the_shells_killed_on_a_progress_bars_line_ended_the_run(tmp_path: Path) -> None:
    """The shell's "Killed" lands on the line tqdm was redrawing (no newline before it): the
    trainer was SIGKILLed (by whom the log does not say), not a bar that went on."""
    bar = " 20%|████                | 216/1063 [00:27<02:17,  6.17it/s]"
    lines = ["Training with a single process on 1 GPUs.", bar + "Killed"]
    report = check_log(write(tmp_path, lines)).to_json()
    got = (report["anomaly"], report["attribution"], report["requeue"])
    assert got == ("CRASH", "UNKNOWN", True), report["summary"]


def test_a_failure_the_launcher_restarts_its_workers_after_waits_for_the_relaunch(
    tmp_path: Path,
) -> None:
    """torch elastic's agent says it restarts its workers: the relaunch (rendezvous, start-up, a
    three-minute checkpoint load) has the start-up allowance to report, not the 30 s a failure
    waits for training to go on; it resumed and trained on. Without that word, the same
    failure and the same three minutes ended the job, and so does a relaunch the log ends in."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    before = _json_steps(100, 800, 5, t0, 5466.2)
    died = (
        "E1125 04:00:48.257000 24687 torch/distributed/elastic/multiprocessing/api.py:1002]"
        " failed (exitcode: 1) local_rank: 1 (pid: 28125) of binary: /venv/bin/python"
    )
    restart = (
        "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3"
        " attempts left; will restart worker group"
    )
    resumed = [
        "0: [2026-11-25 04:03:50] resumed from checkpoint ck/step_800.pt step=800",
        *_json_steps(900, 2000, 5, t0 + 235, 5400.0),
    ]
    expected = {
        "restarted": ([*before, died, restart, *resumed], "NONE"),
        "unsaid": ([*before, died, *resumed], "CRASH"),
        "ended": ([*before, died, restart], "CRASH"),
    }
    for name, (lines, want) in expected.items():
        (tmp_path / name).mkdir()
        report = check_log(write(tmp_path / name, lines)).to_json()
        assert report["anomaly"] == want, (name, report["summary"])


def test_a_gpu_failure_nccls_prefix_names_excludes_that_node(tmp_path: Path) -> None:
    """NCCL's own prefix ("host:pid:tid [dev]") names the host whose CUDA call failed with a
    device error (999, unknown error: the GPU needs a reset): that node is the culprit, kept out
    of the requeue; its peer's NCCL error is the victim."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    lines = [
        *_json_steps(100, 900, 5, t0, 5466.2),
        "1: gpu-b2:2852:3596 [0] include/alloc.h:112 NCCL WARN Cuda failure 999 'unknown error'",
        "1: gpu-b2:2852:3596 [0] NCCL INFO init.cc:526 -> 1",
        "0: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1691,"
        " unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
    ]
    report = check_log(write(tmp_path, lines), nodes=("gpu-b1", "gpu-b2")).to_json()
    got = (report["anomaly"], report["attribution"], report["requeue"], report["culprit_nodes"])
    assert got == ("CRASH", "GPU", True, ["gpu-b2"]), report["summary"]


# --- round 30: heldout29's misses as classes ---------------------------------------------------


def test_a_rank_a_signal_ended_first_took_its_peers_connection_with_it(tmp_path: Path) -> None:
    """The rank that died first of a signal and said nothing (srun's "task 1: Terminated"
    before any task's exit, torch elastic's SIGQUIT "exitcode: -3"; round 31: srun's "task 1:
    Hangup", a SIGHUP from outside Slurm, which never ends tasks with it) is where the
    connection the other rank lost went: its death, cause unknown, not the network's."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    reset = (
        "[rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read"
        " error [127.0.0.1]:19131: Connection reset by peer."
    )
    endings = {
        "terminated": [
            f"0: {reset}",
            "srun: error: n4: task 1: Terminated",
            "srun: error: n3: task 0: Exited with exit code 1",
        ],
        "hangup": [
            f"0: {reset}",
            "srun: error: n4: task 1: Hangup",
            "srun: error: n3: task 0: Exited with exit code 1",
        ],
        "sigquit": [
            reset.replace("rank0", "rank1"),
            "E1125 04:00:48.257000 24687 torch/distributed/elastic/multiprocessing/api.py:1002]"
            " failed (exitcode: -3) local_rank: 0 (pid: 28125) of binary: /bin/python",
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        ],
    }
    for name, ending in endings.items():
        report = _after_training(tmp_path, name, ending, t0)
        assert _verdict(report) == ("CRASH", "UNKNOWN", True), (name, report["summary"])


def test_a_sigkill_the_steps_oom_kill_record_then_explains_was_the_nodes(tmp_path: Path) -> None:
    """torchrun in the batch step: a worker SIGKILLed (exitcode -9) with no word of its own,
    the agent's summary, then slurmstepd's record at the step's end: the cgroup's OOM killer
    did it (NODE). The summary waits for what comes with it; without the record the kill's
    cause is unknown."""
    t0 = calendar.timegm((2026, 11, 25, 4, 0, 0))
    killed = _elastic_gave_up(-9, 1, ["  traceback : Signal 9 (SIGKILL) received by PID 28125"])
    oom = (
        "slurmstepd-n1: error: Detected 1 oom-kill event(s) in StepId=3.batch. Some of your"
        " processes may have been killed by the cgroup out-of-memory handler."
    )
    expected = {"recorded": ([oom], "NODE"), "unrecorded": ([], "UNKNOWN")}
    for name, (after, want) in expected.items():
        report = _after_training(tmp_path, name, [*killed, *after], t0)
        assert (report["anomaly"], report["attribution"]) == ("CRASH", want), report["summary"]


def test_nvmls_driver_mismatch_behind_nccls_system_error_is_the_gpus(tmp_path: Path) -> None:
    """NCCL's "unhandled system error" names no cause; its "Last error:" does: NVML found the
    node's loaded kernel module is not the installed driver's (an update without a reboot): the
    node's GPU driver, not the network."""
    lines = [
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled"
        " system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or"
        " device error. ",
        "Last error:",
        "nvmlInit_v2() failed: Driver/library version mismatch",
    ]
    report = check_log(write(tmp_path, lines)).to_json()
    got = (report["anomaly"], report["attribution"], report["requeue"])
    assert got == ("CRASH", "GPU", True), report["summary"]


def _detectron2(first: int, last: int, t0: int) -> list[str]:
    """detectron2's event lines, every 50 iterations, 2 s apart from `t0`."""
    return [
        f"0: [{time.strftime('%m/%d %H:%M:%S', time.gmtime(t0 + 2 * i))} d2.utils.events]:  eta:"
        f" 0:01:36  iter: {it}  total_loss: 0.15  time: 0.0308  last_time: 0.0308  data_time:"
        " 0.0009  lr: 0.0027  max_mem: 0M"
        for i, it in enumerate(range(first, last + 1, 50))
    ]


def test_detectron2s_events_are_progress_with_a_time(tmp_path: Path) -> None:
    """detectron2 stamps its lines with the month and day, no year ("[11/25 08:40:09
    d2.utils.events]:") and reports "iter: 849 ... time: 0.0308": a report every 2 s, then 150 s
    without a line while the job ran on, hung; the same silence for 100 s is within the hang
    timeout."""
    t0 = calendar.timegm((2026, 11, 25, 8, 40, 0))
    lines = _detectron2(49, 849, t0)
    for silent, want in ((150.0, "HANG"), (100.0, "NONE")):
        report = check_log(write(tmp_path, lines), silent_for=silent).to_json()
        assert report["anomaly"] == want, (silent, report["summary"])


def test_mmengines_resume_after_slurms_requeue_begins_a_new_attempt(tmp_path: Path) -> None:
    """Slurm requeued the job after a node failure into the same file; MMEngine's "resumed
    epoch: 3, iter: 1200" proves the next attempt began, which trained to its end: judged on
    its own, it is healthy."""

    def records(first: int, last: int, t0: int) -> list[str]:
        return [
            f"0: {time.strftime('%m/%d %H:%M:%S', time.gmtime(t0 + i))} - mmengine - INFO -"
            f" Iter(train) [{it:4d}/1800]  lr: 1.0e-03  eta: 0:01:02  time: 0.0350  data_time:"
            " 0.0020  loss: 0.25"
            for i, it in enumerate(range(first, last + 1, 100))
        ]

    t0 = calendar.timegm((2026, 11, 25, 8, 15, 0))
    lines = [
        *records(100, 1300, t0),
        "srun: error: Node failure on n2",
        "slurmstepd-n1: error: *** JOB 1 ON n1 CANCELLED AT 2026-11-25T08:16:49 DUE TO NODE"
        " FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
        "0: 11/25 08:19:21 - mmengine - INFO - Load checkpoint from /ck/step_1200/model.pt",
        "0: 11/25 08:19:21 - mmengine - INFO - resumed epoch: 3, iter: 1200",
        *records(1300, 1800, t0 + 270),
        "0: 11/25 08:19:41 - mmengine - INFO - Saving checkpoint at 1800 iterations",
    ]
    report = check_log(write(tmp_path, lines), nodes=("n1", "n2")).to_json()
    assert report["anomaly"] == "NONE", report["summary"]
    assert len(report["attempts"]) == 2


def test_lightnings_restoring_line_after_slurms_requeue_begins_a_new_attempt(
    tmp_path: Path,
) -> None:
    """Slurm requeued the job into the same file; Lightning's "Restoring states from the
    checkpoint path at" (a load begun; no line says when it is done) proves the next attempt
    began, which trained to its end: judged on its own, it is healthy. The job's cancel after
    the step's is the first attempt's end, not the next one's first line."""
    t0 = calendar.timegm((2026, 11, 25, 9, 29, 0))
    lines = [
        *_json_steps(100, 700, 2, t0, 5466.2),
        "slurmstepd-n1: error: *** STEP 16.0 ON n1 CANCELLED AT 2026-11-25T09:30:13 DUE TO JOB"
        " REQUEUE ***",
        "slurmstepd-n1: error: *** JOB 16 ON n1 CANCELLED AT 2026-11-25T09:30:13 DUE TO JOB"
        " REQUEUE ***",
        "0: [NeMo I 2026-11-25 09:32:47 t30:187] Restoring states from the checkpoint path at"
        " /ck/step_600/model.pt",
        *_json_steps(700, 1500, 2, t0 + 230, 5466.2),
        "0: `Trainer.fit` stopped: `max_steps=1500` reached.",
    ]
    report = check_log(write(tmp_path, lines), nodes=("n1", "n2")).to_json()
    assert report["anomaly"] == "NONE", report["summary"]
    assert len(report["attempts"]) == 2
    assert lines[report["attempts"][1]["start_line"] - 1].startswith("0: [NeMo"), report


def test_a_sigusr1_that_ended_one_worker_of_two_is_no_schedulers(tmp_path: Path) -> None:
    """Slurm's --signal (and LSF) signal every process of the step: a SIGUSR1 that ended both
    workers is the scheduler's; one that ended rank 1 alone, while rank 0 lost its connection
    to it and was torn down, was aimed at that process from outside: cause unknown."""
    t0 = calendar.timegm((2026, 11, 25, 9, 10, 0))
    reset = (
        "[rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read"
        " error [127.0.0.1]:47258: Connection reset by peer."
    )

    def usr1(pid: int) -> str:
        return f"  traceback : Signal 10 (SIGUSR1) received by PID {pid}"

    endings = {
        "one": ([reset, *_elastic_gave_up(-10, 1, [usr1(28125)])], "UNKNOWN"),
        "both": (_elastic_gave_up(-10, 0, [usr1(28125), usr1(28126)]), "SCHEDULER"),
    }
    for name, (ending, want) in endings.items():
        report = _after_training(tmp_path, name, ending, t0)
        assert _verdict(report) == ("CRASH", want, True), (name, report["summary"])


def test_a_steps_cancel_alone_in_a_log_srun_writes_to_came_from_outside(tmp_path: Path) -> None:
    """srun's own lines are in the log ("Job step aborted"), so it would have reported a task
    that died here; none did, and nothing else failed: the step was cancelled from outside
    (the scheduler's). In a step's own output, without srun's lines, a task may have died
    unseen: cause unknown."""
    t0 = calendar.timegm((2026, 11, 25, 11, 20, 0))
    cancel = " 0: slurmstepd: error: *** STEP 1338.1 ON n1 CANCELLED AT 2026-11-25T11:21:02 ***"
    endings = {
        "batch": (
            ["srun: Job step aborted: Waiting up to 32 seconds for job step to finish.", cancel],
            "SCHEDULER",
        ),
        "step": ([cancel], "UNKNOWN"),
    }
    for name, (ending, want) in endings.items():
        report = _after_training(tmp_path, name, ending, t0)
        assert _verdict(report) == ("CRASH", want, True), (name, report["summary"])


def test_slurmstepds_oom_kill_count_after_a_cancel_is_no_consequence_of_it(
    tmp_path: Path,
) -> None:
    """A job cancelled without a reason (an operator's scancel of a job that had stopped
    making progress), then slurmstepd's count of the step's OOM kills, printed as the step
    ends: the cgroup's kills came before the cancel (a cancel signals; it kills nothing by
    memory): the node's memory (NODE). Without the count, the cancel is the scheduler's."""
    t0 = calendar.timegm((2026, 11, 25, 11, 0, 0))
    cancel = "slurmstepd: error: *** JOB 5 ON n1 CANCELLED AT 2026-11-25T11:01:20 ***"
    oom = (
        "slurmstepd: error: Detected 4 oom_kill events in StepId=5.batch. Some of the step tasks"
        " have been OOM Killed."
    )
    for name, after, want in (("counted", [oom], "NODE"), ("uncounted", [], "SCHEDULER")):
        report = _after_training(tmp_path, name, [cancel, *after], t0)
        assert (report["anomaly"], report["attribution"]) == ("CRASH", want), report["summary"]


def test_a_throughput_an_epoch_reports_halved_for_minutes_is_a_straggler(tmp_path: Path) -> None:
    """MLPerf RNN-T's DLLogger reports once an epoch ("epoch 28 | avg train utts/s 4755 |
    took 58.47 s"): its throughput halved for four epochs (four minutes) is a persistent drop,
    though six such reports would take six; halved for two epochs, it recovered."""

    def epochs(rates: list[float]) -> list[str]:
        lines, t = [], calendar.timegm((2023, 5, 19, 2, 23, 0))
        for n, rate in enumerate(rates, 1):
            took = 278000 / rate
            t += took
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))
            lines.append(
                f"DLL {stamp}.184974 - epoch {n:4d} | avg train utts/s {rate:5.0f} | took"
                f" {took:.2f} s"
            )
        return lines

    for slow, want in ((4, "STRAGGLER"), (2, "NONE")):
        rates = [9620.0] * 27 + [4760.0] * slow + [9620.0] * 10
        report = check_log(write(tmp_path, epochs(rates))).to_json()
        assert report["anomaly"] == want, (slow, report["summary"])


def _ends_as(
    tmp_path: Path, t0: int, endings: dict[str, tuple[list[str], tuple[str, str, bool]]]
) -> None:
    """Each of `endings` (its lines, then the verdict check-log must give) after training."""
    for name, (ending, want) in endings.items():
        report = _after_training(tmp_path, name, ending, t0)
        assert _verdict(report) == want, (name, report["summary"])


def test_a_ray_workers_sigterm_save_after_a_steps_cancel_is_a_preemption(
    tmp_path: Path,
) -> None:
    """Ray's actor tag before each line ("(RayTrainWorker pid=688, ip=...) ") hides nothing: the
    workers' handler says the step's reasonless cancel was a stop from outside ("Received
    SIGTERM ...: saving checkpoint before shutdown", "... saved; exiting for preemption"),
    though those lines are checkpoint saves too: the scheduler's. Their own exception is
    read behind the tag as well."""
    t0 = calendar.timegm((2026, 11, 25, 11, 30, 0))
    tag = "(RayTrainWorker pid=688, ip=127.0.0.1) "
    endings = {
        "preempted": (
            [
                "0: slurmstepd-n3: error: *** STEP 8.0 ON n3 CANCELLED AT 2026-11-25T11:34:55 ***",
                f"0: {tag}Received SIGTERM on rank 0: saving checkpoint before shutdown",
                f"0: {tag}Checkpoint for step 2568 saved; exiting for preemption",
            ],
            ("CRASH", "SCHEDULER", True),
        ),
        "bug": (
            [f"0: {tag}[rank0]: KeyError: 'labels'"],
            ("CRASH", "APPLICATION", False),
        ),
    }
    _ends_as(tmp_path, t0, endings)


def test_hydras_error_line_alone_is_a_crash_whose_cause_the_log_does_not_show(
    tmp_path: Path,
) -> None:
    """Hydra's "Error executing job with overrides: [...]" says the job's function raised; the
    exception's own report, when it follows, says why (a KeyError: the program's). Alone, the
    job died of a cause the log does not show. So does an excepthook's logged "Uncaught
    OLMoThreadError: generator thread data thread 3 failed": a thread failed, not saying why."""
    t0 = calendar.timegm((2026, 11, 25, 5, 0, 0))
    hydra = "[2025-10-31 05:07:11,062][__main__][ERROR] - Error executing job with overrides: []"
    endings = {
        "alone": ([hydra], ("CRASH", "UNKNOWN", True)),
        "explained": (
            [hydra, "Traceback (most recent call last):", '  File "train.py", line 9, in main',
             "KeyError: 'labels'"],
            ("CRASH", "APPLICATION", False),
        ),
        "uncaught": (
            ["[2024-04-18 19:10:41] CRITICAL [olmo.util:158, rank=0] Uncaught OLMoThreadError:"
             " generator thread data thread 3 failed"],
            ("CRASH", "UNKNOWN", True),
        ),
    }  # fmt: skip
    _ends_as(tmp_path, t0, endings)


def test_a_data_servers_own_failure_is_the_remote_stores_and_passes(tmp_path: Path) -> None:
    """A dataset streamed from a hub: the server answered "500 Server Error" (it was reached
    and failed to serve the shard): the remote store's fault, transient; a requeue reads it
    again. A 404 is the job's own request, wrong every time."""
    t0 = calendar.timegm((2026, 11, 25, 6, 0, 0))
    error = (
        "huggingface_hub.utils._errors.HfHubHTTPError: {} for url: "
        "https://huggingface.co/datasets/x/resolve/main/train-00017.parquet"
    )
    endings = {
        "500": (
            [error.format("500 Server Error: Internal Server Error")],
            ("CRASH", "STORAGE", True),
        ),
        "404": ([error.format("404 Client Error: Not Found")], ("CRASH", "APPLICATION", False)),
    }
    _ends_as(tmp_path, t0, endings)


def test_a_program_that_had_died_before_the_time_limit_died_of_its_own_error(
    tmp_path: Path,
) -> None:
    """A traceback that ended the program, then nothing until Slurm's time limit (the job sat
    on: other ranks waiting, the script not done): the program's error is the cause, and a
    requeue fails the same way. The limit alone is the scheduler's; conda's complaint about
    the job script's `conda activate` is no death of the program."""
    t0 = calendar.timegm((2026, 11, 25, 7, 0, 0))
    limit = (
        "slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT 2026-11-25T07:00:40 DUE TO TIME LIMIT ***"
    )
    trace = ["Traceback (most recent call last):", '  File "train.py", line 29, in main',
             "AttributeError: ckpt_dir"]  # fmt: skip
    conda = (
        "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'."
    )
    endings = {
        "died": ([*trace, limit], ("CRASH", "APPLICATION", False)),
        "limit": ([limit], ("CRASH", "SCHEDULER", True)),
        "conda": ([conda, limit], ("CRASH", "SCHEDULER", True)),
    }
    _ends_as(tmp_path, t0, endings)


def _fastai_epochs(first: int, last: int, t0: int) -> list[str]:
    """fastai's table: its header, then a row per epoch (10 s apart from `t0`)."""
    rows = [
        f"0: {n:<9d} {0.3 / (n + 1):.6f}    {0.2 / (n + 1):.6f}    0.950000  1.000000"
        f"        00:{10:02d}     "
        for n in range(first, last + 1)
    ]
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0))
    header = "0: epoch     train_loss  valid_loss  accuracy  top_k_accuracy  time    "
    return [f"[{stamp}] job 12 on n[1-2]", header, *rows]


def test_training_on_after_slurm_requeued_the_job_is_the_next_attempt(tmp_path: Path) -> None:
    """The job requeued itself from a SIGUSR1 handler (Slurm's "DUE TO JOB REQUEUE"), its
    output appended to the same file: fastai's table starts again and its epochs go on with no
    checkpoint load printed; the requeued job trained to its end, healthy. With nothing after
    the cancel, the attempt ended there: the scheduler's."""
    t0 = calendar.timegm((2026, 11, 25, 11, 36, 0))
    requeued = [
        "0: [rank 0] SIGUSR1 received: will save model and requeue",
        "0: checkpoint for step 2716 written; requeued job 12 (scontrol rc=0)",
        "slurmstepd-n1: error: *** JOB 12 ON n1 CANCELLED AT 2026-11-25T11:37:37 DUE TO JOB"
        " REQUEUE ***",
        "srun: Job step aborted: Waiting up to 17 seconds for job step to finish.",
    ]
    first = _fastai_epochs(0, 3, t0)
    again = _fastai_epochs(4, 9, t0 + 240)
    for name, lines, want in (
        ("resumed", [*first, *requeued, *again, "[2026-11-25T11:44:19Z] srun exited 0"], "NONE"),
        ("ended", [*first, *requeued], "CRASH"),
    ):
        (tmp_path / name).mkdir()
        report = check_log(write(tmp_path / name, lines)).to_json()
        assert report["anomaly"] == want, (name, report["summary"])


def test_a_straggler_the_watch_waited_on_until_its_next_save_stands(tmp_path: Path) -> None:
    """Throughput halved: a straggler, which ajr waits on until the job's next checkpoint save.
    The save came, so the job was requeued then: a later end (a time limit) is not what ajr
    acted on. Without the save, the end within the wait is."""
    t0 = calendar.timegm((2026, 11, 25, 8, 0, 0))
    slow = _json_steps(1000, 2500, 5, t0 + 45, 2400.0)
    save = (
        f"0: [{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(t0 + 130))}] successfully saved"
        " checkpoint at iteration 2500 to /ckpt"
    )
    limit = (
        "slurmstepd: error: *** JOB 9 ON n1 CANCELLED AT 2026-11-25T08:02:30 DUE TO TIME LIMIT ***"
    )
    for name, ending, want in (
        ("saved", [save, limit], "STRAGGLER"),
        ("unsaved", [limit], "CRASH"),
    ):
        report = _after_training(tmp_path, name, [*slow, *ending], t0)
        assert report["anomaly"] == want, (name, report["summary"])


def test_a_silence_after_the_store_connection_timed_out_is_the_networks(tmp_path: Path) -> None:
    """Training stops; a minute later the launcher's connection to the rendezvous store gets
    no answer ("waitForInput ... timed out after 60000ms"), then nothing: the job hangs on its
    network (the path between the hosts). A silence alone: cause unknown."""
    t0 = calendar.timegm((2026, 11, 25, 11, 57, 0))
    wait = (
        "[W1125 11:58:33.322571721 socket.cpp:494] [c10d] waitForInput: socket SocketImpl(fd=3,"
        " addr=[::1]:37365, remote=[::1]:64155) timed out after 60000ms"
    )
    for name, ending, want in (("timed out", [wait], "NETWORK"), ("silent", [], "UNKNOWN")):
        (tmp_path / name).mkdir()
        lines = [*_json_steps(100, 900, 5, t0, 5466.2), *ending]
        report = check_log(write(tmp_path / name, lines), silent_for=600).to_json()
        assert (report["anomaly"], report["attribution"]) == ("HANG", want), report["summary"]


def test_a_rendezvous_whose_hosts_never_reached_its_store_never_formed(tmp_path: Path) -> None:
    """Before training, one host's connects to the rendezvous store fail ("No route to host")
    until the rendezvous times out: the job never formed and no peer was waited for; the
    network's crash, not a hang. The same timeout after training began is still a hang."""
    t0 = calendar.timegm((2026, 11, 25, 14, 21, 0))
    connects = [
        "[W1125 14:21:47.594143377 socket.cpp:764] [c10d] The client socket has failed to connect"
        " to 185.85.0.0:11471 (errno: 113 - No route to host).",
        "[E1125 14:21:50.664224057 socket.cpp:818] [c10d] The client socket has failed to connect"
        " to any network address of (gpu-b32-01, 43687).",
    ]
    timeout = "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"
    for name, training, want in (("start-up", False, "CRASH"), ("training", True, "HANG")):
        (tmp_path / name).mkdir()
        steps = _json_steps(100, 900, 5, t0, 5466.2) if training else []
        report = check_log(write(tmp_path / name, [*steps, *connects, timeout])).to_json()
        assert (report["anomaly"], report["attribution"]) == (want, "NETWORK"), report["summary"]


def test_a_write_refused_after_the_job_had_saved_is_the_file_systems(tmp_path: Path) -> None:
    """The job saved a checkpoint, then the file system refused the next one ("[Errno 1]
    Operation not permitted": the directory made immutable under it): its permissions changed
    under a running job, STORAGE, and a requeue may pass. Refused before any save, the path
    is likely the job's own mistake: APPLICATION."""
    t0 = calendar.timegm((2026, 11, 25, 14, 6, 0))
    saved = [
        "2026-11-25 14:07:00.798\tvm:0\tolmo.train:1147\tINFO\tSaving unsharded checkpoint...",
        "2026-11-25 14:07:00.807\tvm:0\tolmo.train:1151\tINFO\tCheckpoint saved to /ckpt/step1000",
    ]
    refused = [
        "2026-11-25 14:07:08.029\tvm:0\tolmo.util:168\tCRITICAL\tUncaught PermissionError:"
        " [Errno 1] Operation not permitted: '/ckpt/step2000-unsharded'"
    ]
    endings = {
        "saved before": ([*saved, *refused], ("CRASH", "STORAGE", True)),
        "never saved": (refused, ("CRASH", "APPLICATION", False)),
    }
    _ends_as(tmp_path, t0, endings)
