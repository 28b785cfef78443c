"""The OpenTelemetry GenAI semantic conventions' names that the clients' spans
and metrics use, spelled once here (the conventions' registry, `gen_ai.*`).

Pure data: nothing here imports OpenTelemetry, which is optional (the
`telemetry` extra). `PROVIDER_NAMES` maps an endpoint's provider (an
adapter's name) to the conventions' well-known `gen_ai.provider.name`; an
adapter the conventions do not know keeps its own name.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CACHE_CREATION_INPUT_TOKENS",
    "CACHE_READ_INPUT_TOKENS",
    "CAPTURE_CONTENT_VARIABLE",
    "CHAT",
    "DURATION_BUCKETS",
    "ERROR_TYPE",
    "INPUT_MESSAGES",
    "INPUT_TOKENS",
    "MAX_TOKENS",
    "OPERATION_DURATION",
    "OPERATION_NAME",
    "OUTPUT_MESSAGES",
    "OUTPUT_TOKENS",
    "OUTPUT_TYPE",
    "PROVIDER_NAME",
    "PROVIDER_NAMES",
    "REASONING_OUTPUT_TOKENS",
    "REQUEST_MODEL",
    "REQUEST_STREAM",
    "RESPONSE_FINISH_REASONS",
    "RESPONSE_ID",
    "RESPONSE_MODEL",
    "SEED",
    "SPAN_CONTENT",
    "STOP_SEQUENCES",
    "SYSTEM_INSTRUCTIONS",
    "TEMPERATURE",
    "TIME_TO_FIRST_CHUNK",
    "TIME_TO_FIRST_CHUNK_METRIC",
    "TOKEN_BUCKETS",
    "TOKEN_TYPE",
    "TOKEN_USAGE",
    "TOP_K",
    "TOP_P",
    "provider_name",
]

# The operation: a chat call (`chat {gen_ai.request.model}` names its span).
OPERATION_NAME: Final = "gen_ai.operation.name"
CHAT: Final = "chat"
PROVIDER_NAME: Final = "gen_ai.provider.name"

# What the request asked.
REQUEST_MODEL: Final = "gen_ai.request.model"
MAX_TOKENS: Final = "gen_ai.request.max_tokens"
TEMPERATURE: Final = "gen_ai.request.temperature"
TOP_P: Final = "gen_ai.request.top_p"
TOP_K: Final = "gen_ai.request.top_k"
STOP_SEQUENCES: Final = "gen_ai.request.stop_sequences"
SEED: Final = "gen_ai.request.seed"
REQUEST_STREAM: Final = "gen_ai.request.stream"
OUTPUT_TYPE: Final = "gen_ai.output.type"

# What the answer said.
RESPONSE_MODEL: Final = "gen_ai.response.model"
RESPONSE_ID: Final = "gen_ai.response.id"
RESPONSE_FINISH_REASONS: Final = "gen_ai.response.finish_reasons"
TIME_TO_FIRST_CHUNK: Final = "gen_ai.response.time_to_first_chunk"
# Every input token, cached or not (the cache counts are parts of it).
INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
CACHE_READ_INPUT_TOKENS: Final = "gen_ai.usage.cache_read.input_tokens"
CACHE_CREATION_INPUT_TOKENS: Final = "gen_ai.usage.cache_creation.input_tokens"
REASONING_OUTPUT_TOKENS: Final = "gen_ai.usage.reasoning.output_tokens"
ERROR_TYPE: Final = "error.type"

# Content, opt-in: JSON text in the conventions' parts form (`interlingua._genai_messages`).
SYSTEM_INSTRUCTIONS: Final = "gen_ai.system_instructions"
INPUT_MESSAGES: Final = "gen_ai.input.messages"
OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
CAPTURE_CONTENT_VARIABLE: Final = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
# The variable's values that put content on the span (`true`: the older form).
SPAN_CONTENT: Final = frozenset({"span_only", "span_and_event", "true"})

# Metrics, with the bucket boundaries the conventions advise.
TOKEN_USAGE: Final = "gen_ai.client.token.usage"
TOKEN_TYPE: Final = "gen_ai.token.type"
OPERATION_DURATION: Final = "gen_ai.client.operation.duration"
TIME_TO_FIRST_CHUNK_METRIC: Final = "gen_ai.client.operation.time_to_first_chunk"
TOKEN_BUCKETS: Final = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304,
                        16777216, 67108864)  # fmt: skip
# Seconds: for the duration and the time to the first chunk alike.
DURATION_BUCKETS: Final = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24,
                           20.48, 40.96, 81.92)  # fmt: skip

# An adapter's name -> the conventions' well-known provider name.
PROVIDER_NAMES: Final = {
    "anthropic": "anthropic",
    "anthropic-bedrock": "aws.bedrock",
    "anthropic-vertex": "gcp.vertex_ai",
    "bedrock": "aws.bedrock",
    "deepseek": "deepseek",
    "google": "gcp.gemini",
    "groq": "groq",
    "mistral": "mistral_ai",
    "openai": "openai",
    "openai-responses": "openai",
    "perplexity": "perplexity",
    "xai": "x_ai",
}


def provider_name(provider: str) -> str:
    """`gen_ai.provider.name` for the adapter named `provider`."""
    return PROVIDER_NAMES.get(provider, provider)
