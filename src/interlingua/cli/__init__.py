"""The `interlingua` command line: `demo`, `convert`, `validate`, `inspect`.

Needs the `cli` extra (`pip install "interlingua[cli]"`: typer and rich, and
the testing kit the demo replays through); the codecs never import it.
`python -m interlingua.cli` runs it too.
"""

from interlingua.cli._app import app, main

__all__ = ["app", "main"]
