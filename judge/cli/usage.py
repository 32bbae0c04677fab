"""The exit codes every parser's help ends with; a module of its own so that ``--version`` imports none of the
commands."""

EPILOG = """exit codes:
  0  every case accepted (for generate/validate/verify: all good)
  1  judged, not accepted (for generate --check/validate/verify: differences found)
  2  bad usage, bad problem spec, missing files, unknown language
  3  judge error (a checker crashed, a reference failed, the judge itself failed)
"""
