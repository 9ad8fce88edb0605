"""The ``evaltally`` command of the wheel: the same command line as the Rust executable."""

import signal
import sys

from . import _native


def main() -> None:
    """Runs ``evaltally`` with the process's arguments and exits with its status."""
    # Ctrl-C ends the command as it ends the Rust executable: Python's own handler would only
    # run once the native call returned.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # The native module's file tells this build's digest-cache entries from another's.
    sys.exit(_native.run_cli(["evaltally", *sys.argv[1:]], _native.__file__))


if __name__ == "__main__":
    main()
