"""Shared test setup: keep the load cache and its signing key inside the test run, not in the user's home."""

import os
import tempfile

os.environ.setdefault("COGWORK_CACHE_DIR", tempfile.mkdtemp(prefix="cogwork-test-cache-"))
os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="cogwork-test-config-"))
