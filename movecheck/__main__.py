"""`python -m movecheck` runs the command line."""

from movecheck.cli import main

raise SystemExit(main())
