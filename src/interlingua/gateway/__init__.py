"""`interlingua gateway`: any client's API in front of any provider, as a server.

A client (an Anthropic, OpenAI, Groq, Mistral or Google SDK, Claude Code) talks to the
gateway in its own API's format; the gateway routes the model it asks for to
an upstream (`provider:model`, from the configuration or the model string
itself), sends the request through interlingua's client over that provider's
SDK, and answers in the client's format, streams translated one event at a
time. Providers are reached through the registry only (`get_adapter`,
`get_client_class`), so an adapter installed beside the gateway is one more
upstream, and one more client API at `/<its name>/...`.

The modules, one concept each:

    _config    the TOML configuration, validated (the bad key named)
    _apis      which API at which path; errors and model lists in a client's format
    _upstream  routes, SDK clients per upstream (readied at start-up), the call with its fallbacks
    _stream    a stream answered live; a broken one ends with the API's error event
    _count     Anthropic's and Gemini's token counts, where the upstream can answer them
    _errors    the gateway's own refusals, as typed errors
    _log       the line logged per request
    _app       the ASGI app: keys, body limits, handlers, headers
    _serve     running it under uvicorn (`--workers`, `--replay`)

Nothing here is imported by `interlingua` itself: the server's libraries
(Starlette, uvicorn) load only when the gateway is used.
"""

from __future__ import annotations

from interlingua.gateway._app import create_app
from interlingua.gateway._config import KEYS_VARIABLE, ConfigError, GatewayConfig, load
from interlingua.gateway._serve import serve

__all__ = ["KEYS_VARIABLE", "ConfigError", "GatewayConfig", "create_app", "load", "serve"]
