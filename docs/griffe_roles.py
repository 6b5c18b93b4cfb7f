"""A griffe extension for the API reference: the code's docstrings use reST roles (``:class:`Engine```,
``:func:`~envs.core.batched.next_u64```) and ``::`` before literal blocks, which Markdown shows as written. Each
role becomes inline code of its target (the last part only with ``~``), ``::`` a colon and ``>>>`` examples
code blocks."""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|obj|exc|const):`(~?)([^`]+)`")


def _code(match: re.Match) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def fence_examples(text: str) -> str:
    """Each run of ``>>>`` / ``...`` lines as a fenced ``pycon`` block, so Markdown shows it as code."""
    if "```" in text:  # fenced already (or by its author)
        return text
    out: list[str] = []
    in_block = False
    for line in text.split("\n"):
        example = re.match(r"\s*(>>>|\.\.\.)( |$)", line) is not None
        if example and not in_block:
            out += ["", "```pycon"] if out and out[-1].strip() else ["```pycon"]
        elif not example and in_block:
            out.append("```")
        in_block = example
        out.append(line.strip() if example else line)
    if in_block:
        out.append("```")
    return "\n".join(out)


def clean(text: str) -> str:
    """``text`` with reST roles as inline code, a line-ending ``::`` as ``:`` and ``>>>`` examples fenced."""
    return fence_examples(re.sub(r"(?<=\S)::$", ":", ROLE.sub(_code, text), flags=re.M))


class RestRoles(griffe.Extension):
    """Rewrites every docstring with :func:`clean` once the object tree is built."""

    def on_object(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = clean(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        """The package's own docstring (``on_object`` sees only what is inside it)."""
        if pkg.docstring is not None:
            pkg.docstring.value = clean(pkg.docstring.value)
