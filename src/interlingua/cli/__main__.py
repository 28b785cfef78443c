"""`python -m interlingua.cli`."""

from interlingua.cli._app import main

main()
