"""The public names: everything in `__all__` exists, and the core stays provider-free."""

from __future__ import annotations

import subprocess
import sys

import interlingua
import interlingua.codec
import interlingua.testing


def test_every_exported_name_exists() -> None:
    for module in (interlingua, interlingua.codec, interlingua.testing):
        missing = [name for name in module.__all__ if not hasattr(module, name)]
        assert missing == [], module.__name__


def test_the_design_names_are_exported() -> None:
    contract = {
        "TextPart", "FilePart", "ReasoningPart", "ToolCallPart", "ToolResultPart", "ContentPart",
        "Message", "ToolSpec", "ToolChoice", "ChatRequest", "ChatResponse", "FinishReason",
        "TokenUsage", "StreamEvent", "accumulate", "ChatHistory", "sanitize", "InterlinguaError",
        "InvocationContext", "MessageTemplate", "Adapter", "get_adapter", "TranslationLoss",
    }  # fmt: skip
    assert contract <= set(interlingua.__all__)


def test_importing_the_core_imports_no_provider_sdk_and_no_yaml() -> None:
    code = (
        "import sys, interlingua, interlingua.codec, interlingua.testing\n"
        "heavy = {'openai', 'anthropic', 'mistralai', 'groq', 'httpx', 'httpx2', 'yaml'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
