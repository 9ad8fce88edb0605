"""The ``evaltally`` command of the wheel: the same command line as the Rust executable."""

import sys

from . import _native


def main() -> None:
    """Runs ``evaltally`` with the process's arguments and exits with its status."""
    # The native module's file tells this build's digest-cache entries from another's.
    sys.exit(_native.run_cli(["evaltally", *sys.argv[1:]], _native.__file__))


if __name__ == "__main__":
    main()
