"""kgen chat tests run their Pilot coroutines with anyio's pytest plugin (anyio comes with httpx)."""
import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"
