"""The public names: each export list as it is (`interlingua.testing`'s is pinned in
test_cassette.py), everything in `__all__` exists, and the core stays provider-free."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import interlingua
import interlingua.client
import interlingua.codec
import interlingua.testing


def test_every_exported_name_exists() -> None:
    for module in (interlingua, interlingua.codec, interlingua.client, interlingua.testing):
        missing = [name for name in module.__all__ if not hasattr(module, name)]
        assert missing == [], module.__name__


def test_the_export_list() -> None:
    assert sorted(interlingua.__all__) == [
        "Adapter",
        "AdapterNotFoundError",
        "AlternativeEvent",
        "AuthenticationError",
        "BadRequestError",
        "CassetteError",
        "ChatHistory",
        "ChatRequest",
        "ChatResponse",
        "ContentPart",
        "Cost",
        "CostError",
        "DecodeError",
        "ENTRY_POINT_GROUP",
        "ErrorEvent",
        "FilePart",
        "FinishEvent",
        "FinishReason",
        "GatewayAdapter",
        "HISTORY_FORMAT",
        "HISTORY_VERSION",
        "HistoryFormatError",
        "HistoryStore",
        "InterlinguaError",
        "InvalidDataError",
        "InvocationContext",
        "LossKind",
        "LossLevel",
        "Message",
        "MessageTemplate",
        "NotFoundError",
        "OpaquePart",
        "OverloadedError",
        "PartDataEvent",
        "PartEvent",
        "PermissionDeniedError",
        "PriceSource",
        "Problem",
        "ProviderConnectionError",
        "ProviderError",
        "RateLimit",
        "RateLimitError",
        "RateLimits",
        "ReasoningConfig",
        "ReasoningDelta",
        "ReasoningPart",
        "ReasoningSignature",
        "RefusalDelta",
        "RefusalPart",
        "ResponseDataEvent",
        "ResponseFormat",
        "Role",
        "ServerError",
        "StreamAccumulator",
        "StreamError",
        "StreamEvent",
        "StreamStart",
        "Strictness",
        "TextDelta",
        "TextPart",
        "TokenUsage",
        "ToolArgumentsError",
        "ToolCallDelta",
        "ToolCallPart",
        "ToolCallStart",
        "ToolChoice",
        "ToolName",
        "ToolResultContent",
        "ToolResultPart",
        "ToolSpec",
        "Translation",
        "TranslationError",
        "TranslationLoss",
        "TranslationReport",
        "TranslationWarning",
        "TurnUsage",
        "UsageEvent",
        "WireEvent",
        "__version__",
        "accumulate",
        "accumulate_async",
        "available_adapters",
        "format_sse",
        "get_adapter",
        "get_client_class",
        "register_adapter",
        "route",
        "sanitize",
        "split_model",
        "translate_request",
        "translate_response",
        "translate_stream",
        "validate_request",
    ]


def test_the_codec_export_list() -> None:
    assert sorted(interlingua.codec.__all__) == [
        "AWS_ERRORS",
        "COMMON_ERROR_TYPES",
        "EFFORT_BUDGETS",
        "ErrorTypes",
        "FreeformText",
        "MissingResults",
        "ModelRules",
        "OutputLimits",
        "PROVIDER_DATA_SECTIONS",
        "ProviderData",
        "ProviderEntry",
        "ReasoningOff",
        "StreamDecoder",
        "StreamEncoder",
        "WireReader",
        "as_wire_dict",
        "aws_error_type",
        "aws_error_types",
        "aws_exception",
        "copy_json",
        "created_time",
        "decode_events",
        "depth_checked",
        "derived_id",
        "dump_arguments",
        "effort_for_budget",
        "encode_events",
        "error_text",
        "field_level",
        "file_field_level",
        "fit_tool_call_id",
        "fitted_length",
        "fitted_tool_call_id",
        "format_field_level",
        "format_path",
        "freeform_arguments",
        "freeform_input",
        "freeform_piece",
        "header_value",
        "json_or_text",
        "keep",
        "kept",
        "leftover",
        "merge_provider_data",
        "missing_results",
        "other_fields",
        "overlay",
        "reasoning_as_text",
        "report_other_data",
        "report_other_fields",
        "report_other_providers",
        "report_other_response",
        "report_other_response_data",
        "resolve_report",
        "sent_messages",
        "sent_off",
        "sent_tools",
        "signed_by_claude",
        "standard_base64",
        "usage_numbers",
        "wire_fields",
        "wire_model",
    ]


def test_the_client_export_list() -> None:
    assert sorted(interlingua.client.__all__) == [
        "AsyncChatClient",
        "AsyncEventStream",
        "AsyncSSEStream",
        "ChatClient",
        "Endpoint",
        "ErrorDecoder",
        "EventStream",
        "SDKBinding",
        "SDKOptions",
        "SDKTransport",
        "SSEStream",
        "lazy_attributes",
        "sdk_client",
        "set_stream",
        "stainless_binding",
        "stainless_options",
    ]


def test_the_design_names_are_exported() -> None:
    contract = {
        "TextPart", "FilePart", "ReasoningPart", "ToolCallPart", "ToolResultPart", "ContentPart",
        "Message", "ToolSpec", "ToolChoice", "ChatRequest", "ChatResponse", "FinishReason",
        "TokenUsage", "StreamEvent", "accumulate", "ChatHistory", "sanitize", "InterlinguaError",
        "InvocationContext", "MessageTemplate", "Adapter", "get_adapter", "TranslationLoss",
    }  # fmt: skip
    assert contract <= set(interlingua.__all__)


def test_importing_the_core_imports_no_provider_sdk_no_yaml_and_no_server() -> None:
    code = (
        "import sys, interlingua, interlingua.client, interlingua.codec, interlingua.testing\n"
        "heavy = {'openai', 'anthropic', 'mistralai', 'groq', 'google', 'httpx', 'httpx2',\n"
        "         'yaml', 'starlette', 'uvicorn', 'opentelemetry', 'genai_prices'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_importing_the_shared_chat_completions_codec_imports_no_sdk() -> None:
    code = (
        "import sys, interlingua_chat_completions\n"
        "heavy = {'openai', 'anthropic', 'mistralai', 'groq', 'httpx', 'httpx2'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# Distribution -> the provider SDKs it may install (each adapter its own, the codec none).
SDK_OF = {
    "interlingua-anthropic": {"anthropic"},
    "interlingua-bedrock": {"boto3"},
    "interlingua-cerebras": {"openai"},
    "interlingua-chat-completions": set(),
    "interlingua-deepseek": {"openai"},
    "interlingua-google": {"google-genai"},
    "interlingua-groq": {"groq"},
    "interlingua-mistral": {"mistralai"},
    "interlingua-ollama": {"openai"},
    "interlingua-openai": {"openai"},
    "interlingua-openai-compatible": {"openai"},
    "interlingua-openrouter": {"openai"},
    "interlingua-perplexity": {"openai"},
    "interlingua-xai": {"openai"},
}
PROVIDER_SDKS = {"openai", "anthropic", "mistralai", "groq", "google-genai", "boto3"}


def test_each_distribution_installs_its_own_sdk_and_no_other() -> None:
    # The installed metadata of each workspace adapter: what a wheel of it requires.
    found = {}
    for name in SDK_OF:
        specs = [spec for spec in metadata.requires(name) or () if "extra ==" not in spec]
        names = {re.split(r"[<>=!~; \[]", spec, maxsplit=1)[0] for spec in specs}
        found[name] = names & PROVIDER_SDKS
    assert found == SDK_OF
    adapters = Path(__file__).resolve().parents[1] / "adapters"
    assert {p.parent.name for p in adapters.glob("*/pyproject.toml")} == {
        name.removeprefix("interlingua-") for name in SDK_OF
    }
