"""interlingua: one neutral form of chat messages, translated to and from every
provider's wire format.

A history of `Message`s built of content parts moves between providers
unchanged; adapters (`get_adapter("anthropic")`) encode requests and decode
responses and streams, and report whatever a target could not take.
"""

from interlingua._adapter import (
    ENTRY_POINT_GROUP,
    Adapter,
    available_adapters,
    get_adapter,
    register_adapter,
    route,
    split_model,
)
from interlingua._clients import get_client_class
from interlingua._context import InvocationContext
from interlingua._errors import (
    AdapterNotFoundError,
    AuthenticationError,
    BadRequestError,
    CassetteError,
    CostError,
    DecodeError,
    HistoryFormatError,
    InterlinguaError,
    InvalidDataError,
    NotFoundError,
    OverloadedError,
    PermissionDeniedError,
    ProviderConnectionError,
    ProviderError,
    RateLimitError,
    ServerError,
    StreamError,
    ToolArgumentsError,
    TranslationError,
)
from interlingua._cost import Cost, PriceSource
from interlingua._finish import FinishReason
from interlingua._gateway import (
    GatewayAdapter,
    Problem,
    Translation,
    WireEvent,
    format_sse,
    translate_request,
    translate_response,
    translate_stream,
    validate_request,
)
from interlingua._history import HISTORY_FORMAT, HISTORY_VERSION, ChatHistory
from interlingua._messages import Message, Role
from interlingua._parts import (
    ContentPart,
    FilePart,
    OpaquePart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCallPart,
    ToolResultContent,
    ToolResultPart,
)
from interlingua._rate_limits import RateLimit, RateLimits
from interlingua._report import (
    LossKind,
    LossLevel,
    Strictness,
    TranslationLoss,
    TranslationReport,
    TranslationWarning,
)
from interlingua._request import ChatRequest, ReasoningConfig, ResponseFormat
from interlingua._response import ChatResponse
from interlingua._sanitize import sanitize
from interlingua._store import HistoryStore
from interlingua._stream import (
    AlternativeEvent,
    ErrorEvent,
    FinishEvent,
    PartDataEvent,
    PartEvent,
    ReasoningDelta,
    ReasoningSignature,
    RefusalDelta,
    ResponseDataEvent,
    StreamAccumulator,
    StreamEvent,
    StreamStart,
    TextDelta,
    ToolCallDelta,
    ToolCallStart,
    UsageEvent,
    accumulate,
    accumulate_async,
)
from interlingua._template import MessageTemplate
from interlingua._tools import ToolChoice, ToolName, ToolSpec
from interlingua._usage import TokenUsage

__version__ = "0.1.0"

__all__ = [
    "ENTRY_POINT_GROUP",
    "HISTORY_FORMAT",
    "HISTORY_VERSION",
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
    "ErrorEvent",
    "FilePart",
    "FinishEvent",
    "FinishReason",
    "GatewayAdapter",
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
