"""Cerebras' dialect of Chat Completions, and the codec bound to it.

What Cerebras does its own way: reasoning in the assistant's `reasoning` field
(`reasoning_format: "parsed"`, the default), or in `<think>` tags at the start
of its content (`"raw"`, GLM and Qwen), both a `ReasoningPart` of provider
`cerebras`; reasoning going back to a GLM or Qwen model in its `<think>` form
(`_parts`); a response's `time_info` (kept as it came); and, as data, the
`user` field, no `refusal` or `annotations` in a message, no `logprobs` in a
choice, no audio or document parts, and the usage of a stream on the chunk
that finishes it. `reasoning_effort` (`"none"` turns GLM's
reasoning off) is the request's reasoning effort, sent as it came.
"""

from __future__ import annotations

from interlingua_cerebras._parts import CerebrasPartEncoder
from interlingua_cerebras._wire import PROVIDER
from interlingua_chat_completions import ChatCompletionsCodec, ChatCompletionsDialect

__all__ = ["CEREBRAS", "CODEC"]

CEREBRAS = ChatCompletionsDialect(
    provider=PROVIDER,
    reasoning_field="reasoning",
    think_tags=True,
    part_encoder=CerebrasPartEncoder,
    user_field="user",
    message_defaults={},
    choice_defaults={},
    refusal_field=False,
    audio_formats={},
    document_parts=False,
    usage_chunk=False,
)
CODEC = ChatCompletionsCodec(CEREBRAS)
