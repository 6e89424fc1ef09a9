"""The other half of the drafter suite (``test_drafter_suite.suite_params``): every team-written reference
drafted, built and verified on every shape case, split over two files so two workers build them at once."""
from __future__ import annotations

import pytest

from tests.agent_graph.test_drafter_suite import _check, suite_params


@pytest.mark.slow
@pytest.mark.parametrize("name", suite_params(1))
def test_suite_other_half(name, tmp_path):
    _check(name, tmp_path)
