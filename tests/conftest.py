import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# one-position forward passes of the shipped networks: BLAS threads only add contention (as in scripts/cli.py)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


import pytest  # noqa: E402 (after the environment above, which pygame reads on import)


@pytest.fixture(scope="session", autouse=True)
def sb3_log_folder(tmp_path_factory):
    """The tests' own SB3 models (``verbose=0``, no tensorboard) log into one folder under pytest's temporary
    directory, not into a new ``SB3-<date>`` folder of the system's for each ``learn()``."""
    folder = tmp_path_factory.mktemp("sb3_logs")
    previous = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = previous
