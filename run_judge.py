#!/usr/bin/env python3
"""Entry point: ``python run_judge.py --help``. All the work is in the ``judge`` package."""

import sys

from judge.cli import main

if __name__ == "__main__":
    sys.exit(main())
