#!/usr/bin/env python3
"""Run the naval campaign simulator: ``python run_campaign.py --help``."""

import sys

from campaign.cli import main

if __name__ == "__main__":
    sys.exit(main())
