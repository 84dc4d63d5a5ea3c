"""Composition root: settings -> Slurm runner, shared poller, database, client -> worker."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta

from temporalio.client import Client, Interceptor
from temporalio.runtime import Runtime as TemporalRuntime
from temporalio.service import RPCError, TLSConfig
from temporalio.worker import Worker
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_delay, wait_exponential

from activities.actions import SlurmActions
from activities.database import migrate
from activities.database.engine import make_engine
from activities.database.quarantine import QuarantineLog
from activities.notify import NotifyActivities
from activities.quarantine import QuarantineActivities
from activities.records import RecordActivities
from activities.rollback import RollbackActivities
from activities.slurm.client import SlurmClient
from activities.slurm.control import SlurmControl
from activities.slurm.poller import ClusterPoller
from activities.slurm.runner import SlurmRunner
from activities.topology import TopologyActivities
from activities.watch import AnalyzerFactory, WatchActivities
from analysis.engine import LogEngine
from analysis.signatures import SignatureAnalyzer
from devstack.temporal import register_search_attributes
from models.payloads import DATA_CONVERTER
from models.recovery import RecoveryConfig
from worker import telemetry
from worker.config import Settings
from worker.discovery import Discoverer, DiscoveryPolicy
from workflows.job_recovery import JobRecoveryWorkflow

log = logging.getLogger("ajr.worker")


def recovery_config(settings: Settings) -> RecoveryConfig:
    return RecoveryConfig(
        system_max_requeues=settings.max_requeues,
        crashloop_threshold=settings.crashloop_threshold,
        vanish_confirm_s=settings.vanish_confirm,
        startup_timeout_s=settings.startup_timeout,
        release_timeout_s=settings.release_timeout,
        straggler_checkpoint_wait_s=settings.straggler_checkpoint_wait,
        suspect_window_s=settings.suspect_window,
        suspect_min_jobs=settings.suspect_min_jobs,
        terminal_exit_codes=list(settings.terminal_exit_codes),
        different_hardware_exit_codes=list(settings.different_hardware_exit_codes),
        log_dirs=list(settings.log_dirs),
        observe_only=settings.observe_only,
        notify=any(settings.notify_targets()),
        infrastructure_requeue_budget=settings.infrastructure_requeue_budget,
        application_requeue_budget=settings.application_requeue_budget,
        unknown_backoff_s=settings.unknown_backoff,
        unknown_backoff_max_s=settings.unknown_backoff_max,
        node_quarantine=settings.node_quarantine,
        quarantine_max_per_day=settings.node_quarantine_max_per_day,
        quarantine_holdoff_s=settings.node_quarantine_holdoff,
        checkpoint_rollback=settings.checkpoint_rollback,
        rollback_window_s=settings.rollback_window,
        failure_domain_exclusion=settings.failure_domain_exclusion == "on",
        failure_domain_min_nodes=settings.failure_domain_min_nodes,
        analysis=settings.engine_settings(),
    )


def discovery_policy(settings: Settings) -> DiscoveryPolicy:
    return DiscoveryPolicy(
        cluster=settings.cluster_name,
        config=recovery_config(settings),
        managed_partitions=frozenset(settings.managed_partitions),
        observe_only_partitions=frozenset(settings.observe_only_partitions),
    )


def tls_config(settings: Settings) -> TLSConfig | bool:
    """The Temporal client's TLS: False (plain), True (system CAs) or the files given."""
    if not settings.temporal_uses_tls:
        return False
    files = (
        settings.temporal_tls_ca_cert,
        settings.temporal_tls_client_cert,
        settings.temporal_tls_client_key,
    )
    if not any(files) and not settings.temporal_tls_server_name:
        return True
    ca, cert, key = (path.read_bytes() if path else None for path in files)
    return TLSConfig(
        server_root_ca_cert=ca,
        client_cert=cert,
        client_private_key=key,
        domain=settings.temporal_tls_server_name or None,
    )


async def connect(
    settings: Settings,
    interceptors: Sequence[Interceptor] = (),
    runtime: TemporalRuntime | None = None,
) -> Client:
    return await Client.connect(
        settings.temporal_address,
        namespace=settings.temporal_namespace,
        data_converter=DATA_CONVERTER,
        tls=tls_config(settings),
        api_key=settings.temporal_api_key.get_secret_value() if settings.temporal_api_key else None,
        interceptors=interceptors,
        runtime=runtime,
    )


async def connect_patiently(
    settings: Settings,
    interceptors: Sequence[Interceptor] = (),
    runtime: TemporalRuntime | None = None,
) -> Client:
    """`connect`, retried with back-off for `temporal_connect_timeout` seconds: a worker that
    starts while Temporal restarts waits for it instead of exiting into a restart loop."""
    retrying = AsyncRetrying(
        stop=stop_after_delay(settings.temporal_connect_timeout),
        wait=wait_exponential(multiplier=0.5, max=15),
        retry=retry_if_exception_type((RuntimeError, RPCError)),
        before_sleep=lambda state: log.warning(
            "Temporal at %s not reachable (try %d): %s",
            settings.temporal_address,
            state.attempt_number,
            state.outcome.exception() if state.outcome else "",
        ),
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            return await connect(settings, interceptors, runtime)
    raise AssertionError("unreachable: tenacity re-raises the last error")


def with_ajr_payloads(client: Client) -> Client:
    """The same connection, reading payloads as ajr's workflows need (models/payloads.py)."""
    config = client.config()
    config["data_converter"] = DATA_CONVERTER
    return Client(**config)


def slurm_runner(settings: Settings) -> SlurmRunner:
    return SlurmRunner(
        env=settings.slurm_env(),
        bin_dir=settings.slurm_bin_dir,
        timeout=settings.slurm_command_timeout,
        max_concurrent=settings.slurm_max_concurrent_commands,
    )


@dataclass
class Runtime:
    """Everything a running ajr worker owns."""

    worker: Worker
    poller: ClusterPoller
    discoverer: Discoverer
    tasks: list[asyncio.Task[None]] = field(default_factory=list)  # while running


ANALYZERS: dict[str, AnalyzerFactory] = {"basic": SignatureAnalyzer, "engine": LogEngine}


def build(
    settings: Settings,
    client: Client,
    *,
    analyzer_factory: AnalyzerFactory | None = None,
    discover: bool = True,
    slurm: SlurmClient | None = None,
    workflows: Sequence[type] = (JobRecoveryWorkflow,),
) -> Runtime:
    """The worker's parts. `slurm` and `workflows` are seams for tests (fault injection, an
    upgraded workflow); `ajr worker` uses slurmctld's commands and today's workflow."""
    client = with_ajr_payloads(client)
    runner = slurm_runner(settings)
    poller = ClusterPoller(runner, settings.slurm_poll_interval)
    control = slurm or SlurmControl(runner)
    analyzer_factory = analyzer_factory or ANALYZERS[settings.log_analyzer]
    watch = WatchActivities(
        poller, control, analyzer_factory, poll_interval=settings.log_poll_interval
    )
    actions = SlurmActions(control, poller)
    records_engine = make_engine(settings.database_url)
    records = RecordActivities(
        records_engine,
        restart_success_window_s=settings.restart_success_window,
    )
    webhook_url, slack_webhook = settings.notify_targets()
    notify = NotifyActivities(
        records_engine,
        webhook_url=webhook_url,
        slack_webhook=slack_webhook,
        timeout_s=settings.notify_timeout,
        rate_per_hour=settings.notify_rate_per_hour,
    )
    # Quarantine always goes to slurmctld (node state is no seam of the job fakes).
    quarantine = QuarantineActivities(SlurmControl(runner), QuarantineLog(records_engine))
    rollback = RollbackActivities(SlurmControl(runner))
    topology = TopologyActivities(SlurmControl(runner))
    worker = Worker(
        client,
        task_queue=settings.task_queue,
        workflows=list(workflows),
        activities=[
            watch.watch_attempt,
            actions.prepare_job,
            actions.requeue_job,
            actions.cancel_job,
            records.record_decision,
            records.find_suspects,
            notify.notify,
            quarantine.quarantine_node,
            rollback.write_rollback,
            topology.read_failure_domains,
        ],
        # Threads are created on demand; only the database activity is synchronous.
        activity_executor=ThreadPoolExecutor(
            max_workers=settings.max_concurrent_activities, thread_name_prefix="ajr-sync"
        ),
        max_concurrent_activities=settings.max_concurrent_activities,
        max_cached_workflows=settings.max_cached_workflows,
        graceful_shutdown_timeout=timedelta(seconds=5),
    )
    discoverer = Discoverer(
        poller,
        client,
        discovery_policy(settings),
        settings.task_queue,
        concurrency=settings.discovery_concurrency,
    )
    discoverer.enabled = discover
    return Runtime(worker=worker, poller=poller, discoverer=discoverer)


@contextlib.asynccontextmanager
async def running(runtime: Runtime) -> AsyncIterator[Runtime]:
    """Run the poller, discovery and the worker until the block exits."""
    runtime.poller.start()
    tasks = [asyncio.create_task(runtime.worker.run(), name="worker")]
    if runtime.discoverer.enabled:
        tasks.append(asyncio.create_task(runtime.discoverer.run(), name="discovery"))
    runtime.tasks = tasks
    try:
        yield runtime
    finally:
        await runtime.worker.shutdown()
        for task in tasks[1:]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await runtime.poller.stop()


def _check_schema(settings: Settings) -> None:
    """Say so when the schema is not this release's: decisions are kept in the workflow's
    history until `ajr db upgrade` has run (the database may also just be down now)."""
    try:
        engine = make_engine(settings.database_url)
        now, newest = migrate.current(engine), migrate.head()
        engine.dispose()
    except Exception as exc:
        log.warning("database not reachable at start (%s): records are retried", exc)
        return
    if now != newest:
        log.error(
            "database schema is at %r, this release needs %r: run `ajr db upgrade`",
            now or "(none)",
            newest,
        )


async def serve(
    settings: Settings,
    *,
    slurm: SlurmClient | None = None,
    workflows: Sequence[type] = (JobRecoveryWorkflow,),
) -> int:
    """`ajr worker`: run until SIGTERM or SIGINT (`slurm`, `workflows`: see `build`)."""
    observability = telemetry.setup(settings)
    try:
        client = await connect_patiently(
            settings, observability.interceptors, observability.runtime
        )
    except Exception as exc:
        log.error("cannot connect to Temporal at %s: %s", settings.temporal_address, exc)
        observability.shutdown()
        return 2
    try:
        return await _serve(settings, client, slurm=slurm, workflows=workflows)
    finally:
        observability.shutdown()


async def _serve(
    settings: Settings,
    client: Client,
    *,
    slurm: SlurmClient | None,
    workflows: Sequence[type],
) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    runtime = build(settings, client, slurm=slurm, workflows=workflows)
    log.info(
        "ajr worker: cluster %s, task queue %s, Temporal %s, database %s",
        settings.cluster_name,
        settings.task_queue,
        settings.temporal_address,
        settings.database_url.split("@")[-1],
    )
    _check_schema(settings)
    try:  # a server an older release registered lacks the newer attributes (idempotent)
        await register_search_attributes(client, namespace=settings.temporal_namespace)
    except Exception as exc:
        log.warning("search attributes not registered (%s): register them as an operator", exc)
    async with running(runtime):
        stopping = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait(
            [stopping, *runtime.tasks], return_when=asyncio.FIRST_COMPLETED
        )
        if stopping not in done:  # a part of the worker died: exit so a supervisor restarts it
            stopping.cancel()
            for task in done:
                log.error("ajr %s ended unexpectedly: %r", task.get_name(), task.exception())
            return 1
    log.info("ajr worker stopped")
    return 0
