"""Answers like the reference but writes noise to stderr all the time, control
characters and bytes that are not UTF-8 included."""
import sys

import _ref

sys.stderr.write("noise: starting up\n")
sys.stderr.flush()


def hook(message):
    sys.stderr.write(f"noise: got {message.get('cmd')} {message.get('id', '')}\x00\x1b[31m\n")
    sys.stderr.flush()
    sys.stderr.buffer.write(b"noise: \xff\xfe bytes\n")
    sys.stderr.flush()


_ref.serve(hook)
