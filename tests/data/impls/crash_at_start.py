"""Dies before answering start, with a traceback on stderr."""
import sys

sys.stderr.write("Traceback (most recent call last):\n  File \"impl.py\", line 1\nRuntimeError: boom at start\n")
sys.exit(3)
