"""The Chat Completions codec bound to one dialect: an adapter's six verbs,
and the two a gateway needs (`encode_stream`, `encode_error`).

`ChatCompletionsCodec(dialect)` is what a Chat Completions server's adapter
exposes (`interlingua_openai` binds `OPENAI`'s); its stream decoder is what
the adapter's client reads streams with. The codec modules take the dialect
as an argument and keep no state between calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from interlingua.codec import depth_checked, resolve_report
from interlingua_chat_completions import _request, _response, _stream, _stream_encoder
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._stream import ChatStreamDecoder
from interlingua_chat_completions._stream_encoder import ChatStreamEncoder

if TYPE_CHECKING:
    from interlingua import (
        ChatRequest,
        ChatResponse,
        ProviderError,
        StreamEvent,
        TranslationReport,
        WireEvent,
    )

__all__ = ["ChatCompletionsCodec"]


class ChatCompletionsCodec:
    """The codec functions of `dialect`'s server, and its stream decoder and encoder."""

    __slots__ = ("PROVIDER", "dialect")

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.PROVIDER = dialect.provider

    def encode_request(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> dict[str, Any]:
        """The request body for `request`; losses go to `report`."""
        report = resolve_report(report, self.PROVIDER)
        sent = self.dialect.sent_request(request, report)
        body = _request.encode_request(sent, self.dialect, report)
        return self.dialect.sent_body(body, request, report)

    def decode_request(self, body: Any) -> ChatRequest:
        """The `ChatRequest` a request body describes."""
        with depth_checked(body, self.PROVIDER):
            return _request.decode_request(body, self.dialect)

    def encode_response(
        self, response: ChatResponse, *, report: TranslationReport | None = None
    ) -> dict[str, Any]:
        """The response body for `response`; losses go to `report`."""
        return _response.encode_response(response, self.dialect, report)

    def decode_response(self, body: Any) -> ChatResponse:
        """The `ChatResponse` of a response body (a dict or the SDK's object)."""
        with depth_checked(body, self.PROVIDER):
            return _response.decode_response(body, self.dialect)

    def decode_stream(self, events: Iterable[Any]) -> Iterator[StreamEvent]:
        """The stream events of a stream's parsed payloads (or the SDK's chunks)."""
        return _stream.decode_stream(events, self.dialect)

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        """The typed error for an error answer (status, body, and its headers)."""
        return self.dialect.decode_error(status, body, headers=headers)

    def encode_stream(
        self,
        events: Iterable[StreamEvent],
        *,
        report: TranslationReport | None = None,
        request: ChatRequest | None = None,
    ) -> Iterator[WireEvent]:
        """The stream's chunks for the core's events, lazily, then `[DONE]`; losses go
        to `report`. The usage goes as the server sends it for `request`, the client's
        (`decode_request` of its body): unasked (Groq's, Mistral's), or where it asks
        (OpenAI's `stream_options.include_usage`); with no request, always."""
        return _stream_encoder.encode_stream(events, self.dialect, report, request)

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]:
        """The HTTP status and error body of a typed error."""
        return self.dialect.encode_error(error)

    def stream_decoder(self) -> ChatStreamDecoder:
        """A decoder fed one payload at a time (what the clients read streams with)."""
        return ChatStreamDecoder(self.dialect)

    def stream_encoder(
        self, *, report: TranslationReport | None = None, request: ChatRequest | None = None
    ) -> ChatStreamEncoder:
        """An encoder fed one event at a time (what a gateway answers `request` with),
        its usage as `encode_stream`'s."""
        return ChatStreamEncoder(self.dialect, resolve_report(report, self.PROVIDER), request)
