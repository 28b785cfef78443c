"""The `interlingua` command: `demo`, `convert`, `validate`, `inspect` and `gateway`.

Exit statuses: 0 done; 1 a finding (`validate` found problems, `convert
--strict` met a loss, the demo's signature proof failed); 2 a usage or input
error, said in one line on standard error (`--debug` shows the traceback).

`--strict` takes an optional level: alone (or `--strict any`) any loss counts,
`--strict setting` a loss of a setting or content, `--strict content` a loss
of content alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from typer.core import TyperCommand

from interlingua._errors import TranslationError
from interlingua._report import Strictness
from interlingua.cli._files import InputError, one_line, read

if TYPE_CHECKING:
    from interlingua.cli._convert import Converted

__all__ = ["app", "main"]

T = TypeVar("T")

app = typer.Typer(
    name="interlingua",
    help="Translate LLM chat requests, answers, streams and histories between providers.",
    epilog="Example: interlingua demo",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Color(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class Level(str, Enum):
    """The losses `--strict` counts: `any`, or those of a level and above."""

    any = "any"
    setting = "setting"
    content = "content"


def strictness(level: Level | None) -> Strictness:
    """`--strict`'s level as `TranslationReport.strict` takes it."""
    if level is None:
        return False
    return True if level is Level.any else level.value


class OptionalLevel(TyperCommand):
    """A command whose `--strict` may come without its level: alone it is `--strict any`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        levels = {level.value for level in Level}
        given: list[str] = []
        for index, arg in enumerate(args):
            given.append(arg)
            if arg == "--strict" and (index + 1 == len(args) or args[index + 1] not in levels):
                given.append(Level.any.value)
        return super().parse_args(ctx, given)


Strict = Annotated[
    Level | None,
    typer.Option(
        "--strict",
        metavar="[LEVEL]",
        help="Fail (status 1) on a loss: any (the default), or from a level up: setting, content.",
        show_default=False,
    ),
]
Debug = Annotated[bool, typer.Option("--debug", help="Show the traceback of an error.")]
FileArg = Annotated[str, typer.Argument(metavar="FILE", help="The input file, or - for stdin.")]
Target = Annotated[
    str,
    typer.Option("--to", metavar="B", help="The target API's adapter (convert: or neutral)."),
]
Origin = Annotated[
    str | None,
    typer.Option("--from", metavar="A", help="The input's API (not needed for a history)."),
]
Model = Annotated[
    str | None, typer.Option("--model", help="The model to ask for (a history names none).")
]
JsonFlag = Annotated[bool, typer.Option("--json", help="One JSON document, for machines.")]


def _fail(command: str, message: str, status: int) -> NoReturn:
    typer.echo(f"interlingua {command}: {message}", err=True)
    raise typer.Exit(status)


def _guarded(command: str, debug: bool, action: Callable[[], T]) -> T:
    """`action`'s result; an error becomes one line and exit status 2 (a
    strict loss 1), or, with `--debug`, its traceback."""
    try:
        return action()
    except (typer.Exit, KeyboardInterrupt):
        raise
    except Exception as error:
        if debug:
            raise
        if isinstance(error, TranslationError):
            _fail(command, f"strict: {error}", 1)
        if isinstance(error, InputError):
            _fail(command, str(error), 2)
        _fail(command, f"{type(error).__name__}: {one_line(error)}", 2)


@app.command(epilog="Example: interlingua demo | less   (or: interlingua demo --json)")
def demo(
    json_output: JsonFlag = False,
    fixture: Annotated[
        Path | None,
        typer.Option(help="The recording to replay.", show_default="fixtures/journey.json"),
    ] = None,
    color: Annotated[Color, typer.Option(help="Colour the tables.")] = Color.auto,
    debug: Debug = False,
) -> None:
    """Replay one conversation across eight APIs, each through its SDK client: no key, no network.

    The conversation goes from Anthropic to Chat Completions, Mistral, Groq,
    Gemini, the Responses API, DeepSeek and Claude on Amazon Bedrock (through
    boto3), and back to Anthropic. Each turn shows what the history held, what
    was sent, what the target left out or changed and why, the answer and its
    usage; at the end the total usage, and the proof that Claude's signed
    thinking, Anthropic's and Bedrock's, came back to Anthropic unchanged.
    """
    from interlingua.cli._demo import find_fixture, run_demo
    from interlingua.cli._demo_view import demo_json, show_demo

    played = _guarded("demo", debug, lambda: run_demo(find_fixture(fixture)))
    if json_output:
        typer.echo(_dumps(demo_json(played)))
    else:
        show_demo(played, _console(color))
    if played.proof is None or not played.proof.unchanged:
        raise typer.Exit(1)


@app.command(
    cls=OptionalLevel,
    epilog="Example: interlingua convert --from anthropic --to openai request.json > openai.json"
    "   (a cassette: interlingua convert --to neutral cassette.yaml > neutral.json)",
)
def convert(
    file: FileArg,
    target: Target,
    origin: Origin = None,
    model: Model = None,
    strict: Strict = None,
    debug: Debug = False,
) -> None:
    """Convert a request body, an answer body, a recorded stream or a saved
    history to another API's format: the JSON on standard output, what the
    target could not take on standard error, each with its level (content,
    setting or hint).

    Adapters: anthropic, openai (Chat Completions), openai-responses, mistral, groq, google.
    A stream is server-sent events (data: lines) or a JSON array of payloads.

    --to neutral converts a cassette (vcrpy, pytest-recording, interlingua's
    recordings) to a provider-neutral one: each call's request and answer in
    the core's terms, with the provider and model it was recorded from (no
    --from: each call's API is found by its URL). Calls no adapter reads are
    left out and named on standard error.
    """
    from interlingua.cli._convert import NEUTRAL, to_neutral
    from interlingua.cli._convert import convert as run

    def converting() -> Converted:
        if target == NEUTRAL:
            return to_neutral(file)
        return run(read(file), origin=origin, target=target, strict=strictness(strict), model=model)

    converted = _guarded("convert", debug, converting)
    sys.stdout.write(converted.output)
    for loss in converted.losses:
        typer.echo(loss.described(), err=True)
    for note in converted.notes:
        typer.echo(note, err=True)


@app.command(
    cls=OptionalLevel,
    epilog="Example: interlingua validate --from anthropic --to mistral request.json",
)
def validate(
    file: FileArg,
    target: Target,
    origin: Origin = None,
    model: Model = None,
    strict: Strict = None,
    debug: Debug = False,
) -> None:
    """List what the target API would refuse in a request body or a saved
    history, one problem a line with its place and level; exit status 1 if
    there are any (with `--strict LEVEL`, any of that level or above).
    """
    from interlingua.cli._convert import describe_problem
    from interlingua.cli._convert import validate as run

    problems = _guarded(
        "validate",
        debug,
        lambda: run(
            read(file),
            origin=origin,
            target=target,
            model=model,
            strict=strictness(strict or Level.any),
        ),
    )
    for problem in problems:
        typer.echo(describe_problem(problem))
    if problems:
        raise typer.Exit(1)
    typer.echo(f"{file}: nothing {target} would refuse", err=True)


@app.command(epilog="Example: interlingua inspect fixtures/journey.json")
def inspect(
    file: FileArg,
    json_output: JsonFlag = False,
    color: Annotated[Color, typer.Option(help="Colour the summary.")] = Color.auto,
    debug: Debug = False,
) -> None:
    """Summarise a cassette (vcrpy, pytest-recording, interlingua's own
    recordings) or a saved history: its turns, parts, tool calls, reasoning
    and usage.
    """
    from interlingua.cli._inspect import inspect_file, show_summary, summary_json

    summary = _guarded("inspect", debug, lambda: inspect_file(file))
    if json_output:
        typer.echo(_dumps(summary_json(summary)))
    else:
        show_summary(summary, _console(color))


class LogFormat(str, Enum):
    human = "human"
    json = "json"


@app.command(
    epilog="Example: INTERLINGUA_GATEWAY_KEYS=demo interlingua gateway "
    "--replay fixtures/openai/chat_tool_round_trip.json"
)
def gateway(
    config: Annotated[
        Path | None, typer.Option("--config", help="The routing configuration (TOML).")
    ] = None,
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Processes serving (it is stateless).")] = 1,
    replay: Annotated[
        Path | None,
        typer.Option(help="Answer every upstream from this recording: no key, no network."),
    ] = None,
    log: Annotated[
        LogFormat | None,
        typer.Option(help="The line per request.", show_default="the config's"),
    ] = None,
    debug: Debug = False,
) -> None:
    """Serve each client API in its own format (POST /v1/messages, /v1/chat/completions,
    /v1/responses, /<adapter>/..., GET /v1/models) from any provider.

    Clients present a gateway key (x-api-key or Authorization: Bearer), one of the
    config's `keys` or of INTERLINGUA_GATEWAY_KEYS (comma-separated).
    """
    from interlingua.gateway import ConfigError, serve

    def run() -> None:
        if replay is not None and not replay.is_file():
            raise InputError(f"{replay}: no such file (the recording to replay)")
        try:
            serve(
                config,
                host=host,
                port=port,
                workers=workers,
                replay=replay,
                log=log.value if log else None,
            )
        except ConfigError as error:
            raise InputError(str(error)) from error

    _guarded("gateway", debug, run)


def _console(color: Color) -> Console:
    """A console for standard output: colour where it is a terminal (`auto`)."""
    force = {Color.auto: None, Color.always: True, Color.never: False}[color]
    return Console(force_terminal=force, no_color=color is Color.never or None, highlight=False)


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, indent=2, ensure_ascii=False)


def main() -> None:
    """The console script's entry point."""
    app()
