"""The numbers of the runner's policies (conformance/PROTOCOL.md, "Policies of
the runner"). Kept apart so that the command line can show them without
importing the runner."""
DEFAULT_TIMEOUT = 10.0            # seconds for each answer to run
DEFAULT_START_TIMEOUT = 30.0      # seconds for the answer to start, from the launch
STOP_GRACE = 2.0                  # seconds an implementation has to exit after stop
MAX_LINE = 64 * 1024 * 1024       # bytes: a longer line without a newline is not an answer
STDERR_LIMIT = 64 * 1024          # bytes of stderr kept per case; the rest is counted
QUOTE_LIMIT = 300                 # characters of an offending line quoted in a report
