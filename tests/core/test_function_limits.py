"""The function limits (tests/function_limits.py): over 80 lines or 8 parameters fails; make lint checks the tree."""

import sys

import pytest

from tests import function_limits
from tests.function_limits import main, violations


def function(lines: int, decorated: bool = False) -> str:
    """A function of ``lines`` lines from its ``def`` to its last, a docstring, a comment and a blank line among
    them (they count too)."""
    body = ['    """A docstring."""', "    # a comment", "", *["    x = 1"] * (lines - 4)]
    return "\n".join(["@staticmethod"] * decorated + ["def f():", *body]) + "\n"


def parameters(count: int, suffix: str = "") -> str:
    names = ", ".join(f"a{i}" for i in range(count - 1))
    return f"class C:\n    def m(self, {names}, _last, *args, **kwargs):{suffix}\n        pass\n"


@pytest.fixture
def write(tmp_path):
    def write(text: str) -> str:
        path = tmp_path / f"case{len(list(tmp_path.iterdir()))}.py"
        path.write_text(text)
        return str(path)

    return write


def test_a_function_over_eighty_lines_fails(write):
    over = write(function(81))
    found = violations([over])
    assert len(found) == 1 and found[0].startswith(f"{over}:1:") and "81 > 80" in found[0]
    assert main([over]) == 1


def test_eighty_lines_pass_and_decorators_do_not_count(write):
    assert violations([write(function(80)), write(function(80, decorated=True))]) == []


def test_nine_parameters_fail_even_with_noqa_or_an_underscore_name(write):
    """``self``, ``*args`` and ``**kwargs`` are not counted; a ``_``-named one is, and ``noqa`` does not hide it."""
    plain, hidden = write(parameters(9)), write(parameters(9, "  # noqa: PLR0913"))
    found = violations([plain, hidden])
    assert [line.split(":")[0] for line in found] == [plain, hidden]
    assert all("PLR0913" in line and "9 > 8" in line for line in found)
    assert violations([write(parameters(8))]) == []


def test_a_linter_that_cannot_run_is_an_error_not_a_clean_tree():
    """A missing linter exits 1 as one with findings does, but prints none: that is raised."""
    with pytest.raises(RuntimeError, match="no_such_linter"):
        function_limits._findings([sys.executable, "-m", "no_such_linter", "envs"])
