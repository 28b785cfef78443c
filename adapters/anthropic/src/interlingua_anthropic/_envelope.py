"""Claude on Amazon Bedrock (InvokeModel) and on Vertex AI (rawPredict): Anthropic's
Messages API in an envelope, the envelope its only difference.

    Messages API (`/v1/messages`)       the envelope's body
    `model`                             none: the model is in the URL
                                        (Bedrock `/model/{model}/invoke`, Vertex AI
                                        `.../publishers/anthropic/models/{model}:rawPredict`)
    `stream`                            Bedrock: none, the path says it
                                        (`/invoke-with-response-stream`); Vertex AI:
                                        kept (`:streamRawPredict` and `"stream": true`)
    the `anthropic-version` header      `anthropic_version` in the body
                                        (`bedrock-2023-05-31`, `vertex-2023-10-16`)
    everything else                     as Anthropic's, by Anthropic's codec

The answers are Anthropic `message` objects (Bedrock's ids `msg_bdrk_...`), and
the values decoded from either envelope are Anthropic's (`provider="anthropic"`:
their parts, reasoning and provider data), so a history moves between the three
with nothing to report, thinking signatures included (`EnvelopeCodec.decode_response`).
A decoded body has no model: the request's is `""`, and the caller sets it, as
a Gemini body's. The envelope's own fields (an `anthropic_version` other than
its own; Bedrock's betas, `anthropic_beta`, which Anthropic's API and Vertex AI
take as the `anthropic-beta` header) are kept in `provider_options["<envelope>"]`
and sent back to that envelope alone: elsewhere a beta is reported as dropped.

The legacy Text Completions body (`prompt`, `max_tokens_to_sample`; its answer
`completion`), which Bedrock still takes for Claude 2, is refused with a
`DecodeError` that names it: this adapter speaks the Messages API only.

Errors: Bedrock answers `{"message": ...}` with the error's type in the
`X-Amzn-Errortype` header (`ValidationException:http://internal.amazon.com/...`),
and inside a stream as an exception event (`{"throttlingException": {"message":
...}}`); Vertex AI answers with Anthropic's error bodies. Both are read as
Anthropic's, with Bedrock's types beside Anthropic's (`BEDROCK_ERROR_TYPES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from interlingua import (
    ChatRequest,
    ChatResponse,
    ProviderError,
    TranslationReport,
)
from interlingua.codec import (
    ErrorTypes,
    WireReader,
    aws_error_type,
    aws_error_types,
    copy_json,
    error_text,
    json_or_text,
    resolve_report,
    wire_model,
)
from interlingua_anthropic._errors import DECODED_TYPES, encode_error, read_error
from interlingua_anthropic._request import decode_request, encode_request
from interlingua_anthropic._response import decode_response, encode_response

__all__ = [
    "BEDROCK",
    "BEDROCK_ERROR_TYPES",
    "VERTEX",
    "Envelope",
    "EnvelopeCodec",
]

_VERSION = "anthropic_version"
# The fields of Claude's legacy Text Completions API, in a request and in its answer.
_TEXT_COMPLETIONS = ("prompt", "max_tokens_to_sample")
_COMPLETION = "completion"


@dataclass(frozen=True)
class Envelope:
    """How one platform wraps Anthropic's Messages API."""

    provider: str
    # The `anthropic_version` its bodies carry.
    version: str
    # Whether a body says `stream` (Vertex AI), or the path alone does (Bedrock).
    stream_in_body: bool
    # The path for a model, not streamed and streamed (`{model}` in it).
    path: str
    stream_path: str
    # The body's fields of the envelope's own, kept in `provider_options[provider]`
    # (its version where it is not `version`), and sent to this envelope alone.
    own_fields: tuple[str, ...] = (_VERSION,)
    # The error types beside Anthropic's, which its error bodies may name.
    error_types: ErrorTypes = DECODED_TYPES
    # Whether errors come as AWS answers them: `{"message"}`, the type in `X-Amzn-Errortype`.
    aws_errors: bool = False
    # What of a model id goes unquoted in the path (Bedrock's `:`, Vertex AI's `@`).
    model_safe: str = ""

    def target(self, model: str, *, stream: bool) -> str:
        """The path for `model`, quoted as the anthropic SDK quotes it (an ARN's `/`)."""
        quoted = quote(model, safe=self.model_safe)
        return (self.stream_path if stream else self.path).format(model=quoted)


# Bedrock's error types beside Anthropic's (the core's, which Converse's adapter shares).
BEDROCK_ERROR_TYPES = aws_error_types(DECODED_TYPES)

BEDROCK = Envelope(
    provider="anthropic-bedrock",
    version="bedrock-2023-05-31",
    stream_in_body=False,
    path="/model/{model}/invoke",
    stream_path="/model/{model}/invoke-with-response-stream",
    error_types=BEDROCK_ERROR_TYPES,
    # Quirk: Bedrock takes Anthropic's betas in the body, where Anthropic's API and
    # Vertex AI take the `anthropic-beta` header (Bedrock's user guide, "Anthropic
    # Claude Messages API", Request and Response: `"anthropic_beta":
    # ["computer-use-2024-10-22"]` beside `"anthropic_version": "bedrock-2023-05-31"`).
    own_fields=(_VERSION, "anthropic_beta"),
    aws_errors=True,
    model_safe=":",
)
# The path below the SDK's base URL and the client's project and location
# (`/projects/{project}/locations/{location}/`), which the client puts in front.
VERTEX = Envelope(
    provider="anthropic-vertex",
    version="vertex-2023-10-16",
    # Quirk: Vertex AI's streamed calls say `"stream": true` in the body beside the
    # `:streamRawPredict` path (the anthropic SDK's `AnthropicVertex` keeps it there,
    # and recorded calls send it), where Bedrock's path alone says it.
    stream_in_body=True,
    path="publishers/anthropic/models/{model}:rawPredict",
    stream_path="publishers/anthropic/models/{model}:streamRawPredict",
    model_safe="@",
)


class EnvelopeCodec:
    """Anthropic's codec in one platform's envelope: the adapter's verbs."""

    def __init__(self, envelope: Envelope) -> None:
        self.envelope = envelope
        self.provider = envelope.provider
        self._reader = WireReader(envelope.provider)

    # --- requests ---

    def decode_request(self, body: dict[str, Any]) -> ChatRequest:
        """The request an envelope's body asks for; its model is `""` (the URL's)."""
        body = self._reader.body(body)
        self._refuse_text_completions(body, _TEXT_COMPLETIONS, "request")
        self._reader.field(body, _VERSION, "", str, None)
        own = {key: body[key] for key in self.envelope.own_fields if key in body}
        inner = {key: value for key, value in body.items() if key not in own}
        request = decode_request({"model": "", **inner})
        if own.get(_VERSION) == self.envelope.version:
            del own[_VERSION]  # the one every body of the envelope has
        if not own:
            return request
        options = {**request.provider_options, self.provider: own}
        return request.model_copy(update={"provider_options": options})

    def encode_request(
        self, request: ChatRequest, *, report: TranslationReport | None = None
    ) -> dict[str, Any]:
        """The envelope's body for `request`: Anthropic's, without `model` (and on
        Bedrock without `stream`), with the envelope's `anthropic_version` and the
        envelope's own fields the request kept (Bedrock's `anthropic_beta`)."""
        report = resolve_report(report, self.provider)
        own = request.provider_options.get(self.provider, {})
        if own:
            others = {k: v for k, v in request.provider_options.items() if k != self.provider}
            request = request.model_copy(update={"provider_options": others})
        body = encode_request(request, report=report)
        del body["model"]
        if not self.envelope.stream_in_body:
            body.pop("stream", None)
        return {_VERSION: self.envelope.version, **body, **copy_json(own)}

    def target(self, request: ChatRequest, stream: bool) -> str:
        """The path of `request`, streamed or not (the model in it, as given)."""
        return self.envelope.target(wire_model(request.model, self.provider), stream=stream)

    # --- answers ---

    def decode_response(self, body: Any) -> ChatResponse:
        """The response of an answer: Anthropic's `message` object."""
        if isinstance(body, dict) and _COMPLETION in body and "content" not in body:
            self._refuse_text_completions(body, (_COMPLETION,), "answer")
        # Quirk: a thinking block's signature made on one platform is taken by the
        # others ("signature values are compatible across platforms (the Claude API,
        # Amazon Bedrock, and Google Cloud). Values generated on one platform work on
        # another": Anthropic's extended-thinking guide), so reasoning decoded here is
        # Anthropic's, and goes back to any of the three as it came.
        return decode_response(body)

    def encode_response(
        self, response: ChatResponse, *, report: TranslationReport | None = None
    ) -> dict[str, Any]:
        return encode_response(response, report=resolve_report(report, self.provider))

    # --- errors ---

    def decode_error(
        self, status: int | None, body: Any, *, headers: Mapping[str, str] | None = None
    ) -> ProviderError:
        """The typed error of an error answer: its status (None inside a stream),
        its body, and its headers (Bedrock's name the error's type)."""
        data = json_or_text(body)
        if not isinstance(data, dict) or "error" in data or not self.envelope.aws_errors:
            return read_error(
                status, data, headers=headers, provider=self.provider, types=self._types
            )
        # Bedrock's own body, `{"message": ...}`: its type is in the header.
        message = data.get("message")
        return ProviderError.for_status(
            status,
            message if isinstance(message, str) and message else error_text(status, data),
            provider=self.provider,
            type=aws_error_type(headers) if self.envelope.aws_errors else None,
            body=data,
            types=self._types,
            headers=headers,
        )

    def stream_exception(self, name: str, member: Any) -> ProviderError:
        """The error of an exception event inside a Bedrock stream, as boto3
        yields it (`{"throttlingException": {"message": ...}}`)."""
        message = member.get("message") if isinstance(member, dict) else None
        return ProviderError.for_status(
            None,
            message if isinstance(message, str) and message else name,
            provider=self.provider,
            type=name,
            body={name: member},
            types=self._types,
        )

    def encode_error(self, error: ProviderError) -> tuple[int, dict[str, Any]]:
        """The status and body the platform would answer `error` with: Bedrock's
        `{"message": ...}`, Vertex AI's as Anthropic's."""
        status, body = encode_error(error)
        if not self.envelope.aws_errors:
            return status, body
        return status, {"message": error.message}

    @property
    def _types(self) -> ErrorTypes:
        return self.envelope.error_types

    def _refuse_text_completions(
        self, body: Mapping[str, Any], fields: tuple[str, ...], what: str
    ) -> None:
        for field in fields:
            if field in body and "messages" not in body:
                raise self._reader.error(
                    field,
                    f"a Text Completions {what} (`{field}`), Claude's legacy API: "
                    f"{self.provider} speaks the Messages API (`messages`, `content`) only",
                )
