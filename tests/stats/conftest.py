"""Close every figure a test drew, so that plot tests don't pile up open figures."""
import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
