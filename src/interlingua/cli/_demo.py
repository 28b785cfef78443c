"""`interlingua demo`: one conversation moved across eight APIs.

An application keeps one `ChatHistory` and sends it, turn by turn, to the API
it wants next, each through interlingua's client over that provider's real SDK
client, built as an application builds it (a key and nothing else; for Amazon
Bedrock a boto3 client with AWS credentials and a region, which signs each
request), answered by `interlingua.testing.replay` from `fixtures/journey.json`
(written by hand in the shape of real traffic: no provider was called to make
it; boto3's requests are answered through botocore, as the testing kit answers
them). The replay matches every request on its method, URL and whole body, so
each turn proves that the body sent is the recorded one.

Claude's signed thinking crosses platforms (Anthropic's extended-thinking
guide: signatures made on the Claude API work on Amazon Bedrock, and the other
way round): Anthropic's first answer's thinking goes to Claude on Bedrock's
Converse API, and Claude's thinking there goes back to Anthropic with
Anthropic's own, each byte for byte (`SignatureProof`).

The conversation's script is here: which API each turn goes to, the settings
of its request, the tool results the application supplies and the user's
follow-ups. A provider joins the conversation with an `Ask` step and its
settings alone: its client is found through the registry, by provider name
(DeepSeek's, over the `openai` SDK, like any other). The fixture ships with
the repository, not with the wheel: the demo finds it beside the package's
source (a clone, or an editable install), then in `fixtures/` below the
working folder; `--fixture PATH` names another.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interlingua._clients import get_client_class
from interlingua._errors import AdapterNotFoundError
from interlingua._history import ChatHistory
from interlingua._messages import Message
from interlingua._report import TranslationLoss, TranslationReport
from interlingua._request import ChatRequest, ReasoningConfig
from interlingua._response import ChatResponse
from interlingua._tools import ToolSpec
from interlingua.cli._files import DISTRIBUTIONS, InputError
from interlingua.client import SDKOptions

__all__ = [
    "FIXTURE",
    "PROVIDERS",
    "SCRIPT",
    "Demo",
    "DemoTurn",
    "SignatureProof",
    "SignedThinking",
    "find_fixture",
    "run_demo",
]

FIXTURE = Path("fixtures") / "journey.json"

SYSTEM = (
    "You are a travel assistant. Use the tools for live weather, "
    "and answer in one or two sentences."
)
WEATHER = ToolSpec(
    name="get_weather",
    description="The current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
FORECAST = ToolSpec(
    name="get_forecast",
    description="The weather forecast for a city, today or tomorrow.",
    parameters={
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "day": {"type": "string", "enum": ["today", "tomorrow"]},
        },
        "required": ["city", "day"],
    },
)

# Each API's settings for its turn's request (the history and the tools aside).
SETTINGS: dict[str, dict[str, Any]] = {
    "anthropic": {
        "model": "claude-sonnet-4-6",
        "max_tokens": 4096,
        "reasoning": ReasoningConfig(budget_tokens=2048),
    },
    "openai": {"model": "gpt-4.1", "max_tokens": 1024},
    "mistral": {"model": "mistral-large-latest", "max_tokens": 1024},
    "groq": {
        "model": "openai/gpt-oss-120b",
        "max_tokens": 1024,
        "reasoning": ReasoningConfig(effort="low"),
    },
    "google": {
        "model": "gemini-3-flash-preview",
        "max_tokens": 1024,
        "reasoning": ReasoningConfig(effort="low"),
        # Gemini's thought summaries: a setting Gemini alone has, sent as it is.
        "provider_options": {
            "google": {"generationConfig": {"thinkingConfig": {"includeThoughts": True}}}
        },
    },
    "openai-responses": {
        "model": "gpt-5-mini",
        "reasoning": ReasoningConfig(effort="low"),
        "provider_options": {
            "openai-responses": {"include": ["reasoning.encrypted_content"], "store": False}
        },
    },
    # Thinking mode is deepseek-v4-flash's default: nothing to ask for.
    "deepseek": {"model": "deepseek-v4-flash", "max_tokens": 1024},
    # Claude on Amazon Bedrock's Converse API, through a US cross-region inference profile.
    "bedrock": {
        "model": "us.anthropic.claude-sonnet-4-6",
        "max_tokens": 4096,
        "reasoning": ReasoningConfig(budget_tokens=2048),
    },
}


@dataclass(frozen=True)
class Ask:
    """Send the whole history to `provider`; its answer is appended."""

    provider: str


@dataclass(frozen=True)
class Say:
    """The user writes `text`."""

    text: str


@dataclass(frozen=True)
class RunTools:
    """The application answers each call of the last answer, in order."""

    results: tuple[str, ...]


Step = Ask | Say | RunTools

SCRIPT: tuple[Step, ...] = (
    Say(
        "I fly from Lisbon to Oslo tomorrow morning. "
        "What is the weather like in both cities right now?"
    ),
    Ask("anthropic"),
    RunTools(
        (
            '{"city": "Lisbon", "condition": "light rain", "temperature_c": 14, "wind_kmh": 20}',
            '{"city": "Oslo", "condition": "snow", "temperature_c": -3, "wind_kmh": 9}',
        )
    ),
    Ask("openai"),
    Say("Will it still be snowing in Oslo when I land tomorrow afternoon?"),
    Ask("mistral"),
    RunTools(
        (
            '{"city": "Oslo", "day": "tomorrow", "forecast": "snow showers until 14:00, '
            'then cloudy", "high_c": -1, "low_c": -6}',
        )
    ),
    Ask("groq"),
    Say("What should I pack for the two cities?"),
    Ask("google"),
    RunTools(
        (
            '{"city": "Lisbon", "day": "tomorrow", "forecast": "light rain until 10:00, '
            'then sunny spells", "high_c": 17, "low_c": 12}',
        )
    ),
    Ask("openai-responses"),
    Say("Will the morning rain in Lisbon hold up my flight?"),
    Ask("deepseek"),
    Say("How much colder will Oslo be than Lisbon when I land?"),
    Ask("bedrock"),
    Say("Thanks! Sum up the weather for my trip in one sentence."),
    Ask("anthropic"),
)


@dataclass(frozen=True)
class DemoTurn:
    """One call: the provider, the history as it stood, the request, the body
    sent and where to, what the target left out or changed, and the answer."""

    provider: str
    history: tuple[Message, ...]
    request: ChatRequest
    endpoint: str
    sent: Any
    losses: tuple[TranslationLoss, ...]
    response: ChatResponse


@dataclass(frozen=True)
class SignedThinking:
    """Claude's signed thinking as a turn's answer wrote it (Anthropic's
    `thinking` block, or Converse's `reasoningContent`), and the block of the
    last Anthropic request that holds its signature (None where none does)."""

    made_by: str
    made_in_turn: int
    made: dict[str, Any]
    thinking: str
    signature: str
    sent_back: dict[str, Any] | None
    on_the_wire: bool
    """Whether the signature is in the bytes of the request the SDK sent."""

    @property
    def unchanged(self) -> bool:
        back = {"type": "thinking", "thinking": self.thinking, "signature": self.signature}
        return self.sent_back == back and self.on_the_wire


@dataclass(frozen=True)
class SignatureProof:
    """Claude's signed thinking made before the last Anthropic turn (on
    Anthropic's API or on Bedrock), each as that turn sent it back."""

    sent_back_in_turn: int
    signed: tuple[SignedThinking, ...]
    reasoning_sent: int
    """How many thinking blocks that request holds (as many as `signed`: no other provider's)."""

    @property
    def unchanged(self) -> bool:
        every = all(thinking.unchanged for thinking in self.signed)
        return bool(self.signed) and every and self.reasoning_sent == len(self.signed)


@dataclass
class Demo:
    """The conversation and the turns it took."""

    fixture: Path
    history: ChatHistory = field(default_factory=lambda: ChatHistory(messages=[]))
    turns: list[DemoTurn] = field(default_factory=list)
    proof: SignatureProof | None = None


def find_fixture(given: Path | None = None) -> Path:
    """The recording the demo replays (module docstring)."""
    if given is not None:
        if not given.is_file():
            raise InputError(f"{given}: no such file (the demo's conversation)")
        return given
    for base in (Path(__file__).resolve().parents[3], Path.cwd()):
        if (base / FIXTURE).is_file():
            return base / FIXTURE
    raise InputError(
        f"the demo's conversation ({FIXTURE}) ships with the repository, "
        "not the package: run the demo in a clone, or pass --fixture PATH"
    )


DEMO_KEY = "demo-key"  # replayed: no request leaves the machine
# boto3 signs its requests (SigV4) with AWS credentials, in a region: these,
# fake and static, are all it needs here (the signature is never checked).
AWS_REGION = "us-east-1"
AWS_CREDENTIALS = {"aws_access_key_id": "AKIDEXAMPLE", "aws_secret_access_key": "demo-secret"}


# The APIs the script calls, in the order it first calls them.
PROVIDERS = tuple(dict.fromkeys(step.provider for step in SCRIPT if isinstance(step, Ask)))


def check_installed() -> None:
    """Every adapter and SDK the script calls is there, or the command that installs it is named."""
    missing = sorted(
        {DISTRIBUTIONS[provider] for provider in PROVIDERS if not _has_client(provider)}
    )
    if missing:
        raise InputError(
            f"the demo needs {', '.join(missing)}: pip install {' '.join(missing)} "
            "(in a clone, `uv run interlingua demo` installs them all)"
        )


def _has_client(provider: str) -> bool:
    try:
        get_client_class(provider)
    except (AdapterNotFoundError, ImportError):
        return False
    return True


def _client(provider: str) -> Any:
    """The provider's client over its SDK, found through the registry, built as an
    application builds it: a key and nothing else, or for Bedrock AWS credentials
    and a region (no retries: it is replayed)."""
    client = get_client_class(provider)
    if provider != "bedrock":
        return client.connect(SDKOptions(api_key=DEMO_KEY, max_retries=0))
    options = client.binding.options(SDKOptions(region=AWS_REGION, max_retries=0))
    return client(**options, **AWS_CREDENTIALS)


@contextmanager
def _clients() -> Iterator[dict[str, Any]]:
    with ExitStack() as stack:
        built = {}
        for provider in PROVIDERS:
            built[provider] = _client(provider)
            stack.callback(built[provider].close)
        yield built


def run_demo(fixture: Path) -> Demo:
    """The script played against the recording: each turn through its SDK."""
    check_installed()
    from interlingua.testing import replay

    demo = Demo(fixture, ChatHistory(messages=[Message.system(SYSTEM)]))
    with replay(fixture) as recording, _clients() as clients:
        for step in SCRIPT:
            _play(step, demo, clients, recording)
        demo.proof = _proof(demo, recording)
    return demo


def _play(step: Step, demo: Demo, clients: dict[str, Any], recording: Any) -> None:
    history = demo.history
    if isinstance(step, Say):
        history.add_message(Message.user(step.text))
    elif isinstance(step, RunTools):
        calls = history.last_message.tool_calls
        for call, result in zip(calls, step.results, strict=True):
            history.add_message(Message.tool_result(call.id, result))
    else:
        messages = tuple(history.messages)
        request = ChatRequest(
            messages=messages, tools=(WEATHER, FORECAST), **SETTINGS[step.provider]
        )
        report = TranslationReport(target=step.provider)
        response = clients[step.provider].complete(request, report=report)
        sent = recording.requests[-1]
        endpoint = f"{sent.method} {sent.url.host}{sent.url.path}"
        demo.turns.append(
            DemoTurn(
                step.provider,
                messages,
                request,
                endpoint,
                recording.sent[-1],
                tuple(report.losses),
                response,
            )
        )
        history.add_response(response)


# The APIs whose answers hold Claude's signed thinking.
_CLAUDE = ("anthropic", "bedrock")


def _proof(demo: Demo, recording: Any) -> SignatureProof | None:
    """Where Claude's signed thinking, as each answer before the last Anthropic
    turn wrote it, went back to Anthropic in that turn, and how."""
    made_in = [i for i, turn in enumerate(demo.turns) if turn.provider in _CLAUDE]
    last = max((i for i in made_in if demo.turns[i].provider == "anthropic"), default=0)
    if last == 0:
        return None
    reasoning = _thinking_blocks(demo.turns[last].sent.get("messages", []))
    by_signature = {block.get("signature"): block for block in reasoning}
    sent = recording.requests[last].content
    signed = [
        SignedThinking(
            turn.provider,
            index + 1,
            block,
            thinking,
            signature,
            by_signature.get(signature),
            signature.encode() in sent,
        )
        for index, turn in ((i, demo.turns[i]) for i in made_in if i < last)
        for block, thinking, signature in _signed(_answer(turn, recording), turn.provider)
    ]
    return SignatureProof(last + 1, tuple(signed), len(reasoning))


def _answer(turn: DemoTurn, recording: Any) -> dict[str, Any]:
    """The answer recorded to the turn's request, as it was written."""
    return next(
        interaction.response.json
        for interaction in recording.interactions
        if interaction.request is not None and interaction.request.json == turn.sent
    )


def _signed(answer: dict[str, Any], provider: str) -> list[tuple[dict[str, Any], str, str]]:
    """Each signed thinking block of a Claude answer as it wrote it, its text and signature."""
    if provider == "anthropic":
        return [
            (block, block["thinking"], block["signature"])
            for block in answer.get("content", [])
            if block.get("type") == "thinking" and block.get("signature")
        ]
    signed = []
    for block in answer.get("output", {}).get("message", {}).get("content", []):
        text = block.get("reasoningContent", {}).get("reasoningText", {})
        if text.get("signature"):
            signed.append((block, text["text"], text["signature"]))
    return signed


def _thinking_blocks(messages: list[Any]) -> list[dict[str, Any]]:
    return [
        block
        for message in messages
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") in {"thinking", "redacted_thinking"}
    ]
