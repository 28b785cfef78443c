"""The level of a loss reported by a field's name, in one place.

Most report calls know what they leave out and give its level themselves
(`report.dropped(path, reason, "setting")`). Where one call reports many kinds
of thing by name (another provider's settings and wire fields, the fields of a
response format or a file), its level is read here:

- `hint`: what changes neither what the model reads nor how it answers:
  cache hints, storage, metadata, ids and end-user ids, service tier,
  transport and streaming options, context the provider keeps within the
  window (a tool loaded on demand: elsewhere the model reads it at once),
  what an answer includes beside its text.
- `setting`: what changes how it answers: limits, sampling, reasoning,
  tool choice, safety thresholds, the number of answers.
- `content`: everything else. A field this table does not know may carry what
  the model reads or must produce (Anthropic's `mcp_servers` are tools,
  Gemini's `cachedContent` is a prompt, the Responses API's
  `previous_response_id` a conversation), so an unknown name counts as
  content: `strict="content"` then refuses a loss no one has classified
  rather than letting it by.

A field sent empty or at its default says nothing and is not reported
(`says_nothing`); nor is one whose meaning arrives another way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua._report import LossLevel

__all__ = ["field_level", "file_field_level", "format_field_level", "says_nothing"]

_HINTS = (
    # caching (Anthropic's hint on a block; Bedrock's cache point after one)
    "cache_control",
    "cachePoint",
    "prompt_cache_key",
    "prompt_cache_retention",
    # storage, metadata, ids
    "store",
    "metadata",
    "requestMetadata",  # Bedrock's, for filtering its invocation logs
    "client_metadata",  # Codex's installation and session ids, beside `metadata`
    "labels",
    "user",
    "safety_identifier",
    "previous_message_id",
    # serving and transport
    "service_tier",
    "serviceTier",  # Bedrock's
    "performanceConfig",  # Bedrock's latency-optimized serving
    "stream",
    "stream_options",
    "background",
    "provider",
    "models",
    "route",
    "keep_alive",
    "prediction",
    # how a tool call's input streams (Anthropic's fine-grained tool streaming)
    "eager_input_streaming",
    # context kept within the window by the provider: another provider keeps it whole
    "context_management",
    "truncation",
    # a tool whose definition the provider loads only when a tool search finds it
    # (Anthropic's tool search): another provider is offered it whole, at once
    "defer_loading",
    # what an answer holds beside what the model says
    "include",
    "logprobs",
    "top_logprobs",
    "usage",
    "include_reasoning",
    "reasoning_format",
    "return_images",
    "return_related_questions",
    "system_fingerprint",
    "stop_sequence",
    "metrics",  # Bedrock's latency of the answer
    "trace",  # Bedrock's guardrail trace
    "amazon-bedrock-invocationMetrics",  # its token counts and latencies, on a stream's end
    "additionalModelResponseFields",  # the model's own answer fields beside Converse's
    "serverToolUsage",  # what a server tool's calls counted (the calls are parts)
    "cacheDetails",  # the cache counts by time to live (the counts are the usage's)
    # the upstream's own finish reason beside the one the answer gives (OpenRouter's)
    "native_finish_reason",
    # Azure OpenAI's content filtering of the prompt and of each choice
    "prompt_filter_results",
    "content_filter_results",
    "content_filter_offsets",  # where the asynchronous filter stood when it judged
    "x_groq",
)
_SETTINGS = (
    "max_tokens",
    "max_completion_tokens",
    "max_output_tokens",
    "max_tool_calls",
    "n",
    "temperature",
    "top_p",
    "top_k",
    "min_p",
    "top_a",
    "seed",
    "frequency_penalty",
    "presence_penalty",
    "repetition_penalty",
    "logit_bias",
    "stop",
    "stop_sequences",
    "reasoning",
    "reasoning_effort",
    "thinking",
    "output_config",
    "verbosity",
    "text",
    "tool_choice",
    "parallel_tool_calls",
    "modalities",
    "audio",
    "safetySettings",
    "safety_settings",
    "guardrailConfig",  # Bedrock's guardrail, which may block or mask the answer
    "anthropic_beta",  # Claude's betas in a Bedrock body (a context window, a tool's kind)
    "safe_prompt",
    "generationConfig",
    "generation_config",
    "toolConfig",
    "tool_config",
    "random_seed",
)
FIELD_LEVELS: Mapping[str, LossLevel] = {
    **dict.fromkeys(_SETTINGS, "setting"),
    **dict.fromkeys(_HINTS, "hint"),
}

# A response format's fields: its name is a label; its strictness how the
# output is held to the schema; its description and schema what it must produce.
_FORMAT_LEVELS: Mapping[str, LossLevel] = {
    "name": "hint",
    "strict": "setting",
    "description": "content",
    "json_schema": "content",
}
# A file's fields beside its data: its name is a label, its detail how it is read.
_FILE_LEVELS: Mapping[str, LossLevel] = {"filename": "hint", "detail": "setting"}

# Values that say what the API would do without them: `stream: false` and the
# usage of a stream, which every API's stream gives the client anyway.
_SAYS_NOTHING: Mapping[str, tuple[Any, ...]] = {
    "stream": (False,),
    "stream_options": ({"include_usage": True},),
    "background": (False,),
    "logprobs": (False,),
    "n": (1,),
}


def field_level(name: str) -> LossLevel:
    """The level of losing a setting or wire field called `name`; `content` when unknown."""
    return FIELD_LEVELS.get(name, "content")


def format_field_level(name: str) -> LossLevel:
    """The level of losing field `name` of a `ResponseFormat`."""
    return _FORMAT_LEVELS.get(name, "content")


def file_field_level(name: str) -> LossLevel:
    """The level of losing field `name` of a `FilePart` (`filename`, `detail`)."""
    return _FILE_LEVELS.get(name, "content")


# Fields whose meaning arrives another way: a Gemini body's own `model` is the request's;
# the `anthropic_version` of Claude's body on Bedrock or Vertex AI is each API's own, written
# by its encoder.
_ARRIVES_ELSEWHERE = frozenset({"model", "anthropic_version"})


def says_nothing(name: str, value: Any) -> bool:
    """Whether a field sent as `value` says nothing: empty (null, `""`, `[]`,
    `{}`), a value the APIs take as their default, or one whose meaning arrives
    another way."""
    if value is None or value in ("", [], {}) or name in _ARRIVES_ELSEWHERE:
        return True
    return any(
        type(value) is type(default) and value == default for default in _SAYS_NOTHING.get(name, ())
    )
