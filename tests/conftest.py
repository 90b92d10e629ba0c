"""Shared test set-up: the reference evaluator lives beside the tests."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

# Speed lives in benchmarks/, never in unit tests: no per-example deadline, so a loaded CI
# machine cannot turn a slow example into a failure (Hypothesis' default is 200 ms).
from hypothesis import settings

settings.register_profile("omaha", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "omaha"))

# A throwaway PostgreSQL server for the storage tests (issue 24): postgres_server (the admin
# URL), postgres_url (a fresh database per test), any_storage_url (sqlite and postgres).
from postgres_server import any_storage_url, postgres_server, postgres_url  # noqa: F401
