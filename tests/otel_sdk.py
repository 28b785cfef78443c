"""The OpenTelemetry SDK of the test run: one tracer and meter provider for the
process (OpenTelemetry's globals are set once), the finished spans in
`EXPORTER` and the metrics in `READER`, read by the telemetry tests."""

from __future__ import annotations

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

EXPORTER = InMemorySpanExporter()
READER = InMemoryMetricReader()


_EXPORTING: list[TracerProvider] = []  # the provider `EXPORTER` was added to


def installed() -> InMemorySpanExporter:
    """The providers set (once; `EXPORTER` added to a tracer provider set before,
    a README example's), the spans of earlier tests cleared."""
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(TracerProvider())
    provider = trace.get_tracer_provider()
    assert isinstance(provider, TracerProvider)
    if provider not in _EXPORTING:
        provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
        _EXPORTING.append(provider)
    if not isinstance(metrics.get_meter_provider(), MeterProvider):
        metrics.set_meter_provider(MeterProvider(metric_readers=[READER]))
    EXPORTER.clear()
    return EXPORTER
