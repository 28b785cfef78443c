"""What a chat answer says, read straight from an API's wire or from the SDK's
objects, and each API's real SDK client sending a request body as it is.

`recorded_answer(api, interaction)` reads a recorded answer's text, tool
calls and finish from its JSON fields (a whole body or a stream's events),
with no decoder of the project's; `send(api, body, stream)` sends a body of
that API's format through its SDK (the fields the SDK's method names as its
arguments, the others as `extra_body`) and reads the same three from what the
SDK returns. `Said.finish` is the finish's kind (`stop`, `tool_calls`,
`length`, `content_filter`), from each API's words for it (`FINISHES`), so
that answers of two APIs can be compared.
"""

from __future__ import annotations

import base64
import inspect
import json
from dataclasses import dataclass, field
from typing import Any

import anthropic
import groq
import openai
from google import genai
from google.genai import types as gtypes
from mistralai.client import Mistral

from boto3_calls import as_json, client_for, parameters
from interlingua.testing import Interaction, RecordedRequest
from interlingua_bedrock import can_write_event_streams

# Each API's words for how an answer ended, by kind (their documentation's lists).
FINISHES = {
    "stop": {"stop", "end_turn", "stop_sequence", "STOP", "completed", "pause_turn"},
    "tool_calls": {"tool_calls", "tool_use", "function_call"},
    "error": {
        "error",
        "failed",
        "UNEXPECTED_TOOL_CALL",
        "MALFORMED_FUNCTION_CALL",
        "malformed_model_output",
        "malformed_tool_use",
    },
    "length": {
        "length",
        "max_tokens",
        "MAX_TOKENS",
        "max_output_tokens",
        "model_length",
        "model_context_window_exceeded",
    },
    "content_filter": {
        "content_filter",
        "refusal",
        "SAFETY",
        "RECITATION",
        "PROHIBITED_CONTENT",
        "BLOCKLIST",
        "SPII",
        "MODEL_ARMOR",
        "guardrail_intervened",
        "content_filtered",
    },
}
# APIs that end a turn of tool calls as any other (Gemini: STOP; Responses: completed).
NO_TOOL_FINISH = frozenset({"google", "openai-responses"})
# Servers whose models may open an answer with their reasoning in `<think>` tags
# (Groq's raw reasoning format, Perplexity's and Cerebras' reasoning models).
THINK_TAGS = frozenset({"groq", "perplexity", "cerebras"})
SDK_APIS = ("anthropic", "openai", "openai-responses", "google", "mistral", "groq", "bedrock")
# The APIs whose SDK the testing kit answers whole only: boto3's, where AWS's
# event-stream encoder is not installed (before Python 3.12); the kit writes none by hand.
WHOLE_ONLY = frozenset() if can_write_event_streams() else frozenset({"bedrock"})


def kind(word: str | None) -> str | None:
    return next((name for name, words in FINISHES.items() if word in words), word)


@dataclass(eq=False)
class Said:
    """An answer's text, its tool calls `(name, arguments)` and its finish's kind."""

    text: str = ""
    calls: list[tuple[str, Any]] = field(default_factory=list)
    finish: str | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Said):
            return NotImplemented
        return self._compared() == other._compared()

    def _compared(self) -> tuple[Any, ...]:
        return self.text, [_freeform(*call) for call in self.calls], self.finish

    def as_told_by(self, api: str) -> Said:
        """What `api` says of the same answer: a tool-call finish is its stop where it has none."""
        finish = self.finish
        if api in NO_TOOL_FINISH and finish == "tool_calls":
            finish = "stop"
        return Said(self.text, list(self.calls), finish)


def _freeform(name: str, arguments: Any) -> tuple[str, Any]:
    """A free-form tool's call as a function's, where the API has no free-form
    tools (`<name>--freeform`, its text as `input`), is the call of `<name>`."""
    if name.endswith("--freeform") and isinstance(arguments, dict) and list(arguments) == ["input"]:
        return name.removesuffix("--freeform"), arguments["input"]
    return name, arguments


def _arguments(text: str) -> Any:
    return json.loads(text) if text.strip() else {}


# --- a recorded answer, from its wire ---


def recorded_answer(api: str, interaction: Interaction) -> Said:
    said = _recorded(api, interaction)
    if api in THINK_TAGS:
        said.text = _without_think(said.text)
    if api in NO_TOOL_FINISH and said.calls and said.finish == "stop":
        said.finish = "tool_calls"  # what an API with a word for it says
    return said


def _recorded(api: str, interaction: Interaction) -> Said:
    response = interaction.response
    if response.events is not None:
        payloads = response.stream_payloads()
        readers = {
            "anthropic": _anthropic_events,
            "anthropic-bedrock": _invoke_model_chunks,
            "bedrock": _converse_events,
            "openai-responses": _responses_events,
        }
        if api == "google":
            return _gemini_chunks(payloads)
        return readers.get(api, _chat_chunks)(payloads)
    body = response.json
    whole = {
        "anthropic": _anthropic_body,
        "anthropic-bedrock": _anthropic_body,
        "bedrock": _converse_body,
        "openai-responses": _responses_body,
    }
    if api == "google":  # a stream without `alt=sse` is one array of chunks
        return _gemini_chunks(body if isinstance(body, list) else [body])
    return whole.get(api, _chat_body)(body)


def _chat_text(content: Any) -> str:
    if isinstance(content, dict):  # Cloudflare's Workers AI answers JSON as an object
        return json.dumps(content, separators=(",", ":"), ensure_ascii=False)
    if isinstance(content, list):  # Mistral's chunks
        return "".join(chunk.get("text", "") for chunk in content if chunk.get("type") == "text")
    return content or ""


def _without_think(text: str) -> str:
    """The answer without the reasoning a model writes first inside `<think>` tags."""
    if text.lstrip().startswith("<think>") and "</think>" in text:
        return text.partition("</think>")[2].lstrip()
    return text


def _chat_call(call: dict[str, Any]) -> tuple[str, Any]:
    if call.get("type") == "custom":  # a free-form tool's input is its text
        return call["custom"]["name"], call["custom"]["input"]
    return call["function"]["name"], _arguments(call["function"].get("arguments", ""))


def _chat_body(body: Any) -> Said:
    choice = body["choices"][0]
    message = choice["message"]
    calls = [_chat_call(call) for call in message.get("tool_calls") or []]
    if message.get("function_call"):  # the older single call
        calls.append(_chat_call({"function": message["function_call"]}))
    text = _chat_text(message.get("content")) or message.get("refusal") or ""
    return Said(text, calls, kind(choice["finish_reason"]))


def _chat_chunks(payloads: list[Any]) -> Said:
    said, calls, by_index = Said(), [], {}
    for chunk in payloads:
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue  # the other choices asked for (`n`) are the answer's alternatives
            delta = choice.get("delta") or {}
            said.text += _chat_text(delta.get("content")) + (delta.get("refusal") or "")
            for position, call in enumerate(delta.get("tool_calls") or []):
                index = call.get("index", position)
                if call.get("id") or index not in by_index:  # a call's first delta has its id
                    # Mistral sends each call whole, several in a chunk, without an index.
                    calls.append(["", ""])
                    by_index[index] = calls[-1]
                held = by_index[index]
                held[0] += (call.get("function") or {}).get("name") or ""
                held[1] += (call.get("function") or {}).get("arguments") or ""
            if legacy := delta.get("function_call"):  # the older single call
                if legacy.get("name") or not calls:
                    calls.append(["", ""])
                calls[-1][0] += legacy.get("name") or ""
                calls[-1][1] += legacy.get("arguments") or ""
            if choice.get("finish_reason"):
                said.finish = kind(choice["finish_reason"])
    said.calls = [(name, _arguments(arguments)) for name, arguments in calls]
    return said


def _anthropic_body(body: Any) -> Said:
    blocks = body["content"]
    return Said(
        "".join(block["text"] for block in blocks if block["type"] == "text"),
        [(block["name"], block["input"]) for block in blocks if block["type"] == "tool_use"],
        kind(body["stop_reason"]),
    )


def _anthropic_events(payloads: list[Any]) -> Said:
    said, blocks = Said(), {}
    for event in payloads:
        if event["type"] == "content_block_start":
            blocks[event["index"]] = [event["content_block"], ""]
        elif event["type"] == "content_block_delta":
            delta = event["delta"]
            blocks[event["index"]][1] += delta.get("text", "") + delta.get("partial_json", "")
        elif event["type"] == "message_delta" and event["delta"].get("stop_reason"):
            said.finish = kind(event["delta"]["stop_reason"])
    for block, added in blocks.values():
        if block["type"] == "text":
            said.text += block.get("text", "") + added
        elif block["type"] == "tool_use":
            said.calls.append((block["name"], _arguments(added) if added else block["input"]))
    return said


def _invoke_model_chunks(payloads: list[Any]) -> Said:
    """An InvokeModel stream of Claude: each `chunk` an Anthropic event, base64 in `bytes`."""
    events = [json.loads(base64.b64decode(payload["chunk"]["bytes"])) for payload in payloads]
    return _anthropic_events(events)


def _converse_body(body: Any) -> Said:
    blocks = body["output"]["message"]["content"]
    return Said(
        "".join(map(_converse_text, blocks)),
        [
            (block["toolUse"]["name"], block["toolUse"]["input"])
            for block in blocks
            if "toolUse" in block and not _server_tool(block["toolUse"])
        ],
        kind(body["stopReason"]),
    )


def _server_tool(tool_use: dict[str, Any]) -> bool:
    """A call of the provider's own tool (Nova's code interpreter), which it runs
    itself: no call of the client's, as Anthropic's `server_tool_use` is none."""
    return tool_use.get("type") == "server_tool_use"


def _converse_text(block: dict[str, Any]) -> str:
    """A block's text: a text block's, or a cited answer's (`citationsContent.content`)."""
    if "citationsContent" in block:
        return "".join(item.get("text", "") for item in block["citationsContent"]["content"])
    return str(block.get("text", ""))


def _converse_events(payloads: list[Any]) -> Said:
    """A ConverseStream's events, as boto3 yields them: a tool call's input in pieces."""
    said, calls = Said(), {}
    for event in payloads:
        if start := event.get("contentBlockStart", {}).get("start", {}).get("toolUse"):
            if not _server_tool(start):
                calls[event["contentBlockStart"]["contentBlockIndex"]] = [start["name"], ""]
        elif delta := event.get("contentBlockDelta"):
            said.text += delta["delta"].get("text", "")
            if "toolUse" in delta["delta"] and delta["contentBlockIndex"] in calls:
                calls[delta["contentBlockIndex"]][1] += delta["delta"]["toolUse"]["input"]
        elif stop := event.get("messageStop"):
            said.finish = kind(stop["stopReason"])
    said.calls = [(name, _arguments(arguments)) for name, arguments in calls.values()]
    return said


def _responses_body(body: Any) -> Said:
    said = Said()
    for item in body["output"]:
        if item["type"] == "message":
            said.text += "".join(
                part.get("text") or part.get("refusal") or "" for part in item["content"]
            )
        elif item["type"] == "function_call":
            said.calls.append((item["name"], _arguments(item["arguments"])))
        elif item["type"] == "custom_tool_call":
            said.calls.append((item["name"], item["input"]))
    reason = (body.get("incomplete_details") or {}).get("reason")
    said.finish = kind(reason or body["status"])
    return said


def _responses_events(payloads: list[Any]) -> Said:
    ends = ("response.completed", "response.incomplete", "response.failed")
    return _responses_body(next(event["response"] for event in payloads if event["type"] in ends))


def _gemini_chunks(chunks: list[Any]) -> Said:
    said = Said()
    for chunk in chunks:
        for position, candidate in enumerate(chunk.get("candidates") or []):
            if candidate.get("index", position) != 0:
                continue  # the other candidates are the answer's alternatives
            for part in (candidate.get("content") or {}).get("parts") or []:
                if "text" in part and not part.get("thought"):
                    said.text += part["text"]
                if "functionCall" in part:
                    call = part["functionCall"]
                    said.calls.append((call["name"], call.get("args", {})))
            if candidate.get("finishReason"):
                said.finish = kind(candidate["finishReason"])
        if (chunk.get("promptFeedback") or {}).get("blockReason"):  # the question was blocked
            said.finish = "content_filter"
    return said


# --- each API's SDK, sending a body of its format ---


def _stainless(method: Any, body: dict[str, Any], **given: Any) -> Any:
    """The Stainless SDKs' call: the fields the method names, the rest as `extra_body`."""
    named = inspect.signature(method).parameters
    kwargs = {key: value for key, value in body.items() if key in named}
    extra = {key: value for key, value in body.items() if key not in named}
    return method(**kwargs, **given, extra_body=extra or None)


def send(api: str, body: dict[str, Any], stream: bool) -> Said:
    """`body`, of `api`'s format, sent by that API's SDK; what the SDK returned."""
    body = {key: value for key, value in body.items() if key not in {"stream", "stream_options"}}
    if api == "anthropic":
        client = anthropic.Anthropic(api_key="sk-test", max_retries=0)
        if stream:
            with _stainless(client.messages.stream, body) as events:
                return _from_sdk(_anthropic_body, events.get_final_message())
        return _from_sdk(_anthropic_body, _stainless(client.messages.create, body))
    if api in {"openai", "groq"}:
        sdk = openai.OpenAI if api == "openai" else groq.Groq
        create = sdk(api_key="sk-test", max_retries=0).chat.completions.create
        if stream:
            return _chat_chunks([_dumped(c) for c in _stainless(create, body, stream=True)])
        return _from_sdk(_chat_body, _stainless(create, body))
    if api == "openai-responses":
        create = openai.OpenAI(api_key="sk-test", max_retries=0).responses.create
        if stream:
            return _responses_events([_dumped(e) for e in _stainless(create, body, stream=True)])
        return _from_sdk(_responses_body, _stainless(create, body))
    if api == "mistral":
        chat = Mistral(api_key="sk-test").chat
        if stream:
            return _chat_chunks([_dumped(event.data) for event in chat.stream(**body)])
        return _from_sdk(_chat_body, chat.complete(**body))
    if api == "bedrock":
        return _converse_send(body, stream)
    assert api == "google", api
    return _gemini_send(body, stream)


# A model for the URL: a Converse body names none (the matcher compares none unless asked).
BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def _converse_send(body: dict[str, Any], stream: bool) -> Said:
    """The body through boto3's `converse` or `converse_stream`, as its user passes
    it: its blobs as bytes (read by the operation's input shape, `boto3_calls.parameters`)."""
    url = f"https://bedrock-runtime.us-east-1.amazonaws.com/model/{BEDROCK_MODEL}/converse"
    request = RecordedRequest("POST", url, {}, json.dumps(body).encode(), body)
    client = client_for(url)
    if stream:
        given = parameters(request, "ConverseStream")
        answer = client.converse_stream(modelId=BEDROCK_MODEL, **given)
        return _converse_events(list(answer["stream"]))
    answer = client.converse(modelId=BEDROCK_MODEL, **parameters(request, "Converse"))
    return _converse_body(as_json(answer))


def _gemini_send(body: dict[str, Any], stream: bool) -> Said:
    client = genai.Client(api_key="sk-test")  # kept: google-genai closes a client it frees
    top = {key: value for key, value in body.items() if key not in {"contents", "generationConfig"}}
    config = gtypes.GenerateContentConfig.model_validate(top | body.get("generationConfig", {}))
    kwargs = {"model": "gemini-replayed", "contents": body["contents"], "config": config}
    if stream:
        chunks = list(client.models.generate_content_stream(**kwargs))
    else:
        chunks = [client.models.generate_content(**kwargs)]
    return _gemini_chunks([_dumped(chunk) for chunk in chunks])


def _dumped(value: Any) -> Any:
    """An SDK object as the JSON it was read from (field names as on the wire)."""
    return value.model_dump(mode="json", by_alias=True, exclude_none=True)


def _from_sdk(reader: Any, value: Any) -> Said:
    return reader(_dumped(value))
