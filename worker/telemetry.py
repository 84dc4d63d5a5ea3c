"""OpenTelemetry for a worker process: the SDK providers behind activities/telemetry.py.

- metrics: a Prometheus endpoint on `AJR_METRICS_HOST:AJR_METRICS_PORT` (`/metrics`), and/or
  OTLP/HTTP export to `AJR_OTLP_ENDPOINT` every `AJR_OTLP_EXPORT_INTERVAL` seconds;
- the Temporal SDK's own metrics on `AJR_TEMPORAL_METRICS_PORT`;
- traces: Temporal's TracingInterceptor (StartWorkflow/RunWorkflow/StartActivity/RunActivity
  spans) and ajr's own spans (each Slurm command, each requeue), exported over OTLP/HTTP.

Providers are process-global in OpenTelemetry: `setup` runs once per process, from `serve`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from temporalio.client import Interceptor
from temporalio.contrib.opentelemetry import TracingInterceptor
from temporalio.runtime import PrometheusConfig, Runtime, TelemetryConfig

from worker.config import Settings

log = logging.getLogger("ajr.telemetry")


@dataclass
class Telemetry:
    """What `setup` started; `shutdown` flushes exporters (a last export on SIGTERM)."""

    meter_provider: MeterProvider | None = None
    tracer_provider: TracerProvider | None = None
    interceptors: list[Interceptor] = field(default_factory=list)
    runtime: Runtime | None = None  # the Temporal SDK's, when its metrics are exported

    def shutdown(self) -> None:
        for provider in (self.tracer_provider, self.meter_provider):
            if provider is not None:
                try:
                    provider.shutdown()
                except Exception as exc:  # never let a dead collector block the exit
                    log.warning("telemetry shutdown: %s", exc)


def _otlp_url(endpoint: str, signal: str) -> str:
    return f"{endpoint.rstrip('/')}/v1/{signal}"


def setup(settings: Settings) -> Telemetry:
    """Install the providers the settings ask for; with none asked, everything stays a no-op."""
    result = Telemetry()
    resource = Resource.create(
        {
            "service.name": "ajr-worker",
            "ajr.cluster": settings.cluster_name,
            "ajr.task_queue": settings.task_queue,
        }
    )
    readers: list[MetricReader] = []
    if settings.metrics_port:
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
        from prometheus_client import start_http_server

        start_http_server(settings.metrics_port, addr=settings.metrics_host)
        readers.append(PrometheusMetricReader())
        log.info("metrics: http://%s:%s/metrics", settings.metrics_host, settings.metrics_port)
    if settings.otlp_endpoint:
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        readers.append(
            PeriodicExportingMetricReader(
                OTLPMetricExporter(endpoint=_otlp_url(settings.otlp_endpoint, "metrics")),
                export_interval_millis=settings.otlp_export_interval * 1000,
            )
        )
        result.tracer_provider = TracerProvider(resource=resource)
        result.tracer_provider.add_span_processor(
            BatchSpanProcessor(
                OTLPSpanExporter(endpoint=_otlp_url(settings.otlp_endpoint, "traces")),
                schedule_delay_millis=1000,
            )
        )
        trace.set_tracer_provider(result.tracer_provider)
        result.interceptors.append(TracingInterceptor())
        log.info("OpenTelemetry: traces and metrics to %s (OTLP/HTTP)", settings.otlp_endpoint)
    if settings.temporal_metrics_port:
        address = f"{settings.metrics_host}:{settings.temporal_metrics_port}"
        result.runtime = Runtime(
            telemetry=TelemetryConfig(
                metrics=PrometheusConfig(
                    bind_address=address,
                    counters_total_suffix=True,
                    unit_suffix=True,
                    durations_as_seconds=True,
                ),
                global_tags={"ajr_cluster": settings.cluster_name},
            )
        )
        log.info("Temporal SDK metrics: http://%s/metrics", address)
    if readers:
        result.meter_provider = MeterProvider(metric_readers=readers, resource=resource)
        metrics.set_meter_provider(result.meter_provider)
    return result
