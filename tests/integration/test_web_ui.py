"""What an operator sees in the Temporal Web UI, checked in a real browser: headless Debian
Chromium (selenium + chromedriver) against the dev stack's UI. A job ajr stopped and a job it
refused to manage are told apart on the list (AjrOutcome) and the job page tells the story
(summary, current details with the attempts table). Screenshots go to AJR_TEST_ARTIFACTS."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from temporalio.client import Client

from devstack import DevStack, StackConfig
from models.recovery import JobOutcome, Outcome
from tests.conftest import PORT_OFFSET, integration_unavailable, reap_leftovers

pytestmark = pytest.mark.integration

BASE = 28900 + PORT_OFFSET
CONFIG = StackConfig(
    ajr_state_dir=Path("/nonexistent"),  # replaced per test
    cluster_name="ajrwebtest",
    slurmctld_port=BASE + 17,
    slurmd_port=BASE + 18,
    node_port_base=BASE + 201,
    temporal_port=BASE + 33,
    temporal_ui_port=BASE + 34,
)

CRASHING = """#!/bin/bash
#SBATCH --comment='{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": 0}}'
DATETIME=`date +'date_%y-%m-%d_time_%H-%M-%S'`
srun -l -u --output="$(pwd)/%x_%j_$DATETIME.log" bash -c \\
  "echo 'iteration 1/9 | lm loss: 2.0'; sleep 2; \\
   echo 'Rank0: (1) segmentation fault: artificial segfault'; sleep 60"
"""
REFUSED = """#!/bin/bash
#SBATCH --comment='{"APS": {"auto_resume_mode": "requeue", "max_requeue_times": -1}}'
sleep 30
"""


def _browser():  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1600,1000"):
        options.add_argument(flag)
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def _page_text(driver) -> str:  # type: ignore[no-untyped-def]
    """The page's text and that of its frames (the UI renders markdown in sandboxed iframes)."""
    texts = [driver.find_element("tag name", "body").text]
    for frame in driver.find_elements("tag name", "iframe"):
        try:
            driver.switch_to.frame(frame)
            texts.append(driver.find_element("tag name", "body").text)
        except Exception:  # a frame that went away while reading
            pass
        finally:
            driver.switch_to.default_content()
    return "\n".join(texts)


def _frame_tables(driver) -> list[int]:  # type: ignore[no-untyped-def]
    counts = []
    for frame in driver.find_elements("tag name", "iframe"):
        driver.switch_to.frame(frame)
        counts.append(len(driver.find_elements("tag name", "table")))
        driver.switch_to.default_content()
    return counts


def _wait_for_text(driver, wanted: Callable[[str], bool], timeout: float) -> str:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    body = ""
    while time.monotonic() < deadline:
        body = _page_text(driver)
        if wanted(body):
            return body
        time.sleep(0.5)
    shot = Path(os.environ.get("AJR_TEST_ARTIFACTS") or "/tmp") / "web-ui-failed.png"
    driver.save_screenshot(str(shot))
    raise AssertionError(f"not shown within {timeout}s ({shot}); the page says:\n{body[:3000]}")


def _submit(stack: DevStack, workdir: Path, name: str, script: str) -> int:
    path = workdir / f"{name}.sh"
    path.write_text(script)
    result = subprocess.run(
        ["sbatch", "--parsable", "-J", name, "-p", CONFIG.partition, str(path)],
        cwd=workdir,
        env={**os.environ, **stack.env()},
        capture_output=True,
        text=True,
        check=True,
    )
    return int(result.stdout.strip().split(";")[0])


async def _outcome(client: Client, workflow: str, timeout: float) -> JobOutcome:
    deadline = time.monotonic() + timeout
    while True:
        try:
            handle = client.get_workflow_handle(workflow, result_type=JobOutcome)
            return await asyncio.wait_for(handle.result(), deadline - time.monotonic())
        except TimeoutError:
            raise AssertionError(f"{workflow}: no outcome within {timeout}s") from None
        except Exception:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def test_operator_tells_jobs_apart_in_the_web_ui(
    tmp_path: Path, slurm_cluster: object
) -> None:
    # slurm_cluster first: munged is then the session's, and `down` leaves it to the others.
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        integration_unavailable("Debian chromium + chromedriver", FileNotFoundError("chromium"))
    reap_leftovers(
        f"webui-{CONFIG.slurmctld_port}",
        tmp_path,
        lambda previous: DevStack(replace(CONFIG, ajr_state_dir=previous)).down(),
    )
    # Short: slurmd's unix socket paths under the state dir must stay within 108 bytes.
    state = Path(tempfile.mkdtemp(prefix="ajrweb", dir="/tmp"))
    stack = DevStack(replace(CONFIG, ajr_state_dir=state))
    workdir = tmp_path / "jobs"
    workdir.mkdir()
    artifacts = Path(os.environ.get("AJR_TEST_ARTIFACTS") or tmp_path / "screenshots")
    artifacts.mkdir(parents=True, exist_ok=True)
    driver = None
    try:
        try:
            stack.up(timeout=60)
        except Exception as exc:
            integration_unavailable("the dev stack", exc)
        crashing = _submit(stack, workdir, "train_gpt", CRASHING)
        refused = _submit(stack, workdir, "bad_comment", REFUSED)
        client = await Client.connect(stack.temporal.address)
        crashed_id = f"ajr-{CONFIG.cluster_name}-{crashing}"
        refused_id = f"ajr-{CONFIG.cluster_name}-{refused}"
        assert (await _outcome(client, crashed_id, 90)).outcome is Outcome.MAX_REQUEUES
        assert (await _outcome(client, refused_id, 60)).outcome is Outcome.NOT_MANAGED

        driver = _browser()
        ui = stack.temporal.ui_url
        # The list, filtered as the README says: the stopped job and the refused job.
        query = f"AjrCluster='{CONFIG.cluster_name}' AND AjrOutcome STARTS_WITH 'stopped_'"
        driver.get(f"{ui}/namespaces/default/workflows?query={urllib.parse.quote(query)}")
        listed = _wait_for_text(driver, lambda body: crashed_id in body, 60)
        driver.save_screenshot(str(artifacts / "web-ui-list-stopped.png"))
        assert refused_id not in listed  # a refused job is not among the stopped ones
        query = f"AjrCluster='{CONFIG.cluster_name}' AND AjrOutcome='not_managed'"
        driver.get(f"{ui}/namespaces/default/workflows?query={urllib.parse.quote(query)}")
        listed = _wait_for_text(driver, lambda body: refused_id in body, 60)
        assert crashed_id not in listed
        driver.save_screenshot(str(artifacts / "web-ui-list-not-managed.png"))

        # The job page: the summary names the job, the details tell its story as a table.
        driver.get(f"{ui}/namespaces/default/workflows/{crashed_id}")
        _wait_for_text(driver, lambda body: "stopped_max_requeues" in body, 60)
        driver.save_screenshot(str(artifacts / "web-ui-job.png"))
        # Summary and details are on the "User Metadata" tab of UI 2.x.
        driver.find_element("partial link text", "User Metadata").click()
        # (the details render after the summary: wait for both, then check what they say)
        page = _wait_for_text(
            driver,
            lambda body: (
                f"Slurm job {crashing} (train_gpt" in body
                and all(word in body for word in ("stopped_max_requeues", "CRASH", "cancel"))
            ),
            30,
        )
        driver.save_screenshot(str(artifacts / "web-ui-job-metadata.png"))
        assert "stopped_max_requeues" in page and "CRASH" in page and "cancel" in page
        # The details' attempts table is rendered as a table, not shown as raw markdown.
        assert "| attempt |" not in page and "|---|" not in page
        assert len(driver.find_elements("tag name", "table")) + sum(_frame_tables(driver)) >= 1
    finally:
        if driver is not None:
            driver.quit()
        stack.down()
        shutil.rmtree(state, ignore_errors=True)
