"""The numbers of the runner's policies (conformance/PROTOCOL.md, "Policies of
the runner"). Kept apart so that the command line can show them without
importing the runner."""
DEFAULT_TIMEOUT = 10.0            # seconds for each answer to run
DEFAULT_START_TIMEOUT = 30.0      # seconds for the answer to start, from the launch
STOP_GRACE = 2.0                  # seconds an implementation has to exit after stop
MAX_LINE = 16 * 1024 * 1024       # bytes: a longer line without a newline is not an answer
STDERR_LIMIT = 64 * 1024          # bytes of stderr kept per case; the rest is counted
STDERR_RUN_LIMIT = 16 * 1024 * 1024   # bytes of stderr kept in all; past them, a case keeps its last...
STDERR_LATE_LIMIT = 4 * 1024      # ...bytes
QUOTE_LIMIT = 300                 # characters of an offending line quoted in a report
KEPT_VALUE = 4 * 1024             # characters (as JSON) of an answer's value kept in a mismatch; a larger one
                                  # is kept as a short preview
MESSAGE_LIMIT = 4 * 1024          # characters of an answer's message kept
