"""python -m canastra_cli: the same as the `canastra` command."""
import sys

from .cli import main

sys.exit(main())
