"""Running the gateway under uvicorn: `serve(...)` is `interlingua gateway`.

The gateway keeps no state between requests, so it scales by processes:
`workers` starts that many, each the same app, built in the worker from the
settings this process checked first and passed on in the environment.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from starlette.applications import Starlette

from interlingua.gateway._app import create_app
from interlingua.gateway._config import load
from interlingua.gateway._log import LOGGER

__all__ = ["app_from_environment", "serve"]

_CONFIG = "INTERLINGUA_GATEWAY_CONFIG"
_REPLAY = "INTERLINGUA_GATEWAY_REPLAY"
_LOG = "INTERLINGUA_GATEWAY_LOG"


def serve(
    config: str | Path | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    replay: str | Path | None = None,
    log: str | None = None,
) -> None:
    """Serve the gateway until interrupted; the configuration is checked first."""
    import uvicorn

    overrides = {"log": log} if log else {}
    settings = load(config, **overrides)
    create_app(settings, replay=replay)  # its errors (no keys) before any worker starts
    os.environ[_CONFIG] = str(Path(config).resolve()) if config else ""
    os.environ[_REPLAY] = str(Path(replay).resolve()) if replay else ""
    os.environ[_LOG] = settings.log
    uvicorn.run(
        "interlingua.gateway._serve:app_from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,  # the gateway logs a line of its own per request
        log_level="info",
    )


def app_from_environment() -> Starlette:
    """The app of one worker, from what `serve` passed on."""
    settings = load(os.environ.get(_CONFIG) or None, log=os.environ.get(_LOG) or "human")
    log_to_stderr()
    return create_app(settings, replay=os.environ.get(_REPLAY) or None)


def log_to_stderr() -> None:
    """The request lines on standard error, as they are."""
    if not LOGGER.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.setLevel(logging.INFO)
        LOGGER.propagate = False
