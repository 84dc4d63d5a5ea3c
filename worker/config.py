"""The one configuration object of ajr: every setting, its default, read from `AJR_*` variables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from models.checkpoints import DEFAULT_CHECKPOINT_PATTERNS
from models.engine_settings import EngineSettings

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _split_list(value: object) -> object:
    """Accept `a,b,c` as well as a JSON list, so settings are easy to write in a shell."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            import json

            return json.loads(text)
        return [item.strip() for item in text.split(",") if item.strip()]
    return value


def _secret(value: SecretStr | None, path: Path | None) -> str:
    if value is not None and value.get_secret_value().strip():
        return value.get_secret_value().strip()
    if path is not None:
        lines = path.read_text(encoding="utf-8").splitlines()
        return lines[0].strip() if lines else ""
    return ""


StrList = Annotated[list[str], NoDecode]
IntList = Annotated[list[int], NoDecode]


class Settings(BaseSettings):
    """ajr's settings. Each field is documented in the README's configuration table."""

    model_config = SettingsConfigDict(env_prefix="AJR_", extra="ignore", validate_default=True)

    # Where ajr keeps its own state (SQLite file, local stack) when nothing else is said.
    state_dir: Path = PROJECT_ROOT / ".ajr"

    # Temporal
    temporal_address: str = "127.0.0.1:7233"
    temporal_namespace: str = "default"
    task_queue: str = "ajr"
    # TLS to the Temporal frontend: on when `temporal_tls` is set or any file below is given
    # (server CA; client certificate and key for mTLS; the name the server's certificate bears).
    temporal_tls: bool = False
    temporal_tls_ca_cert: Path | None = None
    temporal_tls_client_cert: Path | None = None
    temporal_tls_client_key: Path | None = None
    temporal_tls_server_name: str = ""
    # Temporal Cloud / a server with API-key auth: sent as a bearer token (implies TLS).
    temporal_api_key: SecretStr | None = None
    # At start the Temporal frontend may be restarting too (a deploy, a host reboot): keep
    # trying to connect this long, backing off, before the worker exits (code 2).
    temporal_connect_timeout: float = Field(default=300.0, ge=0)

    # Observability: Prometheus endpoint (0: off), OTLP/HTTP export of traces and metrics
    # (e.g. http://otel-collector:4318; empty: off), and the log line format.
    metrics_port: int = Field(default=0, ge=0, lt=65536)
    metrics_host: str = "127.0.0.1"
    # The Temporal SDK's own metrics (task slots, poll and schedule-to-start latencies, ...) on
    # their own Prometheus endpoint (0: off).
    temporal_metrics_port: int = Field(default=0, ge=0, lt=65536)
    otlp_endpoint: str = ""
    otlp_export_interval: float = Field(default=30.0, gt=0)
    log_format: Literal["text", "json"] = "text"

    # Database: SQLite file by default; `mysql+pymysql://user:pw@host:3306/ajr` for MySQL.
    database_url: str = ""
    # KPIs: a restart succeeded once its first checkpoint save came within this many seconds.
    restart_success_window: float = Field(default=3600.0, gt=0)

    # Notifications (secrets: from the variable, or from the file named by the *_FILE one;
    # never logged). Unset: no notification is sent.
    notify_webhook_url: SecretStr | None = None
    notify_webhook_url_file: Path | None = None
    notify_slack_webhook: SecretStr | None = None
    notify_slack_webhook_file: Path | None = None
    notify_timeout: float = Field(default=5.0, gt=0, le=60)
    # At most this many notifications per job per hour (the rest are counted, not sent).
    notify_rate_per_hour: int = Field(default=20, ge=1)

    # Slurm access
    cluster_name: str = "local"
    slurm_conf: Path | None = None
    slurm_bin_dir: Path | None = None
    slurm_command_timeout: float = Field(default=30.0, gt=0)
    # At most this many Slurm commands of the worker's activities run at once (the rest wait
    # their turn, up to the command timeout); the shared poller's `squeue` is not counted.
    slurm_max_concurrent_commands: int = Field(default=8, ge=1, le=256)

    # Polling (seconds)
    slurm_poll_interval: float = Field(default=2.0, gt=0, le=60)
    log_poll_interval: float = Field(default=0.5, gt=0, le=30)

    # Enrolment
    managed_partitions: StrList = []
    observe_only: bool = False
    observe_only_partitions: StrList = []
    log_dirs: StrList = []

    # Which analyzer reads logs: "basic" (signature set) or "engine" (log intelligence).
    log_analyzer: Literal["basic", "engine"] = "engine"

    # Recovery limits and watchdogs
    max_requeues: int = Field(default=30, ge=0)
    crashloop_threshold: int = Field(default=3, ge=1)
    hang_timeout: float = Field(default=120.0, gt=0)
    # The engine's phase-aware allowances: before the first iteration report, and while a
    # checkpoint save is in progress (a save can take minutes with no output).
    setup_hang_timeout: float = Field(default=900.0, gt=0)
    checkpoint_hang_timeout: float = Field(default=600.0, gt=0)
    # How long an ambiguous crash line (a Python exception, a NCCL error) waits for training to
    # go on before it counts; unambiguous ones and exited processes are acted on at once.
    crash_confirm: float = Field(default=30.0, ge=0)
    # ... unless this many newer progress reports arrive meanwhile (training went on).
    crash_confirm_progress: int = Field(default=2, ge=1)
    # A SIGTERM, preemption or time-limit notice training went on after still ended the attempt
    # if the attempt ends within this many seconds of it (the grace period is spent saving).
    stop_grace: float = Field(default=900.0, ge=0)
    # Silence allowed while an evaluation runs ("Running Evaluation", "Validating", ...).
    eval_hang_timeout: float = Field(default=900.0, gt=0)
    # A job slower than the hang timeout may be silent this many times its iteration time.
    cadence_factor: float = Field(default=5.0, gt=0)
    # Consecutive NaN/inf losses that are a crash.
    nan_reports: int = Field(default=3, ge=1)
    # Stragglers: NVRx's relative performance score below which a rank is slow, and a sustained
    # throughput drop (tokens/s, samples/s, TFLOP/s, MFU or iteration time) against the job's
    # own baseline: `drop` below the median of `window` reports after `warmup`, `sustained`
    # reports in a row; `quiet` reports after a save or an evaluation are ignored.
    straggler_score: float = Field(default=0.7, gt=0, le=1)
    # Per-rank timing lines or tables: reports in a row in which one rank's own work is slower
    # than the others' by 1/straggler_score that make it a straggler.
    straggler_rank_reports: int = Field(default=3, ge=1)
    throughput_warmup: int = Field(default=3, ge=0)
    throughput_window: int = Field(default=5, ge=1)
    throughput_drop: float = Field(default=0.2, gt=0, lt=1)
    throughput_sustained: int = Field(default=10, ge=1)
    throughput_deep_drop: float = Field(default=0.5, gt=0, lt=1)
    throughput_deep_sustained: int = Field(default=6, ge=1)
    throughput_deep_span_s: float = Field(default=180.0, gt=0)
    throughput_quiet: int = Field(default=1, ge=0)
    # slurmctld must answer "Invalid job id" for a job this long before ajr stops managing it.
    vanish_confirm: float = Field(default=60.0, ge=0)
    startup_timeout: float = Field(default=1800.0, gt=0)
    release_timeout: float = Field(default=60.0, gt=0)
    straggler_checkpoint_wait: float = Field(default=1800.0, gt=0)
    # A node named in failures of this many different jobs within the window is suspect.
    suspect_window: float = Field(default=86400.0, gt=0)
    suspect_min_jobs: int = Field(default=2, ge=2)
    # Recovery policy v2: requeue budgets by cause (infrastructure: GPU, NODE, NETWORK, STORAGE,
    # SCHEDULER; application: the job's own code), within max_requeues and the job's own limit;
    # unknown failures meet those limits only, and a repeat's next attempt waits, doubling.
    infrastructure_requeue_budget: int = Field(default=20, ge=0)
    application_requeue_budget: int = Field(default=5, ge=0)
    unknown_backoff: float = Field(default=30.0, ge=0)
    unknown_backoff_max: float = Field(default=600.0, ge=0)
    # Node quarantine: off | suggest (record and show, change nothing) | drain (scontrol
    # update State=DRAIN Reason="ajr: ..."), at most max_per_day nodes a day by ajr itself, and
    # a node returned to service is not drained again by ajr within the hold-off.
    node_quarantine: Literal["off", "suggest", "drain"] = "suggest"
    node_quarantine_max_per_day: int = Field(default=2, ge=0)
    node_quarantine_holdoff: float = Field(default=86400.0, ge=0)
    # `ajr node resume` runs this argument list first ("{node}" replaced by the node's name);
    # the node returns to service only if it exits 0. Empty: no check.
    node_healthcheck: StrList = []
    node_healthcheck_timeout: float = Field(default=600.0, gt=0)
    # Checkpoint rollback: the same failure twice within this many seconds of loading the same
    # checkpoint -> the next attempt is told (ajr_rollback_<job>.json) to load the one before.
    checkpoint_rollback: bool = True
    rollback_window: float = Field(default=1800.0, gt=0)
    # Failure domains: once network failures of a job implicated this many distinct nodes of
    # one leaf switch (`scontrol show topology`, topology/tree), in two failures or more, its
    # next attempt excludes the whole switch, if the job still fits. On: it only narrows that
    # job's own placement (no drain), and is inert without a topology.
    failure_domain_exclusion: Literal["off", "on"] = "on"
    failure_domain_min_nodes: int = Field(default=2, ge=2)
    terminal_exit_codes: IntList = [93, 17]
    different_hardware_exit_codes: IntList = [16]
    checkpoint_patterns: StrList = list(DEFAULT_CHECKPOINT_PATTERNS)
    extra_checkpoint_patterns: StrList = []
    # Site forms of a save that has begun (open the checkpoint phase; no save is counted).
    checkpoint_start_patterns: StrList = []

    # Local dev stack (`ajr dev up`, files in state_dir / "dev"): cluster size and the ports it
    # binds on 127.0.0.1. Change them to run beside another Slurm or Temporal on this host.
    dev_nodes: int = Field(default=4, ge=1, le=64)
    dev_partition: str = "gpu"
    dev_slurmctld_port: int = Field(default=6817, gt=0, lt=65536)
    dev_slurmd_port: int = Field(default=6818, gt=0, lt=65536)
    dev_node_port_base: int = Field(default=17001, gt=0, lt=65536)
    dev_temporal_port: int = Field(default=7233, gt=0, lt=65536)
    dev_temporal_ui_port: int = Field(default=8233, gt=0, lt=65536)

    # Worker capacity: each managed job holds one activity slot while it is watched.
    max_concurrent_activities: int = Field(default=2000, ge=10)
    max_cached_workflows: int = Field(default=2000, ge=10)
    # Workflow starts a discovery round has in flight at once (new jobs are started in
    # parallel, up to this many round trips to Temporal at a time).
    discovery_concurrency: int = Field(default=16, ge=1, le=256)

    _split = field_validator(
        "managed_partitions",
        "observe_only_partitions",
        "log_dirs",
        "terminal_exit_codes",
        "different_hardware_exit_codes",
        "checkpoint_patterns",
        "extra_checkpoint_patterns",
        "checkpoint_start_patterns",
        "node_healthcheck",
        mode="before",
    )(_split_list)

    @field_validator("cluster_name")
    @classmethod
    def _cluster_name_is_id_safe(cls, value: str) -> str:
        import re

        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,62}", value):
            raise ValueError("cluster_name must be letters, digits, '.', '_' or '-'")
        return value

    @field_validator(
        "checkpoint_patterns", "extra_checkpoint_patterns", "checkpoint_start_patterns"
    )
    @classmethod
    def _patterns_compile(cls, value: list[str]) -> list[str]:
        import re

        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"bad checkpoint pattern {pattern!r}: {exc}") from exc
        return value

    @model_validator(mode="after")
    def _default_database(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite:///{self.state_dir / 'ajr.db'}"
        return self

    def notify_targets(self) -> tuple[str, str]:
        """(webhook URL, Slack webhook URL), each "" when unset; a *_FILE setting's file is
        read (its first line) when the variable itself is unset."""
        return (
            _secret(self.notify_webhook_url, self.notify_webhook_url_file),
            _secret(self.notify_slack_webhook, self.notify_slack_webhook_file),
        )

    @model_validator(mode="after")
    def _tls_files_pair(self) -> Settings:
        if bool(self.temporal_tls_client_cert) != bool(self.temporal_tls_client_key):
            raise ValueError(
                "AJR_TEMPORAL_TLS_CLIENT_CERT and AJR_TEMPORAL_TLS_CLIENT_KEY go together (mTLS)"
            )
        return self

    @property
    def temporal_uses_tls(self) -> bool:
        return bool(
            self.temporal_tls
            or self.temporal_tls_ca_cert
            or self.temporal_tls_client_cert
            or self.temporal_api_key
        )

    @property
    def all_checkpoint_patterns(self) -> list[str]:
        return [*self.checkpoint_patterns, *self.extra_checkpoint_patterns]

    def engine_settings(self) -> EngineSettings:
        """The log engine's settings: what the watcher and `ajr check-log` both run with."""
        return EngineSettings(
            hang_timeout_s=self.hang_timeout,
            setup_timeout_s=self.setup_hang_timeout,
            checkpoint_timeout_s=self.checkpoint_hang_timeout,
            eval_timeout_s=self.eval_hang_timeout,
            cadence_factor=self.cadence_factor,
            crash_confirm_s=self.crash_confirm,
            stop_grace_s=self.stop_grace,
            confirm_progress=self.crash_confirm_progress,
            nan_reports=self.nan_reports,
            straggler_score=self.straggler_score,
            straggler_rank_reports=self.straggler_rank_reports,
            throughput_warmup=self.throughput_warmup,
            throughput_window=self.throughput_window,
            throughput_drop=self.throughput_drop,
            throughput_sustained=self.throughput_sustained,
            throughput_deep_drop=self.throughput_deep_drop,
            throughput_deep_sustained=self.throughput_deep_sustained,
            throughput_deep_span_s=self.throughput_deep_span_s,
            throughput_quiet=self.throughput_quiet,
            checkpoint_patterns=tuple(self.all_checkpoint_patterns),
            checkpoint_start_patterns=tuple(self.checkpoint_start_patterns),
        )

    def slurm_env(self) -> dict[str, str]:
        """Environment additions for every Slurm command ajr runs."""
        return {"SLURM_CONF": str(self.slurm_conf)} if self.slurm_conf else {}
