"""Recorded chat interactions answering a request by what it means, in any API.

A `MeaningMatch` reads each recorded chat request into the core
(`read_recorded`: by the adapter of the API its URL speaks, `_apis.read_call`;
an interaction of a provider-neutral cassette, `NeutralInteraction`, gives
its values as they are), once, and compares a
sent request's `meaning` with it (`_meaning`): the differences are named by
their path in that view (`messages[1].parts[0].text`). A recorded request the
kit cannot place (an image download, a response-only fixture) matches no
chat request.

`answer(call, interaction)` is the recorded answer for a request of the
asking API: the recorded bytes when the API and the streaming are the ones
recorded (a wire recording's), else the answer decoded by the recorded API's adapter (its
response, its stream's events, or its error) and written by `answer_call` in
the asking API's format, whole or streamed as asked (a recorded stream
answers a whole request, and the other way round).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from interlingua._adapter import get_adapter
from interlingua._errors import CassetteError, InvalidDataError
from interlingua._request import ChatRequest
from interlingua.testing._apis import Answer, ChatCall, HTTPAnswer, answer_call, read_call
from interlingua.testing._match import Difference, Matcher
from interlingua.testing._meaning import check_compare, meaning
from interlingua.testing._records import Interaction, NeutralInteraction, RecordedResponse

__all__ = ["MeaningMatch", "Recorded", "RecordedChat", "read_recorded"]

Recorded = Interaction | NeutralInteraction
"""A recorded call: of the wire, or in the core's terms."""

_NOT_COMPARABLE = [Difference("<request>", "a chat request", "not a chat request")]


@dataclass(frozen=True, slots=True)
class RecordedChat:
    """A recorded chat interaction in the core: the API it was recorded in (None
    for one recorded in the core's form), its request, and how to get its answer."""

    api: str | None
    request: ChatRequest
    answer: Callable[[], Answer]


def read_recorded(interaction: Recorded) -> RecordedChat | None:
    """A recorded interaction as a chat request and answer in the core, or None
    for one that is not a chat request (the one place a recording is read so)."""
    if isinstance(interaction, NeutralInteraction):
        return RecordedChat(None, interaction.request, lambda: _kept(interaction))
    recorded = interaction.request
    if recorded is None:
        return None
    try:
        call = read_call(recorded.method, recorded.url, recorded.body)
    except CassetteError:
        return None
    return RecordedChat(call.api, call.request, lambda: _decoded(call.api, interaction.response))


class MeaningMatch:
    """Sent chat requests compared with the recorded ones by their meaning."""

    def __init__(self, interactions: Sequence[Recorded], compare: Iterable[str] = ()) -> None:
        self.interactions = interactions
        self.compare = check_compare(compare)
        self._read: dict[int, tuple[RecordedChat, dict[str, Any]] | None] = {}
        self._differ = Matcher()

    def recorded(self, index: int) -> tuple[RecordedChat, dict[str, Any]] | None:
        """The recorded chat of `interactions[index]` and its meaning, or None."""
        if index not in self._read:
            chat = read_recorded(self.interactions[index])
            self._read[index] = None if chat is None else (chat, self.view(chat.request))
        return self._read[index]

    def view(self, request: ChatRequest) -> dict[str, Any]:
        """The meaning of a request, on the options compared."""
        return meaning(request, self.compare)

    def differences(self, view: dict[str, Any], index: int) -> list[Difference]:
        """Where a sent request's meaning differs from the recorded one's."""
        recorded = self.recorded(index)
        if recorded is None:
            return _NOT_COMPARABLE
        return list(self._differ.differences(view, recorded[1]))

    def answer(self, call: ChatCall, index: int) -> HTTPAnswer | None:
        """The recorded answer in `call`'s API, or None when its bytes answer as they are."""
        recorded = self.recorded(index)
        assert recorded is not None
        chat, interaction = recorded[0], self.interactions[index]
        as_recorded = (
            chat.api == call.api
            and isinstance(interaction, Interaction)
            and (interaction.response.events is not None) == call.request.stream
        )
        return None if as_recorded else answer_call(call, chat.answer())


def _kept(interaction: NeutralInteraction) -> Answer:
    """A neutral interaction's answer: its error, its stream's events, or its response."""
    if interaction.error is not None:
        return interaction.error
    if interaction.events is not None:
        return list(interaction.events)
    assert interaction.answer is not None
    return interaction.answer


def _decoded(api: str, response: RecordedResponse) -> Answer:
    """A recorded answer in the core: its response, its stream's events, or its error."""
    adapter = get_adapter(api)
    try:
        if response.status >= 400:
            return adapter.decode_error(
                response.status, response.json, headers=response.joined_headers()
            )
        if response.events is not None:
            return list(adapter.decode_stream(response.stream_payloads()))
        if isinstance(response.json, list):  # Gemini's stream without `alt=sse`: one array
            return list(adapter.decode_stream(response.json))
        return adapter.decode_response(response.json)
    except InvalidDataError as error:
        raise CassetteError(
            f"the {api} adapter cannot read the recorded answer: {error}"
        ) from error
