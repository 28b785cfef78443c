"""The Chat Completions codec bound to one dialect: an adapter's six verbs.

`ChatCompletionsCodec(dialect)` is what a Chat Completions server's adapter
exposes (`interlingua_openai` binds `OPENAI`'s); its stream decoder is what
the adapter's client reads streams with. The codec modules take the dialect
as an argument and keep no state between calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from interlingua_chat_completions import _request, _response, _stream
from interlingua_chat_completions._dialect import ChatCompletionsDialect
from interlingua_chat_completions._stream import ChatStreamDecoder

if TYPE_CHECKING:
    from interlingua import ChatRequest, ChatResponse, ProviderError, StreamEvent, TranslationReport

__all__ = ["ChatCompletionsCodec"]


class ChatCompletionsCodec:
    """The six codec functions of `dialect`'s server, and its stream decoder."""

    __slots__ = ("PROVIDER", "dialect")

    def __init__(self, dialect: ChatCompletionsDialect) -> None:
        self.dialect = dialect
        self.PROVIDER = dialect.provider

    def encode_request(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> dict[str, Any]:
        """The request body for `request`; losses go to `report`."""
        return _request.encode_request(request, self.dialect, report)

    def decode_request(self, body: Any) -> ChatRequest:
        """The `ChatRequest` a request body describes."""
        return _request.decode_request(body, self.dialect)

    def encode_response(
        self, response: ChatResponse, *, report: TranslationReport | None = None
    ) -> dict[str, Any]:
        """The response body for `response`; losses go to `report`."""
        return _response.encode_response(response, self.dialect, report)

    def decode_response(self, body: Any) -> ChatResponse:
        """The `ChatResponse` of a response body (a dict or the SDK's object)."""
        return _response.decode_response(body, self.dialect)

    def decode_stream(self, events: Iterable[Any]) -> Iterator[StreamEvent]:
        """The stream events of a stream's parsed payloads (or the SDK's chunks)."""
        return _stream.decode_stream(events, self.dialect)

    def decode_error(self, status: int | None, body: Any) -> ProviderError:
        """The typed error for an error answer (status and body)."""
        return self.dialect.decode_error(status, body)

    def stream_decoder(self) -> ChatStreamDecoder:
        """A decoder fed one payload at a time (what the clients read streams with)."""
        return ChatStreamDecoder(self.dialect)
