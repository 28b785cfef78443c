"""Content parts: the pieces a message is made of.

Parts are pure values: frozen, compared by content, with one discriminator
field `type`. Whatever a provider needs echoed back to it alone lives in the
part's `provider_data`, keyed by provider name (in the sections of
`_provider_data`), and is never sent elsewhere.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, field_validator, model_validator

from interlingua._base import CoreModel, ProviderData, provider_data_field, type_tag
from interlingua._errors import InvalidDataError, ToolArgumentsError
from interlingua._provider_data import OwnedJSON

__all__ = [
    "PART_TYPES",
    "ContentPart",
    "FilePart",
    "OpaquePart",
    "ReasoningPart",
    "RefusalPart",
    "TextPart",
    "ToolCallPart",
    "ToolResultContent",
    "ToolResultPart",
    "standard_base64",
]


class TextPart(CoreModel):
    """Visible text."""

    type: Literal["text"] = "text"
    text: str
    provider_data: ProviderData = provider_data_field()


class FilePart(CoreModel):
    """An image, document or audio clip, given inline (`data`, base64), by `url`,
    or by a provider's `file_id`: exactly one of the three.

    `provider` names the provider whose file store a `file_id` points into; such
    a part goes to that provider only (None: not known, sent as it is).
    """

    type: Literal["file"] = "file"
    media_type: str
    data: str | None = Field(default=None, repr=False)
    url: str | None = None
    file_id: str | None = None
    provider: str | None = None
    filename: str | None = None
    detail: str | None = None
    provider_data: ProviderData = provider_data_field()

    @model_validator(mode="after")
    def _one_source(self) -> FilePart:
        given = [name for name in ("data", "url", "file_id") if getattr(self, name) is not None]
        if len(given) != 1:
            found = ", ".join(given) or "none"
            raise ValueError(f"a file part needs exactly one of data, url, file_id (got {found})")
        return self

    @classmethod
    def from_bytes(
        cls, content: bytes, media_type: str, *, filename: str | None = None
    ) -> FilePart:
        return cls(
            media_type=media_type,
            data=base64.b64encode(content).decode("ascii"),
            filename=filename,
        )

    def content(self) -> bytes:
        """The inline bytes; a `url` or `file_id` part has none to give, and data
        that is not base64 raises `InvalidDataError` too."""
        if self.data is None:
            raise InvalidDataError([("data", "the file is given by reference, not inline")])
        try:
            return base64.b64decode(self.data, validate=True)
        except binascii.Error as exc:
            raise InvalidDataError([("data", f"not base64: {exc}")]) from None

    @property
    def kind(self) -> str:
        """`image`, `audio`, `video`, `text` or `application`: the media type's top level."""
        return self.media_type.split("/", 1)[0]

    def __repr_args__(self) -> Any:
        yield from super().__repr_args__()
        if self.data is not None:
            yield "data", f"<{len(self.data)} base64 characters>"


class ReasoningPart(CoreModel):
    """A model's reasoning, with the proof of origin some providers need back.

    `signature` and `redacted_data` are only ever sent back to `provider`;
    a redacted part carries `redacted_data` and no readable text.
    """

    type: Literal["reasoning"] = "reasoning"
    text: str = ""
    signature: str | None = None
    redacted_data: str | None = Field(default=None, repr=False)
    provider: str | None = None
    provider_data: ProviderData = provider_data_field()

    @property
    def redacted(self) -> bool:
        return self.redacted_data is not None


class ToolCallPart(CoreModel):
    """A call the model asks for. `arguments` is the JSON text exactly as produced,
    kept even when it is not valid JSON; `parsed_arguments()` checks it. A
    freeform tool's call (its `name` ends in `--freeform`: `ToolName`) holds the
    text the model wrote as `{"input": <text>}`."""

    type: Literal["tool_call"] = "tool_call"
    id: str
    name: str
    arguments: str = "{}"
    provider_data: ProviderData = provider_data_field()

    @field_validator("arguments", mode="before")
    @classmethod
    def _dump_mapping(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            try:
                return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"the arguments are not JSON data: {exc}") from None
        return value

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as an object. Empty text counts as `{}`.

        Raises `ToolArgumentsError`, carrying the raw text, when they are not a
        JSON object (NaN and Infinity, which JSON has not, included).
        """
        if not self.arguments.strip():
            return {}
        try:
            value = _ARGUMENTS_DECODER.decode(self.arguments)
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise ToolArgumentsError(
                reason, arguments=self.arguments, tool_call_id=self.id
            ) from None
        if not isinstance(value, dict):
            raise ToolArgumentsError(
                f"got a JSON {type(value).__name__}",
                arguments=self.arguments,
                tool_call_id=self.id,
            )
        return value


class OpaquePart(CoreModel):
    """A provider block interlingua does not model, kept whole.

    It goes back unchanged to `provider` and is left out (and reported) for
    any other.
    """

    type: Literal["opaque"] = "opaque"
    provider: str
    data: OwnedJSON

    @property
    def block_type(self) -> str | None:
        """The provider's own `type` of the block, when it has one."""
        value = self.data.get("type")
        return value if isinstance(value, str) else None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# One decoder for every call (`json.loads` with an option builds one each time).
_ARGUMENTS_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


ToolResultContent = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[OpaquePart, Tag("opaque")],
    Discriminator(type_tag),
]


class ToolResultPart(CoreModel):
    """The answer to a tool call: text, files and provider blocks, flagged when the
    tool failed."""

    type: Literal["tool_result"] = "tool_result"
    tool_call_id: str
    name: str | None = None
    content: tuple[ToolResultContent, ...] = ()
    is_error: bool = False
    provider_data: ProviderData = provider_data_field()

    @property
    def text(self) -> str:
        return "".join(part.text for part in self.content if isinstance(part, TextPart))


class RefusalPart(CoreModel):
    """The model's refusal to answer, kept apart from ordinary text."""

    type: Literal["refusal"] = "refusal"
    text: str
    provider_data: ProviderData = provider_data_field()


ContentPart = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[ReasoningPart, Tag("reasoning")]
    | Annotated[ToolCallPart, Tag("tool_call")]
    | Annotated[ToolResultPart, Tag("tool_result")]
    | Annotated[RefusalPart, Tag("refusal")]
    | Annotated[OpaquePart, Tag("opaque")],
    Discriminator(type_tag),
]

# The `type` of every part: the tags of the `ContentPart` union.
PART_TYPES = frozenset(
    part.model_fields["type"].default
    for part in (
        TextPart,
        FilePart,
        ReasoningPart,
        ToolCallPart,
        ToolResultPart,
        RefusalPart,
        OpaquePart,
    )
)


# google-genai writes a file's bytes in URL-safe base64, which a file part keeps as
# it came; the other APIs take the standard alphabet.
_STANDARD_BASE64 = str.maketrans("-_", "+/")


def standard_base64(data: str) -> str:
    """A file part's `data` in the standard base64 alphabet."""
    return data.translate(_STANDARD_BASE64)
