"""The documentation site (mkdocs.yml, docs/gen_pages.py): generated game pages, their snippets, the strict build."""

import html
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from envs.registry import GAMES
from tests.helpers import ROOT

_spec = importlib.util.spec_from_file_location("gen_pages", ROOT / "docs" / "gen_pages.py")
gen_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_pages)
_check_spec = importlib.util.spec_from_file_location("site_check", ROOT / "docs" / "site_check.py")
site_check = importlib.util.module_from_spec(_check_spec)
_check_spec.loader.exec_module(site_check)

EVAL_MD = (ROOT / "results" / "EVAL.md").read_text()


def _code_blocks(markdown: str) -> list[str]:
    """The page's Python blocks, each file it includes (pymdownx.snippets' block form: ``--8<--``, the file's
    name, ``--8<--``, on lines of their own) read in."""
    blocks = re.findall(r"^```python\n(.*?)^```", markdown, flags=re.M | re.S)
    include = re.compile(r"^--8<--\n(.+)\n--8<--$", flags=re.M)
    return [include.sub(lambda m: (ROOT / "docs" / m.group(1)).read_text(), block) for block in blocks]


def page_skeleton(page: str) -> list[str]:
    """What a game page shows of its skeleton: the specs table's row names (the first table after the title),
    then its ``## `` sections in order. Read from the page, so a missing row or a section out of place shows."""
    specs = re.search(r"^\| \| \|\n\|---\|---\|\n((?:\|.*\|\n)+)", page, flags=re.M)
    rows = [line.split("|")[1].strip() for line in specs.group(1).splitlines()] if specs else []
    before = page[: specs.start()] if specs else page
    misplaced = ["(specs table after a section)"] if "\n## " in before else []
    return [*rows, *misplaced, *re.findall(r"^## (.+)$", page, flags=re.M)]


# PettingZoo's and pgx's page shape: the specs table's rows, then the sections, in this order
SKELETON = [
    *("Version", "Import", "Make", "Gymnasium id", "Agents", "Action shape", "Action values"),
    *("Observation type", "Observation shape", "Observation values", "Rewards", "Parallel API", "Play it"),
    *("Description", "Rules", "Termination", "Legal action mask", "Observation", "Action", "Position notation"),
    "Rewards",
    *("Rule parameters", "Usage", "Results", "Version history"),
]


@pytest.mark.parametrize("game", list(GAMES))
def test_game_page_has_the_specs_table_and_the_sections_in_order(game):
    page = gen_pages.game_markdown(game, EVAL_MD, has_ladder=True)
    assert page_skeleton(page) == SKELETON


@pytest.mark.parametrize(
    "broken",
    [  # a page that lost or swapped a part is told apart
        lambda page: page.replace("## Termination", "## Ending"),
        lambda page: page.replace("## Rewards\n", "## Rewardz\n"),
        lambda page: re.sub(r"^\| Parallel API \|.*\n", "", page, flags=re.M),
        lambda page: page.replace("## Usage", "## x").replace("## Results", "## Usage").replace("## x", "## Results"),
    ],
)
def test_page_skeleton_tells_a_broken_page(broken):
    page = gen_pages.game_markdown("swival", EVAL_MD, has_ladder=True)
    assert page_skeleton(page) == SKELETON and page_skeleton(broken(page)) != SKELETON


@pytest.mark.parametrize("game", list(GAMES))
def test_game_page_holds_its_docstring_pictures_usage_and_results(game):
    page = gen_pages.game_markdown(game, EVAL_MD, has_ladder=True)
    title, sections = gen_pages.doc_sections(game)
    assert page.startswith(f"# {title}\n")
    for name, text in sections.items():  # the docstring's sections, the rule parameters as a table
        if name == "Version history":  # each version with the package's
            text = text.replace("* v0:", f"* v0 (swgym {gen_pages.package_version()}):")
            assert "* v0 (swgym 0." in text
        if name != "Rule parameters":
            assert f"## {name}\n\n{text}\n" in page
    for asset in (f"{game}.gif", f"{game}_board.png"):  # committed by make docs-assets
        assert f"../assets/{asset}" in page
        assert (ROOT / "docs" / "assets" / asset).stat().st_size < 1_000_000
    assert f"../assets/results/{game}_ladder.png" in page
    assert f"| Play it | `swgym play {game} --vs hard`" in page and f"`{GAMES[game].gym_id}`" in page
    assert f"| Version | `{GAMES[game].module.split('.')[1]}`, swgym " in page
    assert "### PettingZoo" in page and f'envs.make("{game}"' in page
    assert f'gymnasium.make("{GAMES[game].gym_id}"' in page and "dict_observation=True" in page
    assert 'info["action_mask"]' in page
    assert ("envs.make_vec(" in page and "envs.make_batched(" in page) == bool(GAMES[game].batched)
    results = page.split("## Results")[1]
    rows = [line for line in results.splitlines() if line.startswith("|") and " x " in line]  # "1 x medium"
    expected = [line for line in EVAL_MD.splitlines() if line.startswith(f"| {game} |")]
    assert len(rows) == len(expected) > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_rule_parameters_table_is_the_declared_parameters(game):
    params = importlib.import_module(GAMES[game].module).raw_env.game_cls.RULE_PARAMS
    page = gen_pages.game_markdown(game, EVAL_MD, has_ladder=True)
    section = page.split("## Rule parameters\n")[1].split("\n## ")[0]
    rows = [line.split("|")[1:3] for line in section.splitlines() if line.startswith("| `")]
    assert [(k.strip(), v.strip()) for k, v in rows] == [(f"`{p.name}`", gen_pages._code(p.default)) for p in params]


def test_docstring_out_of_order_or_explaining_a_stray_parameter_is_named(monkeypatch):
    module = importlib.import_module(GAMES["swival"].module)
    doc = module.__doc__
    monkeypatch.setattr(module, "__doc__", doc.replace("## Rewards", "## Prizes"))
    with pytest.raises(ValueError, match="envs.swival_v0's docstring sections are .*'Prizes'"):
        gen_pages.doc_sections("swival")
    with pytest.raises(ValueError, match="explains \\['speed'\\]; the game has \\[\\]"):
        gen_pages.rule_parameters("swival", "* `speed`: how fast")


EVAL_TABLE = (
    "| game | entrant | W |\n|---|---|---|\n| swival | hard | 8 |\n| twirls | hard | 352 |\n| swival | medium | 386 |\n"
)


@pytest.mark.parametrize(
    "game, markdown, expected",
    [  # the game's rows, weakest entrant first, its column dropped (the page is the game)
        ("swival", EVAL_TABLE, "| entrant | W |\n| --- | --- |\n| medium | 386 |\n| hard | 8 |"),
        ("twirls", EVAL_TABLE, "| entrant | W |\n| --- | --- |\n| hard | 352 |"),
        ("swish", EVAL_TABLE, ""),  # no rows: the page says so instead
        ("swival", "", ""),  # no results/EVAL.md
        ("swival", "intro\n\n" + EVAL_TABLE, "| entrant | W |\n| --- | --- |\n| medium | 386 |\n| hard | 8 |"),
    ],
)
def test_eval_rows(game, markdown, expected):
    assert gen_pages.eval_rows(game, markdown) == expected


def test_eval_rows_get_a_score_with_its_notes_in_the_header():
    table = (
        "| game | rules | entrant | against | W / D / L |\n|---|---|---|---|---|\n"
        "| swival | default | hard | 1 x medium | 8 / 392 / 0 |\n"
        "| swimming | num_players=4 | hard | 3 x medium | 96 / 0 / 304 |\n"
        "| swimming | num_players=4 | medium | 3 x random | 90 / 0 / 310 |\n"
    )
    assert (
        gen_pages.eval_rows("swival", table).splitlines()[2] == "| default | hard | 1 x medium | 8 / 392 / 0 | 51.0% |"
    )
    swimming = gen_pages.eval_rows("swimming", table).splitlines()
    assert swimming[0].endswith("| W / D / L | score (fair share 25%) |")  # said once, not in every row
    assert swimming[2:] == [  # one order: the weaker entrant first
        "| num_players=4 | medium | 3 x random | 90 / 0 / 310 | 22.5% |",
        "| num_players=4 | hard | 3 x medium | 96 / 0 / 304 | 24.0% |",
    ]


def test_eval_rows_notes_that_hold_for_some_rules_only_name_them():
    table = (
        "| game | rules | entrant | against | W / D / L |\n|---|---|---|---|---|\n"
        "| swahili | num_players=4 | hard | 3 x medium | 100 / 0 / 300 |\n"
        "| swahili | num_players=2 | hard | 1 x medium | 300 / 0 / 100 |\n"
    )
    rows = gen_pages.eval_rows("swahili", table).splitlines()
    assert rows[0].endswith("| score (num_players=4: fair share 25%) |")
    assert [r.split(" | ")[0] for r in rows[2:]] == ["| num_players=2", "| num_players=4"]


@pytest.mark.parametrize(
    "wdl, said",
    [  # the results' heading counts the games of its rows
        (["10 / 0 / 390", "400 / 0 / 0"], "400 games a matchup"),
        (["565 / 0 / 1435", "400 / 0 / 0", "1 / 0 / 399"], "400 games a matchup (hard against 3 x medium: 2000)"),
    ],
)
def test_games_played(wdl, said):
    rows = "".join(f"| default | {'hard' if i == 0 else 'medium'} | 3 x medium | {c} |\n" for i, c in enumerate(wdl))
    assert gen_pages.games_played("| rules | entrant | against | W / D / L |\n|---|---|---|---|\n" + rows) == said


@pytest.mark.parametrize(
    "text, markdown",
    [  # products are not emphasis; emphasis and code stay as written
        ("Discrete(size*size*32 + 1)", "Discrete(size\\*size\\*32 + 1)"),
        ("(59*8 + 5)*4 + 2", "(59\\*8 + 5)\\*4 + 2"),
        ("| 3*i + j (0-8) |", "| 3\\*i + j (0-8) |"),
        ("it *twirls* around; *Fire*, above", "it *twirls* around; *Fire*, above"),
        ("* `a < cells*6*2*radius` (2928)", "* `a < cells*6*2*radius` (2928)"),
        ("``a*b`` and a*b", "``a*b`` and a\\*b"),
        ("a * b", "a * b"),
    ],
)
def test_escape_products(text, markdown):
    assert gen_pages.escape_products(text) == markdown


@pytest.mark.parametrize(
    "text, markdown",
    [  # a list straight after a paragraph line gets its blank line
        ("19 beads.\n* one\n  more\n* two", "19 beads.\n\n* one\n  more\n* two"),
        ("intro:\n1. first\n2. second", "intro:\n\n1. first\n2. second"),
        ("text\n\n* already apart", "text\n\n* already apart"),
        ("## Actions\n* a < 72", "## Actions\n* a < 72"),
        ("a < 72 is\n  * not a list start", "a < 72 is\n  * not a list start"),
        ("| a | b |\n* after a table", "| a | b |\n\n* after a table"),
    ],
)
def test_separate_lists(text, markdown):
    assert gen_pages.separate_lists(text) == markdown


def test_game_page_without_results_says_so():
    page = gen_pages.game_markdown("swival", "", has_ladder=False)
    assert "No evaluation rows" in page and "ladder.png" not in page
    assert page_skeleton(page) == SKELETON


def test_missing_doc_page_is_named(monkeypatch):
    module = importlib.import_module(GAMES["swival"].module)
    monkeypatch.setattr(module, "__doc__", None)
    with pytest.raises(ValueError, match="envs.swival_v0 has no docstring"):
        gen_pages.doc_sections("swival")


@pytest.mark.parametrize("heading, found", [("Opponents", "**easy / medium**"), ("Playing", "swgym play GAME")])
def test_readme_sections(heading, found):
    assert found in gen_pages.readme_section((ROOT / "README.md").read_text(), heading)


def test_readme_section_missing_is_named():
    with pytest.raises(ValueError, match="README.md has no '## Nowhere' section"):
        gen_pages.readme_section("# x\n\n## Somewhere\ntext\n", "Nowhere")


def test_index_links_every_game():
    index = gen_pages.index_markdown((ROOT / "README.md").read_text())
    for game in GAMES:
        assert f"](games/{game}.md)" in index
    assert index.index("Six little-known games") < index.index("## Quick start") < index.index("swgym play swival")
    assert "imports as `envs`" in index and "](getting-started.md)" in index


def test_quick_start_installs_what_the_makefile_does():
    """The quick start's install line: the Makefile's torch pin, then extras pyproject.toml declares."""
    install = gen_pages.quick_start_commands()[0]
    makefile, pyproject = (ROOT / "Makefile").read_text(), (ROOT / "pyproject.toml").read_text()
    torch_pin = re.search(r"pip install --quiet (torch==[\d.]+)", makefile)[1]
    assert install.startswith(f"pip install {torch_pin} && pip install -e '.[")
    extras = re.search(r"-e '\.\[([\w,]+)\]'", install)[1].split(",")
    assert all(re.search(rf"^{extra} = \[", pyproject, flags=re.M) for extra in extras)


def test_quick_start_runs(tmp_path, capsys):
    """Each line of the home page's quick start, as written: the hard opponent's game starts in the terminal, the
    AEC loop plays a whole game, the short training run writes its policy file and the evaluation plays it."""
    pytest.importorskip("sb3_contrib")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    play, train, evaluate = gen_pages.quick_start_commands()[1:]
    done = {}
    for line in (play, train, evaluate):
        argv = [sys.executable, "-m", "scripts.cli", *line.split()[1:]]
        stdin = "quit\n" if line is play else ""  # the player resigns at once
        done[line] = subprocess.run(
            argv, cwd=tmp_path, env=env, input=stdin, capture_output=True, text=True, timeout=600
        )
    assert "You are player_0" in done[play].stdout and "Red (player_0) to move" in done[play].stdout
    assert done[train].returncode == 0, done[train].stderr[-2000:]
    assert (tmp_path / "runs" / "quick" / "swival_hard.npz").exists()
    assert done[evaluate].returncode == 0, done[evaluate].stderr[-2000:]
    assert re.search(r"^medium +10 ", done[evaluate].stdout, flags=re.M)  # the table: 10 games against medium
    (code,) = _code_blocks(gen_pages.QUICK_START)
    assert len(code.splitlines()) == 5
    namespace = {"__name__": "docs_snippet"}
    exec(compile(code, "<docs/index.md>", "exec"), namespace)
    assert namespace["env"].agents == [] and (namespace["terminated"] or namespace["truncated"])  # a whole game


def _griffe_roles():
    pytest.importorskip("griffe")  # the docs extra
    spec = importlib.util.spec_from_file_location("griffe_roles", ROOT / "docs" / "griffe_roles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "docstring, shown",
    [  # the API reference's rewriting of reST in docstrings
        ("a :class:`Engine` here", "a `Engine` here"),
        ("see :func:`~envs.core.batched.next_u64`.", "see `next_u64`."),
        (":meth:`snapshot` and :mod:`envs.core.rendering`", "`snapshot` and `envs.core.rendering`"),
        (":data:`BOT_MATCHES`", "`BOT_MATCHES`"),
        ("kernel call::\n\n    to_move", "kernel call:\n\n    to_move"),
        ("plain ``code`` and a: b", "plain ``code`` and a: b"),
        ("a line\n::\n", "a line\n::\n"),  # a bare :: line is left alone
        (  # examples become a code block
            "Make one:\n\n    >>> import envs\n    >>> env = envs.make(\n    ...     'swival')\nthen",
            "Make one:\n\n```pycon\n>>> import envs\n>>> env = envs.make(\n...     'swival')\n```\nthen",
        ),
        (">>> a\ntext", "```pycon\n>>> a\n```\ntext"),
    ],
)
def test_griffe_roles_clean(docstring, shown):
    assert _griffe_roles().clean(docstring) == shown


@pytest.mark.parametrize("game", list(GAMES))
def test_game_page_snippets_run(game, capsys):
    """Every Python block of the game's page runs as written (PettingZoo, Gymnasium and the batched engine)."""
    blocks = _code_blocks(gen_pages.game_markdown(game, EVAL_MD, has_ladder=True))
    assert len(blocks) == (3 if GAMES[game].batched else 2)
    for code in blocks:
        exec(compile(code, f"<docs/games/{game}.md>", "exec"), {"__name__": "docs_snippet"})
    out = capsys.readouterr().out
    assert "returns {'player_0': " in out and "episode return " in out  # whole games, their returns
    assert ("games finished on the 256 boards: " in out) == bool(GAMES[game].batched)


def test_readme_example_prints_the_game_s_returns(capsys):
    """Getting started's example (the README's) plays a whole game and prints each player's return."""
    blocks = _code_blocks(gen_pages.readme_section((ROOT / "README.md").read_text(), "Using the environments"))
    assert len(blocks) == 2
    for code in blocks:
        exec(compile(code, "<README.md>", "exec"), {"__name__": "docs_snippet"})
    assert capsys.readouterr().out.strip() == "{'player_0': 1.0, 'player_1': -1.0}"


@pytest.mark.parametrize("page", ["training.md", "evaluation.md", "search.md", "positions.md"])
def test_written_pages_snippets_run(page):
    """The training and evaluation pages' Python blocks run as written, the training cut to one short rollout."""
    pytest.importorskip("sb3_contrib")
    blocks = _code_blocks((ROOT / "docs" / page).read_text())
    assert blocks
    for code in blocks:
        code = re.sub(r"n_steps=\d+", "n_steps=16", re.sub(r"\.learn\([\d_]+\)", ".learn(64)", code))
        exec(compile(code, f"<docs/{page}>", "exec"), {"__name__": "docs_snippet"})


def test_every_results_file_is_a_page_linked_from_the_results_index(monkeypatch):
    monkeypatch.delenv("SWGYM_REPO_URL", raising=False)
    pages = gen_pages.pages()
    files = sorted(p.name for p in gen_pages.RESULTS.glob("*.md"))
    assert files and all(f"results/{name}" in pages for name in files)
    assert "[`results/EVAL.md`](results/EVAL.md)" in pages["results.md"]
    assert "[`results/2026-11-gumbel-swish.md`](results/2026-11-gumbel-swish.md)" in pages["results.md"]
    assert "`results/*_ladder.png`" in pages["results.md"]  # a pattern names no page: left as written
    assert "[`results/EVAL.md`](../results/EVAL.md)" in pages["games/swival.md"]
    eval_page = pages["results/EVAL.md"].removeprefix(gen_pages.RESULT_FRONT_MATTER)
    assert eval_page.startswith("# `results/EVAL.md`\n")  # a file without a heading: its name
    assert pages["results/EVAL.md"].endswith("The [results index](../results.md).*\n")
    assert "*The file `results/EVAL.md` of the repository: kept to the shipped files" in pages["results/EVAL.md"]
    assert "of the repository: a dated record of the code" in pages["results/2026-11-gumbel-swish.md"]


def test_a_published_site_links_each_results_file_in_the_repository(monkeypatch):
    monkeypatch.setenv("SWGYM_REPO_URL", "https://example.org/swgym/")
    page = gen_pages.pages()["results/EVAL.md"]
    assert "[`results/EVAL.md`](https://example.org/swgym/blob/main/results/EVAL.md)" in page


@pytest.mark.parametrize("present, expected", [(True, "](rllib.md)"), (False, "Not part of this version")])
def test_rllib_section_links_only_an_existing_page(tmp_path, present, expected):
    if present:
        (tmp_path / "rllib.md").write_text("# RLlib\n")
    note = gen_pages.rllib_note(tmp_path)
    assert expected in note and (("rllib.md" in note) == present)


def test_reference_documents_each_entry_point_once():
    """The curated API reference: every object once, and every name ``envs`` exports among them."""
    names = [name for _, _, sections in gen_pages.REFERENCE.values() for _, _, objects in sections for name in objects]
    assert len(names) == len(set(names))
    package = importlib.import_module("envs")
    for name in package.__all__:  # documented under envs or where it is defined (make_vec: envs.vector, lazily)
        defined = f"{getattr(getattr(package, name), '__module__', 'envs')}.{name}"
        assert {f"envs.{name}", defined} & set(names), f"envs.{name} is not in the reference"
    page = gen_pages.reference_markdown("Batched", "about", [("A learner", "intro", ["envs.make_vec", "envs.vector"])])
    assert page.index("## A learner") < page.index("::: envs.make_vec\n    options:\n      heading_level: 3")
    assert "::: envs.vector\n" in page and page.endswith("members: false\n")  # a module: its docstring only


# Words that make sense only to the project's developers: never on a page a user reads (pattern, what it is)
INTERNAL_WORDS = [
    (r"\bissues? #?\d+", "an issue number"),
    (r"\bseed'?s (?:examples?|texts?|rules|pictures)\b|\bseed (?:texts?|files?)\b|\bseeds/", "the rule texts' files"),
    (r"\bthe product(?:'s)?\b", "the product"),
    (r"\brulings?\b", "the rulings file"),
    (r"(?<![/\w])test_\w+(?!\w*\.py)", "a test function's name"),
    (r"\b(?:this|the|an? earlier|a previous|the next|a) session\b|\bstop hook\b", "session talk"),
    (r"FIELD-NOTES|DESIGN\.md|/work/|\bworktrees?\b|\bthe brief\b", "the project's working files"),
    (r"\b(?:the|today's) hards\b", "the project's slang"),
]


def internal_words(text: str) -> list[str]:
    """Every internal word in ``text``, with a little of its context."""
    return [
        f"{what}: ...{text[max(0, m.start() - 40) : m.end() + 20]!r}..."
        for pattern, what in INTERNAL_WORDS
        for m in re.finditer(pattern, text, flags=re.I)
    ]


@pytest.mark.parametrize(
    "text, found",
    [
        ("as decided in issue 22, the", True),
        ("following the seed's examples", True),
        ("checked by the product's solver", True),
        ("see RULINGS.md", True),
        ("(`test_env_returns_are_the_aec_envs_returns`)", True),
        ("as this session found", True),
        ("runs tests/training/test_rllib.py and `test_recipes.py`", False),
        ("env.reset(seed=0); the seed's stream", False),
        ("the products of size*size", False),
    ],
)
def test_internal_words_are_found(text, found):
    assert bool(internal_words(text)) == found


def test_pages_hold_no_internal_words():
    """The generated pages, the written ones and the README speak to users (the API reference's docstrings are
    checked in the built site, test_site_builds_strict)."""
    texts = {**gen_pages.pages(), "README.md": (ROOT / "README.md").read_text()}
    texts.update({f"docs/{p.name}": p.read_text() for p in (ROOT / "docs").glob("*.md")})
    assert {page: internal_words(text) for page, text in texts.items() if internal_words(text)} == {}


def test_site_builds_strict(tmp_path):
    """mkdocs build --strict: no broken link, missing page or warning; then what ``make docs-check`` checks of the
    site (docs/site_check.py): nothing loaded from the network and, where chromium is installed, search from disk
    finding each game's page. ``make test`` builds the site only here."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocs_gen_files")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for game in GAMES:  # pages as files (the offline plugin): the site works opened from disk
        page = (tmp_path / "games" / f"{game}.html").read_text()
        assert f"{game}.gif" in page and "<table>" in page
        assert (tmp_path / "assets" / "results" / f"{game}_ladder.png").exists()
    assert "doc-function" in (tmp_path / "reference" / "training.html").read_text()
    index = (tmp_path / "index.html").read_text()
    assert 'href="getting-started.html"' in index
    assert all(f'href="games/{game}.html"><img' in index for game in GAMES)  # the gallery
    assert "assets/play_app.png" in (tmp_path / "playing.html").read_text()
    assert (tmp_path / "assets" / "play_app.png").stat().st_size > 10_000
    assert (tmp_path / "search" / "search_index.js").exists()  # search without a server
    gumbel = (tmp_path / "results" / "2026-11-gumbel-swish.html").read_text()  # a results file as a page
    assert 'src="2026-11-gumbel-swish/learning_curve.png"' in gumbel
    assert (tmp_path / "results" / "2026-11-gumbel-swish" / "learning_curve.png").stat().st_size > 1000
    assert 'href="results/EVAL.html"' in (tmp_path / "results.html").read_text()
    batched_page = (tmp_path / "reference" / "batched.html").read_text()
    assert (
        '<span class="gp">&gt;&gt;&gt; </span>' in batched_page and "<blockquote>" not in batched_page
    )  # >>> examples as code
    assert site_check.external_loads(tmp_path) == {}  # offline means offline
    browser = site_check.chromium()
    if browser is not None:
        assert site_check.search_failures(browser, tmp_path, site_check.game_queries()) == []
    assert 'src="javascripts/iframe-worker-shim.js"' in index  # search's worker shim, from disk
    docs = json.loads((tmp_path / "search" / "search_index.json").read_text())["docs"]
    ranked = {d["location"].split("#")[0]: d.get("boost", 1) for d in docs}
    assert all(boost < 0.1 for page, boost in ranked.items() if page.startswith("results/"))  # results rank down
    assert all(ranked[f"games/{game}.html"] == 1 for game in GAMES) and ranked["getting-started.html"] == 1
    found = {}  # the built pages' text, the API reference's docstrings included, speaks to users
    for path in tmp_path.rglob("*.html"):
        text = html.unescape(re.sub(r"<[^>]+>", "", path.read_text()))
        if internal_words(text):
            found[path.relative_to(tmp_path).as_posix()] = internal_words(text)
    assert found == {}


@pytest.mark.parametrize(
    "page, loads",
    [  # what a browser would fetch from the network, and what it would not
        ('<script src="https://unpkg.com/iframe-worker/shim"></script>', ["https://unpkg.com/iframe-worker/shim"]),
        ('<link rel="stylesheet" href="//fonts.googleapis.com/css?family=Roboto">', ["//fonts.googleapis.com/css"]),
        ('<img alt="x" src="http://example.org/a.png">', ["http://example.org/a.png"]),
        ('<link href="https://fonts.gstatic.com" rel="preconnect" crossorigin>', ["https://fonts.gstatic.com"]),
        ('<a href="https://example.org/">a link</a><script src="assets/bundle.js"></script>', []),
        ('<link rel="canonical" href="https://example.org/swgym/"><img src="assets/a.png">', []),
    ],
)
def test_external_loads_finds_what_a_page_fetches(tmp_path, page, loads):
    (tmp_path / "page.html").write_text(f"<html><head>{page}</head></html>")
    found = site_check.external_loads(tmp_path).get("page.html", [])
    assert [url.split("?")[0] for url in found] == loads


def test_external_loads_reads_stylesheets(tmp_path):
    (tmp_path / "a.css").write_text('@import "https://x.org/f.css"; b { background: url(img/a.png) }')
    assert site_check.external_loads(tmp_path) == {"a.css": ["https://x.org/f.css"]}


def test_hard_opponents_summary_agrees_with_the_results():
    """The summary table of docs/hard-opponents.md: a row per shipped hard, its time a move and score against
    medium those of results/EVAL.md (a figure left behind when a hard changes shows here)."""
    page = (ROOT / "docs" / "hard-opponents.md").read_text()
    table = page.split("## Summary")[1].split("\n## ")[0]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in table.splitlines() if line.startswith("| [")]
    evals = [[c.strip() for c in line.split("|")[1:-1]] for line in EVAL_MD.splitlines()]
    found = []
    for game_cell, *_, seconds, score in rows:
        game = re.search(r"\(games/(\w+)\.md\)", game_cell)[1]
        players = re.search(r"\((\d) players\)", game_cell)
        row = next(
            r
            for r in evals
            if r[:1] == [game] and r[2] == "hard" and r[3].endswith("x medium") and (not players or players[1] in r[1])
        )
        assert seconds == f"{row[-1].split(',')[0]} s", game_cell
        assert score.startswith(row[5].split(" (")[0]), game_cell
        found.append(game)
    assert sorted(set(found)) == sorted(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_animation_caption_says_players_seed_outcome_and_policy_file(game):
    """Each game page's animation: its caption names the players, the seed, the outcome and the hard's policy file
    as results/provenance.json records them, and the command given makes that game."""
    records = gen_pages.provenance_records()
    record = next(r for r in records if r["result"] == f"docs/assets/{game}.gif")
    page = gen_pages.game_markdown(game, EVAL_MD, has_ladder=True, records=records)
    caption = re.search(r"<figcaption>(.*?)</figcaption>", page)[1]
    assert caption.startswith("hard (player_0) against ")
    assert f"seed {record['seed']}: " in caption and record["outcome"].split(": ", 1)[1] in caption
    assert next(iter(record["policies"].values()))[:12] in caption
    assert "--p0 hard" in page and f"--seed {record['seed']} --gif {game}.gif`" in page


def test_a_game_page_says_where_its_learning_curves_ended(tmp_path):
    rows = [
        "run,minute,opponent,games,wins,draws,losses,score",
        "quick,2.5,easy,100,10,0,90,0.1",
        "quick,10.0,easy,100,90,0,10,0.9",
        "quick,10.0,medium,100,40,10,50,0.45",
        "scratch,10.0,easy,100,20,0,80,0.2",
    ]
    (tmp_path / "swival.csv").write_text("\n".join(rows) + "\n")
    line = gen_pages.baselines("swival", tmp_path)
    assert "the quick path, after 10 minutes: 90% against easy, 45% against medium" in line
    assert "PPO from scratch against random, after 10 minutes: 20% against easy" in line
    assert "(../results/2026-12-baselines.md#swival)" in line and "`swgym curves swival`" in line
    assert gen_pages.baselines("twirls", tmp_path) == "", "no curves measured: no line"
