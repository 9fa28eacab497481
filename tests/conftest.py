"""Shared fixtures. Ray is never started here; tests that need it use ``ray_session``."""

import os

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
