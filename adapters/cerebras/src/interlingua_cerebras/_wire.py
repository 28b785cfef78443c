"""Cerebras' chat completions wire: its name and address. The shapes are the
Chat Completions codec's (`interlingua_chat_completions._wire`); what the codec
keeps lives in `provider_data["cerebras"]` (a response's `time_info` among it).
"""

from __future__ import annotations

__all__ = ["API_KEY_VARIABLE", "BASE_URL", "PROVIDER", "THINK_TAG_MODELS"]

PROVIDER = "cerebras"
BASE_URL = "https://api.cerebras.ai/v1"
API_KEY_VARIABLE = "CEREBRAS_API_KEY"
# The models whose raw reasoning format is `<think>...</think>` before the answer
# (GLM and Qwen), as Cerebras' reasoning guide says.
THINK_TAG_MODELS = ("zai-glm", "qwen")
