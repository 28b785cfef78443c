"""A fake provider: every SDK client answered by a function of the neutral request.

    def handler(request: ChatRequest) -> ChatResponse: ...

    with fake(handler) as provider:            # or `async with`
        anthropic.Anthropic(api_key="sk-test").messages.create(...)
    provider.requests                          # what the SDK sent, as ChatRequests

While a `Fake` is active, each chat request any SDK client sends (anthropic,
openai's Chat Completions and Responses, mistralai, groq, google-genai, and
the OpenAI-compatible servers the kit knows by host) is decoded into a
`ChatRequest` by its API's adapter, the model included (`_apis.read_call`),
and answered with what the handler gives for it, in that API's own format,
whole or streamed as the request asked (`_apis.answer_call`):

- a `ChatResponse` (or a `str`, the text of one); what it leaves unset is
  filled in: its id (`fake-<n>`, the request's number), its model (the
  request's) and its finish reason (`tool_calls` when it calls a tool, else
  `stop`);
- a list of stream events, sent as they are (joined by `accumulate` for a
  request that is not streamed);
- a `ProviderError`, raised or returned: the API's error answer with its
  status, which the SDK raises as its own typed error (`RateLimitError(...,
  status=429)` is the SDK's rate-limit error; the SDKs retry 429s and 5xx as
  against the provider: build them with `max_retries=0`).

`fake(responses=[...])` answers the requests in order with a fixed sequence
of the same (an exception in it is raised as the handler would have). Any
other exception from the handler, and a request the kit cannot place (a
`CassetteError` naming its URL), is raised in the SDK's call and again on
leaving the block (the anthropic and groq SDKs wrap it in their connection
error). `requests` holds the decoded requests, `sent` their JSON bodies,
`calls` each one whole (its API, URL, body and request: `_apis.ChatCall`),
`losses` what an API could not hold of an answer.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

from interlingua._errors import CassetteError, ProviderError
from interlingua._finish import FinishReason
from interlingua._messages import Message
from interlingua._report import TranslationLoss
from interlingua._request import ChatRequest
from interlingua._response import ChatResponse
from interlingua._stream import StreamEvent
from interlingua.testing._apis import Answer, ChatCall, answer_call, read_call
from interlingua.testing._intercept import Interceptor, response_of

__all__ = ["Fake", "FakeAnswer", "fake"]

FakeAnswer: TypeAlias = ChatResponse | Sequence[StreamEvent] | str | ProviderError
"""What a fake provider answers a request with (see the module's docstring)."""
Handler: TypeAlias = Callable[[ChatRequest], FakeAnswer]


class Fake(Interceptor):
    """Answers every SDK client's chat requests with `handler`, or with the next
    of `responses`; `requests` holds what was asked, decoded."""

    def __init__(
        self,
        handler: Handler | None = None,
        *,
        responses: Iterable[FakeAnswer | Exception] = (),
        pass_hosts: Iterable[str] = (),
    ) -> None:
        super().__init__(pass_hosts=pass_hosts)
        self.handler = handler
        """The function that answers each request (None: `responses` answer)."""
        self.responses: deque[FakeAnswer | Exception] = deque(responses)
        """The answers left, for the requests to come when there is no handler."""
        self.calls: list[ChatCall] = []
        """Each request answered: the API it spoke, its URL and body, and the request."""
        self.losses: list[TranslationLoss] = []
        """What an API could not hold of the answers it was given, in order."""
        self._lock = threading.Lock()

    @property
    def requests(self) -> list[ChatRequest]:
        """Each request answered, decoded from what the SDK sent, in order."""
        return [call.request for call in self.calls]

    @property
    def sent(self) -> list[Any]:
        """The JSON body of each request answered, in order."""
        return [call.body for call in self.calls]

    def respond(self, request: Any) -> Any:
        """The answer to `request`, an httpx or httpx2 request whose body was read."""
        try:
            call = read_call(request.method, str(request.url), request.content)
        except CassetteError as error:
            raise self.failed(error) from None
        with self._lock:  # SDK calls from several threads: each takes its own answer
            self.calls.append(call)
            number = len(self.calls)
            queued = None if self.handler is not None else self._queued(call, number)
        answer = self._answer(call, number, queued)
        http = answer_call(call, answer)
        self.losses += http.losses
        return response_of(request, http.status, http.headers, http.body)

    def _queued(self, call: ChatCall, number: int) -> FakeAnswer | Exception:
        if not self.responses:
            return self.failed(
                CassetteError(
                    f"the fake provider has no answer for request {number}, "
                    f"{call.method} {call.url}: give it a handler or more responses"
                )
            )
        return self.responses.popleft()

    def _answer(self, call: ChatCall, number: int, queued: FakeAnswer | Exception | None) -> Answer:
        try:
            if queued is None:
                assert self.handler is not None
                given: FakeAnswer | Exception = self.handler(call.request)
            else:
                given = queued
            if isinstance(given, Exception) and not isinstance(given, ProviderError):
                raise given
        except ProviderError as error:
            return error
        except Exception as error:
            if not any(error is failure for failure in self.failures):
                self.failed(error)
            raise
        return _completed(given, call.request, number)


def _completed(given: FakeAnswer, request: ChatRequest, number: int) -> Answer:
    """The answer, a response's unset id, model and finish reason filled in."""
    if isinstance(given, str):
        given = ChatResponse(message=Message.assistant(given))
    if not isinstance(given, ChatResponse):
        return given
    update: dict[str, Any] = {}
    if given.id is None:
        update["id"] = f"fake-{number}"
    if given.model is None:
        update["model"] = request.model
    if given.finish_reason is None:
        calls = given.message.tool_calls
        update["finish_reason"] = FinishReason.TOOL_CALLS if calls else FinishReason.STOP
    return given.model_copy(update=update) if update else given


def fake(
    handler: Handler | None = None,
    *,
    responses: Iterable[FakeAnswer | Exception] | None = None,
    pass_hosts: Iterable[str] = (),
) -> Fake:
    """A fake provider answering with `handler`, or with `responses` in order;
    enter it (`with` or `async with`) to answer every SDK client (but those of
    `pass_hosts`, which go to the network: a local server under test)."""
    if handler is not None and responses is not None:
        raise ValueError("fake() takes a handler or responses, not both")
    return Fake(handler, responses=responses or (), pass_hosts=pass_hosts)
