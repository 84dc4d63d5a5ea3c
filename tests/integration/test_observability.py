"""Observability through the real parts: Debian's `prometheus` scrapes a worker process that
recovers a job on the real cluster, and the metrics are read back through Prometheus' HTTP API;
the same worker exports its traces and metrics over OTLP/HTTP to a receiver this test runs, and
writes JSON log lines that carry the job and workflow ids.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from activities.slurm.control import SlurmControl
from activities.slurm.runner import SlurmRunner
from models.recovery import Outcome
from tests.integration.recovery_harness import (
    AjrUnderTest,
    make_settings,
    seed_script,
    temporal_address,
    worker_process,
)

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
ALERTS = REPO / "deploy" / "prometheus" / "ajr-alerts.yml"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class OtlpReceiver:
    """A minimal OTLP/HTTP collector: keeps the span names and metric names it is sent."""

    def __init__(self) -> None:
        self.spans: set[str] = set()
        self.metrics: set[str] = set()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/v1/traces":
                    traces = ExportTraceServiceRequest.FromString(body)
                    for resource in traces.resource_spans:
                        for scope in resource.scope_spans:
                            receiver.spans.update(span.name for span in scope.spans)
                elif self.path == "/v1/metrics":
                    metrics = ExportMetricsServiceRequest.FromString(body)
                    for resource_m in metrics.resource_metrics:
                        for scope_m in resource_m.scope_metrics:
                            receiver.metrics.update(metric.name for metric in scope_m.metrics)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def otlp() -> Iterator[OtlpReceiver]:
    receiver = OtlpReceiver()
    yield receiver
    receiver.close()


def start_prometheus(tmp_path: Path, target: str) -> tuple[subprocess.Popen[bytes], str]:
    prometheus = shutil.which("prometheus")
    if prometheus is None:
        pytest.fail("Debian's prometheus is not installed (deploy/local/install-system-deps.sh)")
    port = free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(
        json.dumps(  # JSON is YAML
            {
                "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                "rule_files": [str(ALERTS)],
                "scrape_configs": [
                    {"job_name": "ajr-worker", "static_configs": [{"targets": [target]}]}
                ],
            }
        )
    )
    log = (tmp_path / "prometheus.log").open("wb")
    process = subprocess.Popen(
        [
            prometheus,
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return process, f"http://127.0.0.1:{port}"


async def query(client: httpx.AsyncClient, api: str, expr: str) -> dict[str, float]:
    """Instant query: {label-set text: value}."""
    response = await client.get(f"{api}/api/v1/query", params={"query": expr})
    response.raise_for_status()
    data = response.json()["data"]["result"]
    return {json.dumps(item["metric"], sort_keys=True): float(item["value"][1]) for item in data}


async def eventually(
    client: httpx.AsyncClient,
    api: str,
    expr: str,
    timeout: float = 30,
    until: Callable[[dict[str, float]], bool] = bool,
) -> dict[str, float]:
    """The query's result once `until` holds for it (scrapes are 1 s apart)."""
    deadline = time.monotonic() + timeout
    result: dict[str, float] = {}
    while True:
        try:
            result = await query(client, api, expr)
        except httpx.HTTPError:
            result = {}
        if until(result):
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"Prometheus: {expr!r} last answered {result}")
        await asyncio.sleep(0.5)


async def test_prometheus_scrapes_a_worker_recovering_a_job(
    temporal_env, slurm_cluster, workdir: Path, sqlite_url, tmp_path: Path, otlp: OtlpReceiver
) -> None:
    metrics_port, sdk_port = free_port(), free_port()
    settings = make_settings(
        slurm_cluster.conf,
        temporal_address(temporal_env),
        sqlite_url,
        metrics_port=metrics_port,
        temporal_metrics_port=sdk_port,
        otlp_endpoint=otlp.url,
        otlp_export_interval=1.0,
        log_format="json",
    )
    worker_log = tmp_path / "worker.log"
    worker = worker_process(settings, worker_log)
    prometheus, api = start_prometheus(tmp_path, f"127.0.0.1:{metrics_port}")
    control = SlurmControl(SlurmRunner(env=settings.slurm_env()))
    ajr = AjrUnderTest(settings, temporal_env.client, slurm_cluster.env, workdir, control)
    try:
        async with httpx.AsyncClient(timeout=5) as client:
            # The worker is up and scraped before the job starts.
            up = await eventually(client, api, 'up{job="ajr-worker"} == 1')
            assert list(up.values()) == [1.0]
            job_id = ajr.submit(seed_script(), name="observed")
            outcome = await ajr.outcome(job_id, timeout=120)
            assert outcome.outcome is Outcome.MAX_REQUEUES, outcome

            # One crash requeued, then cancelled at the limit: both decisions counted once.
            decisions = await eventually(
                client,
                api,
                "sum by (action, observed, category) (ajr_decisions_total)",
                until=lambda result: len(result) >= 2,
            )
            by_action = {json.loads(key)["action"]: value for key, value in decisions.items()}
            assert by_action == {"requeue": 1.0, "cancel": 1.0}, decisions
            assert all(json.loads(key)["observed"] == "CRASH" for key in decisions), decisions
            assert all(json.loads(key)["category"] != "none" for key in decisions), decisions

            held = await eventually(client, api, "ajr_crash_to_held_seconds_count > 0")
            assert list(held.values()) == [1.0], held
            (latency,) = (await eventually(client, api, "ajr_crash_to_held_seconds_sum")).values()
            assert 0 < latency < 10, f"crash line -> held took {latency}s"
            print(f"ajr_crash_to_held_seconds: {latency:.3f}s (one sample)")
            requeues = await eventually(client, api, "ajr_requeue_duration_seconds_count")
            assert list(requeues.values()) == [1.0], requeues
            squeue = await eventually(
                client,
                api,
                'ajr_slurm_command_duration_seconds_count{program="squeue",result="ok"}',
            )
            assert sum(squeue.values()) > 5
            scontrol = await eventually(
                client,
                api,
                'sum by (command) (ajr_slurm_command_duration_seconds_count{program="scontrol"})',
            )
            commands = {json.loads(key)["command"] for key in scontrol}
            assert {"requeuehold", "release", "update"} <= commands, commands
            enrolled = await eventually(client, api, "ajr_jobs_enrolled_total")
            assert sum(enrolled.values()) == 1.0
            watched = await eventually(client, api, "ajr_jobs_watched")
            assert sum(watched.values()) == 0.0  # the job ended: nothing watched now
            answered = await eventually(client, api, "time() - ajr_slurm_last_answer_seconds")
            assert all(age < 10 for age in answered.values())
            assert not await query(client, api, "ajr_db_errors_total > 0")

            # The alert rules are loaded and evaluate cleanly against the real series.
            rules = (await client.get(f"{api}/api/v1/rules")).json()["data"]["groups"]
            loaded = {rule["name"]: rule for group in rules for rule in group["rules"]}
            assert {"AjrWorkerDown", "AjrSlurmUnreachable", "AjrRecoveryStuck"} <= set(loaded)
            assert all(rule["health"] != "err" for rule in loaded.values()), loaded
            firing = (await client.get(f"{api}/api/v1/alerts")).json()["data"]["alerts"]
            assert firing == [], firing

            # The Temporal SDK's own metrics, on their own endpoint.
            sdk = (await client.get(f"http://127.0.0.1:{sdk_port}/metrics")).text
            assert "temporal_activity_execution_latency_seconds" in sdk, sdk[:2000]
            assert 'ajr_cluster="' + settings.cluster_name + '"' in sdk

        # Traces and metrics also went out over OTLP: Temporal's spans and ajr's own.
        deadline = time.monotonic() + 15
        wanted_spans = {
            "RunWorkflow:JobRecovery",
            "RunActivity:watch_attempt",
            "RunActivity:requeue_job",
            "requeue_job",
            "slurm scontrol requeuehold",
            "slurm squeue",
        }
        while not wanted_spans <= otlp.spans and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        assert wanted_spans <= otlp.spans, sorted(otlp.spans)
        assert {"ajr.decisions", "ajr.crash_to_held", "ajr.slurm.command.duration"} <= otlp.metrics
    finally:
        worker.terminate()
        prometheus.terminate()
        worker.wait(30)
        prometheus.wait(30)
        ajr.cancel_all()

    # Every worker log line is one JSON object; the watcher's lines name the job and workflow.
    entries = [json.loads(line) for line in worker_log.read_text().splitlines() if line.strip()]
    job_loggers = {
        "worker.discovery",
        "activities.watch",
        "activities.actions",
        "temporalio.workflow",
    }
    job_lines = [e for e in entries if e["logger"] in job_loggers]
    assert {e["logger"] for e in job_lines} == job_loggers, entries
    for entry in job_lines:
        assert entry["job_id"] == job_id, entry
        assert entry["workflow_id"] == f"ajr-{settings.cluster_name}-{job_id}", entry
        assert "{'attempt'" not in entry["message"], entry  # the context is in fields, not text
