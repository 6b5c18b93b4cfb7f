"""Pages generated at build time (the ``mkdocs-gen-files`` plugin runs this), so the site never drifts from the code.

* ``games/<game>.md``: the game's page, one skeleton for all six (PettingZoo's and pgx's shape): the pictures
  ``make docs-assets`` committed, the specs table (read from the registry and the env), then the sections of
  :data:`PAGE_SECTIONS`. The env module's docstring holds the game's own sections (Description to Rule parameters,
  and Version history); the rule parameters' table is made from the game's declared ``RULE_PARAMS``; Usage (PettingZoo,
  Gymnasium and batched-engine snippets) and Results (the game's rows of ``results/EVAL.md`` and its Elo chart) are
  written here, once for every game.
* ``index.md``, ``getting-started.md``, ``playing.md``, ``opponents.md``: the README's sections.
* the end of ``training.md``'s RLlib section: a link to ``rllib.md`` only when that page exists.
* ``results.md`` (the written page, its file names linked) and ``results/<name>.md``: every results file of the
  repository as a page, with the pictures it shows.
* ``reference/*.md``: the API reference of ``envs``, ``envs.core``, ``policies`` and ``training``, every module
  found by listing its package.

Nothing here plays a game or imports torch: it reads docstrings, the registry and files.
"""

from __future__ import annotations

import csv
import importlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from envs.registry import GAMES  # noqa: E402

RESULTS = ROOT / "results"
README = ROOT / "README.md"


def provenance_records() -> list[dict]:
    """``results/provenance.json``'s records (what produced each shown result), ``[]`` without the file."""
    import json

    path = RESULTS / "provenance.json"
    return json.loads(path.read_text())["records"] if path.exists() else []


GETTING_STARTED = """# Getting started

## Install

From a clone, `make demo` or `make test` sets everything up in `.venv/` on first use (CPU torch 2.13.0 first,
then this project with its extras) and then runs:

{commands}

By hand, in a virtualenv of your own, as the Makefile does it: torch first (pinned, so that nothing pulls another
build), then the project with the extras you need (`train`: SB3, sb3-contrib; `test`; `video`: MP4s; `docs`: this
site):

```
pip install torch==2.13.0
pip install -e '.[train,test,video,docs]'
```

The environments alone need only `pip install -e .` (numpy, gymnasium, pettingzoo, numba, pygame-ce, pillow).

## Your first environment

{using}

## Where to go next

* [Conventions](conventions.md): illegal moves, masks, seeds, opponents and copies, the same in every game.
* The games' pages (Swival first: [Swival](games/swival.md)): rules, observation, actions, results.
* [Training](training.md) a player, [Evaluation](evaluation.md) of one, [Playing and watching](playing.md).
"""

PLAYING = """# Playing and watching

## Watching

`swgym watch` plays a game between computer players and shows it: a window when there is a display, text
otherwise (or with `--text`), or a GIF / MP4 file. `--brain` overlays what the player to move weighs. The
animations on the game pages were made with it (`make docs-assets`).

```
swgym watch swival --p0 hard --p1 medium --gif swival.gif --seed 1
swgym watch swimming --p0 hard --others medium --text        # seats not given play --others (default random)
swgym watch twirls --p0 medium --p1 easy --rule board_size=8 --mp4 twirls.mp4
```

## Playing

![The play app: Twirls of Action against random, a stone selected, its destinations marked](assets/play_app.png)

```
swgym play swival --vs medium [--seat 1] [--think 3] [--name ann] [--db FILE] [--tui]
swgym scores [--game swival] [--clear] [--remove NAME] [--db FILE]
```

{playing}
"""


def _call(kwargs: dict) -> str:
    """``key=value`` arguments in Python syntax (", "-led, or "" for none)."""
    return "".join(f", {k}={v!r}" for k, v in kwargs.items())


CODE_SPAN = re.compile(r"(``.+?``|`[^`\n]+`)")


def escape_products(text: str) -> str:
    """``text`` with the ``*`` of products such as ``size*size*32`` or ``(59*8 + 5)*4`` escaped outside code spans,
    so Markdown does not read them as emphasis (``*twirls*`` stays emphasis)."""
    parts = CODE_SPAN.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"(?<=[\w)])\*(?=[\w(])", r"\\*", parts[i])
    return "".join(parts)


LIST_ITEM = re.compile(r"^(?:[*+-]|\d+\.) ")


def separate_lists(text: str) -> str:
    """``text`` with a blank line put before each list that follows a paragraph line directly: ``help()`` reads
    such a list as one, Markdown would run it into the paragraph."""
    out: list[str] = []
    for line in text.splitlines():
        previous = out[-1] if out else ""
        if (
            LIST_ITEM.match(line)
            and previous.strip()
            and not LIST_ITEM.match(previous)
            and not previous.startswith((" ", "#"))
        ):
            out.append("")
        out.append(line)
    return "\n".join(out)


# The sections of every game page, in order: the env module's docstring holds DOC_SECTIONS (then "Version
# history"); Usage and Results are written here, the same for every game.
DOC_SECTIONS = (
    "Description",
    "Rules",
    "Termination",
    "Legal action mask",
    "Observation",
    "Action",
    "Position notation",
    "Rewards",
    "Rule parameters",
)
PAGE_SECTIONS = (*DOC_SECTIONS, "Usage", "Results", "Version history")
SPECS = (
    "Version",
    "Import",
    "Make",
    "Gymnasium id",
    "Agents",
    "Action shape",
    "Action values",
    "Observation type",
    "Observation shape",
    "Observation values",
    "Rewards",
    "Parallel API",
    "Play it",
)


def doc_sections(game: str) -> tuple[str, dict[str, str]]:
    """(title, {section: text}) of ``game``'s doc page, the env module's docstring: its first line is the title,
    then the ``## `` sections :data:`DOC_SECTIONS` and "Version history", in that order (a ``ValueError`` names
    the module and what is missing or out of place)."""
    module = GAMES[game].module
    doc = importlib.import_module(module).__doc__
    if not doc or not doc.strip():
        raise ValueError(f"{module} has no docstring: the game's doc page is missing")
    title, _, body = doc.strip().partition("\n")
    parts = re.split(r"^## (.+)\n", "\n" + body.strip() + "\n", flags=re.M)
    if parts[0].strip():
        raise ValueError(f"{module}'s docstring has text before its first section: {parts[0].strip()[:60]!r}")
    headings = [h.strip() for h in parts[1::2]]
    expected = [*DOC_SECTIONS, "Version history"]
    if headings != expected:
        raise ValueError(f"{module}'s docstring sections are {headings}; a game page has {expected}")
    texts = (separate_lists(escape_products(t.strip())) for t in parts[2::2])
    return title.strip(), dict(zip(headings, texts))


def _bound(value: float) -> str:
    """A space's bound as the specs table writes it: ``0``, ``1``, ``0.5``."""
    return str(int(value)) if float(value).is_integer() else str(float(value))


def _code(value) -> str:
    """A rule value as code: ``9``, ``"random"``, ``False``."""
    return f'`"{value}"`' if isinstance(value, str) else f"`{value!r}`"


def _values(param) -> str:
    """What a rule parameter (``envs.core.params.Param``) accepts, for the table: ``9``, ``8``; 2 to 6; >= 1."""
    if param.kind == "bool":
        return "`True`, `False`"
    if param.kind == "choice":
        return ", ".join(_code(c) for c in param.choices)
    span = f"{param.low} to {param.high}" if param.high is not None else f">= {param.low}"
    return span + (", or a pair (seat 0, seat 1)" if param.kind == "seat pair" else "")


def reward_summary(game: str) -> str:
    """The specs table's rewards: the docstring's Rewards section up to its first full stop or semicolon (its first
    item where it is a list)."""
    text = doc_sections(game)[1]["Rewards"].lstrip("* ")
    return " ".join(re.split(r"[;.](?:\s|$)", text, maxsplit=1)[0].split())


def specs_table(game: str) -> str:
    """The specs table every game page opens with (PettingZoo's shape), read from the registry and the env made
    with the game's default rules."""
    entry = GAMES[game]
    env = importlib.import_module(entry.module).raw_env(**entry.variants[0])
    agents = env.possible_agents
    declared = {p.name: p for p in env.game.RULE_PARAMS}
    agent_names = ", ".join(f"`{a}`" for a in agents) if len(agents) <= 2 else f"`{agents[0]}` ... `{agents[-1]}`"
    if "num_players" in declared:
        agent_names += f" (`num_players={len(agents)}`; {_values(declared['num_players'])})"
    action = env.action_space(agents[0])
    observation = env.observation_space(agents[0])
    mask, vector = observation["action_mask"], observation["observation"]
    rules = ", ".join(f"{k}={v!r}" for k, v in entry.variants[0].items())
    others = "" if len(agents) == 2 else " (every other seat)"
    env_name = entry.module.rsplit(".", 1)[1]
    rows = {
        "Version": f"`{env_name}`, swgym {package_version()} ([Version history](#version-history))",
        "Import": f"`from envs import {env_name}`",
        "Make": f'`envs.make("{game}"{", " + rules if rules else ""})`',
        "Gymnasium id": f"`{entry.gym_id}` (single agent, against an opponent)",
        "Agents": agent_names,
        "Action shape": f"`Discrete({action.n})`: one int per step",
        "Action values": f"0 to {action.n - 1} ([Action](#action))",
        "Observation type": "`Dict` of two `Box` spaces: `observation` (features), `action_mask`",
        "Observation shape": f"`observation` {vector.shape} {vector.dtype}, `action_mask` {mask.shape} {mask.dtype}",
        "Observation values": f"`observation` in [{_bound(vector.low.min())}, {_bound(vector.high.max())}] "
        "([Observation](#observation)); `action_mask` 0 or 1, 1 = legal ([Legal action mask](#legal-action-mask))",
        "Rewards": f"{reward_summary(game)} ([Rewards](#rewards))",
        "Parallel API": "no (turn-based AEC)",
        "Play it": f"`swgym play {game} --vs hard`{others}",
    }
    assert tuple(rows) == SPECS
    variable = [p.name for p in declared.values() if p.name in ("board_size", "radius", "num_players")]
    note = (
        f"\n\nShapes for the default rules; {' and '.join(f'`{n}`' for n in variable)} "
        f"change{'s' if len(variable) == 1 else ''} them."
        if variable
        else ""
    )
    table = "| | |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows.items())
    return f'<div class="specs" markdown>\n\n{table}\n\n</div>{note}'


def rule_parameters(game: str, text: str) -> str:
    """The Rule parameters section: a table of the game's declared parameters (``Game.RULE_PARAMS``: keyword,
    default, accepted values) with each one's meaning from the docstring's list (``* `name`: meaning``), then the
    rest of the docstring's text. A declared parameter without a meaning, or a meaning of an undeclared one, is a
    ``ValueError``."""
    module = GAMES[game].module
    declared = importlib.import_module(module).raw_env.game_cls.RULE_PARAMS
    meanings: dict[str, str] = {}
    rest: list[str] = []
    for item in re.split(r"\n(?=\S)", text.strip()):
        match = re.match(r"\* `(\w+)`: (.*)", item, flags=re.S)
        if match:
            meanings[match.group(1)] = " ".join(match.group(2).split()).rstrip(".")
        elif item.strip():
            rest.append(item)
    names = [p.name for p in declared]
    if set(meanings) != set(names):
        raise ValueError(f"{module}'s Rule parameters section explains {sorted(meanings)}; the game has {names}")
    if not declared:
        return "\n".join(rest)
    rows = ["| keyword | default | values | meaning |", "|---|---|---|---|"]
    rows += [f"| `{p.name}` | {_code(p.default)} | {_values(p)} | {meanings[p.name]} |" for p in declared]
    return "\n\n".join(["\n".join(rows), *(["\n".join(rest)] if rest else [])])


def snippets(game: str) -> dict[str, str]:
    """Usage snippets (Python source, run by tests/test_docs.py) by kind: "pettingzoo", "gymnasium" and, for a game
    with a batched engine, "batched". Each uses the game's default rules (its first variant)."""
    entry = GAMES[game]
    rules = _call(entry.variants[0])
    out = {
        "pettingzoo": f'''import numpy as np

import envs

# PettingZoo AEC env; an illegal move ends the game with -1 for the mover
env = envs.make("{game}"{rules}, render_mode="ansi")
env.reset(seed=42)
rng = np.random.default_rng(42)  # random legal moves, from a generator of its own
returns = dict.fromkeys(env.agents, 0.0)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    returns[agent] += reward
    legal = np.flatnonzero(obs["action_mask"])
    env.step(None if terminated or truncated else int(rng.choice(legal)))
print(env.render())
print("returns", returns)
''',
        "gymnasium": f'''import gymnasium
import numpy as np

import envs  # noqa: F401  (registers the swgym/... ids)

# the learner's seat is drawn per episode (seat= fixes it)
env = gymnasium.make("{entry.gym_id}", opponent="medium"{rules},
                     dict_observation=True)
obs, info = env.reset(seed=0)
rng = np.random.default_rng(0)
episode_return, done = 0.0, False
while not done:
    # int8 legal moves; also obs["action_mask"] and env.unwrapped.action_masks()
    mask = info["action_mask"]
    action = int(rng.choice(np.flatnonzero(mask)))
    obs, reward, terminated, truncated, info = env.step(action)
    episode_return += reward
    done = terminated or truncated
print("episode return", episode_return)
''',
    }
    if entry.batched:
        out["batched"] = f'''import envs

# a Gymnasium VectorEnv of 256 boards: the learner holds one seat on each
vec = envs.make_vec("{game}", 256, opponent="random", seed=0{rules})
obs, info = vec.reset()
finished = 0
for _ in range(50):
    masks = vec.action_masks()               # (256, actions) bool
    obs, rewards, terminated, truncated, info = vec.step(masks.argmax(axis=1))
    finished += int((terminated | truncated).sum())
print("games finished on the 256 boards:", finished)

# every seat's moves from you (self-play)
batch = envs.make_batched("{game}", 256, seed=0{rules})
games = 0
for _ in range(50):
    mask = batch.legal_mask()                # the mover's legal actions per board
    obs = batch.observe(batch.to_move)       # each board seen by its mover
    rewards, done = batch.step(mask.argmax(axis=1), autoreset=True)
    games += int(done.sum())
print("self-play games finished:", games)
'''
    return out


def ladder_chart(game: str) -> Path:
    """The newest Elo chart of ``game``: ``results/2026-11-ladders/`` (with references) before ``results/``."""
    newer = RESULTS / "2026-11-ladders" / f"{game}_ladder.png"
    return newer if newer.exists() else RESULTS / f"{game}_ladder.png"


def _score(wdl: str, against: str) -> str:
    """An EVAL row's score column (:func:`policies.report.score`) from its ``W / D / L`` and ``against`` cells."""
    from policies.report import score

    wins, draws, losses = (int(x) for x in wdl.split("/"))
    players = int(against.split(" x ")[0]) + 1 if " x " in against else 2
    return score(wins, draws, losses, players)


SEAT_ORDER = ("random", "easy", "medium", "hard")


def _rank(name: str) -> tuple[int, str]:
    """Where an entrant or opponent ("hard", "3 x medium") sorts: the built-in levels weakest first, then others."""
    name = name.split(" x ")[-1].strip(" †")
    return (SEAT_ORDER.index(name) if name in SEAT_ORDER else len(SEAT_ORDER), name)


def eval_rows(game: str, eval_md: str, records: list[dict] | None = None) -> str:
    """The table of ``results/EVAL.md`` cut to the rows of ``game``, without its game column (a markdown table),
    or "" when it has no such rows. Rows in one order (rules, entrant, opponent: weakest first). A table with a
    ``W / D / L`` column gets a score column after it; the notes of the score cells (fair share, duplicate deals)
    go to its header, once. A row whose provenance record (``records``) is marked stale gets a dagger and a line
    under the table."""
    lines = [line for line in eval_md.splitlines() if line.startswith("|")]
    if len(lines) < 2:
        return ""
    header = [c.strip() for c in lines[0].split("|")[1:-1]]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in lines[2:]]
    rules = [header.index("rules")] if "rules" in header else []
    seats = [header.index(k) for k in ("entrant", "against") if k in header]
    rows = sorted(
        (r for r in rows if r[0] == game), key=lambda r: ([r[k] for k in rules], [_rank(r[k]) for k in seats])
    )
    if not rows:
        return ""
    wdl = header.index("W / D / L") if "W / D / L" in header and "score" not in header else None
    if wdl is not None:
        header.insert(wdl + 1, "score")
        for cells in rows:
            cells.insert(wdl + 1, _score(cells[wdl], cells[3]))
    _header_notes(header, rows)
    stale = {r["part"]: r for r in records or [] if r["result"] == "results/EVAL.md" and r.get("stale")}
    lines_under = []
    for cells in rows:
        record = stale.get(" | ".join(cells[:4]))
        if record:
            cells[2] += " †"
            sha = next(iter(record["policies"].values()))[:12]
            lines_under.append(
                f"† {cells[2][:-2]} against {cells[3]}: {record['note']} (sha256 {sha}..., commit "
                f"{record['commit'][:7]}); `swgym results` measures it again."
            )
    out = ["| " + " | ".join(header[1:]) + " |", "| " + " | ".join(["---"] * (len(header) - 1)) + " |"]
    out += ["| " + " | ".join(cells[1:]) + " |" for cells in rows]
    return "\n".join(out) + ("\n\n" + "\n\n".join(lines_under) if lines_under else "")


def _header_notes(header: list[str], rows: list[list[str]]) -> None:
    """Move the notes of the score cells ("24.0% (fair share 25%)") to the score column's header, once: said for
    every row when all rows share them, else for the rules that have them ("num_players=4: fair share 25%")."""
    if "score" not in header:
        return
    column = header.index("score")
    found: dict[str, str] = {}
    for cells in rows:
        value, _, note = cells[column].partition(" (")
        cells[column] = value
        if note:
            found.setdefault(cells[1], note.rstrip(")"))
    if not found:
        return
    if len(found) == len({cells[1] for cells in rows}) and len(set(found.values())) == 1:
        header[column] = f"score ({next(iter(found.values()))})"
    else:
        header[column] = "score (" + "; ".join(f"{rules}: {note}" for rules, note in found.items()) + ")"


def games_played(table: str) -> str:
    """How many games each row of a game's results table counts: "400 games a matchup", with the rows that
    differ named ("hard against 3 x medium: 2000")."""
    header, _, *rows = [[c.strip() for c in line.split("|")[1:-1]] for line in table.splitlines() if line[:1] == "|"]
    column = header.index("W / D / L")
    counts = [sum(int(x) for x in cells[column].split("/")) for cells in rows]
    usual = max(set(counts), key=counts.count)
    others = [f"{cells[1].strip(' †')} against {cells[2]}: {n}" for cells, n in zip(rows, counts) if n != usual]
    return f"{usual} games a matchup" + (f" ({'; '.join(others)})" if others else "")


def usage_section(game: str) -> str:
    """The Usage section, the same for every game: PettingZoo, Gymnasium and batched-engine snippets."""
    title = doc_sections(game)[0]
    code = snippets(game)
    parts = [
        "### PettingZoo",
        f"```python\n{code['pettingzoo']}```",
        "### Gymnasium (single agent)",
        "The other seats are played by `opponent` (a name, a policy file or an object with `act`); the legal moves "
        'come in `info["action_mask"]` and, with `dict_observation=True`, in the observation, so libraries and '
        "wrappers that know nothing of `action_masks()` keep them.",
        f"```python\n{code['gymnasium']}```",
        "### Batched engine",
    ]
    if "batched" in code:
        parts += [
            "Thousands of boards a call (numba kernels, compiled on first use and cached): "
            "`envs.make_vec` for a learner against opponents, `envs.make_batched` for every seat.",
            f"```python\n{code['batched']}```",
        ]
    else:
        parts.append(f'{title} has no batched engine yet (`envs.GAMES["{game}"].batched`).')
    return "\n\n".join(parts)


def baselines(game: str, folder: Path | None = None) -> str:
    """Where the game's learning curves (``results/baselines/<game>.csv``, written by ``swgym curves``) ended,
    as a sentence linking the curves; "" without a measurement."""
    path = (folder or RESULTS / "baselines") / f"{game}.csv"
    if not path.exists():
        return ""
    with open(path, newline="") as f:
        last = {(row["run"], row["opponent"]): row for row in csv.DictReader(f)}  # each run's last snapshot
    parts = []
    for run, label in (("quick", "the quick path"), ("scratch", "PPO from scratch against random")):
        scores = [f"{float(row['score']):.0%} against {o}" for (r, o), row in last.items() if r == run]
        minutes = max((float(row["minute"]) for (r, _), row in last.items() if r == run), default=0.0)
        if scores:
            parts.append(f"{label}, after {minutes:.0f} minutes: {', '.join(scores)}")
    return (
        f"**Learning curves** (`swgym curves {game}`, bare networks scored every minute; "
        f"[the curves](../results/2026-12-baselines.md#{game})): " + "; ".join(parts) + "."
    )


def random_play(game: str) -> str:
    """How often random play decides a game of ``game`` (``results/random_play.json``), as a sentence with the
    command that measured it; "" without a measurement."""
    path = RESULTS / "random_play.json"
    row = json.loads(path.read_text()).get(game) if path.exists() else None
    if not row:
        return ""
    decided = 1 - row["draws"] / row["games"]
    dealt = "duplicate deals" if row.get("duplicate_deals") else "seats rotated"
    line = (
        f"**Random play:** {row['games']} games of random against random, {dealt} "
        f"(`{row['command']}`): {decided:.1%} decided, {row['draws'] / row['games']:.1%} drawn "
        f"(a draw: no winner, {row['draw_means']})."
    )
    if decided < 0.5:
        line += (
            " A learner trained from scratch against random therefore rarely sees a result to learn from; the "
            "training page's *Rewards and random play* gives the opt-in shaped reward."
        )
    return line


#: One sentence under a game's results table for each figure a reader would stop at.
RESULT_NOTES = {
    "swival": [
        "The hard wins 0.8% of its games against medium and loses none: Swival is a draw with perfect play and "
        "medium defends well enough to hold it, so the hard's edge is the rare game medium gives away, and its "
        "score (wins plus half the draws) is 50.4% "
        "([`results/2026-11-swival-solve.md`](../results/2026-11-swival-solve.md))."
    ],
    "swimming": [
        "The hard plays 2000 games against three mediums, not 400: on duplicate deals (each deal played with the "
        "seats rotated) its 28.2% against the fair share of 25% is told apart from luck "
        "([`results/2026-11-swimming-duplicate.md`](../results/2026-11-swimming-duplicate.md))."
    ],
    "swahili": [
        "With four players the hard scores 95.5% against three randoms and 100% against three mediums: the game "
        "ends as soon as one player has no piece left on its rows, and in 100 more games against randoms "
        "(seeds 1 to 100) each of its 5 losses went to a random player who led on points when one ran out; "
        "why random players do this more often than mediums was not studied."
    ],
    "squeeze": [
        "Medium's longest move against random (1.8 s) is its first, when its compiled code loads; against easy, "
        "measured after it in the same process, its longest move is 0.09 s."
    ],
}


def results_section(game: str, eval_md: str, has_ladder: bool, records: list[dict] | None = None) -> str:
    """The Results section: the game's rows of ``results/EVAL.md`` with their scores, a sentence under each
    figure that needs one (:data:`RESULT_NOTES`), and its ladder: ratings with 95% intervals."""
    title = doc_sections(game)[0]
    stale = {r["result"]: r for r in records or [] if r.get("stale")}
    table = eval_rows(game, eval_md, records)
    if table:
        parts = [
            f"{games_played(table).capitalize()}, seats rotated, from [`results/EVAL.md`](../results/EVAL.md) "
            "(`swgym report`); the score is wins plus half the draws; s/move is the entrant's wall-clock seconds "
            "a move, median and longest:",
            table,
            *RESULT_NOTES.get(game, []),
        ]
    else:
        parts = ["No evaluation rows in `results/EVAL.md` yet (`swgym report`)."]
    if line := baselines(game):
        parts.insert(0, line)
    if line := random_play(game):
        parts.insert(0, line)
    if has_ladder:
        chart = ladder_chart(game).relative_to(ROOT).as_posix()
        parts += [
            "### Ladder",
            f"![{title} ladder: ratings with 95% intervals](../assets/results/{game}_ladder.png)",
            "`hard@REV` in the chart is the hard opponent as git revision REV shipped it, an earlier hard "
            "([glossary](../hard-opponents.md#glossary)); `mcts` and `mcts:N` the generic tree search (random "
            "play-outs) with 300 or N simulations a move; `network` the hard's network alone, without its search.",
        ]
        if chart in stale:
            parts.append(f"*The ladder{_earlier(stale[chart])}.*")
    return "\n\n".join(parts)


def _earlier(record: dict | None) -> str:
    """A caption's mark of a picture made with an earlier hard ("" when ``record`` is None)."""
    if not record:
        return ""
    sha = next(iter(record["policies"].values()))[:12]
    return f" ({record['note']}, sha256 {sha}...; <code>swgym results</code> makes it again)"


def gif_caption(game: str, record: dict) -> tuple[str, str]:
    """The animation's caption (its players, seed, outcome and the hard's policy file as its provenance ``record``
    names them) and the ``swgym watch`` command that made it."""
    players = GAMES[game].variants[0].get("num_players", 2)
    others = "medium (player_1)" if players == 2 else f"{players - 1} mediums (player_1 to player_{players - 1})"
    caption = f"hard (player_0) against {others}"
    seats = "--p1 medium" if players == 2 else "--others medium"
    command = f"swgym watch {game} --p0 hard {seats}"
    if "seed" in record and "outcome" in record:
        caption += f"; seed {record['seed']}: {record['outcome'].split(': ', 1)[-1]}"
        command += f" --seed {record['seed']} --gif {game}.gif"
    sha = next(iter(record.get("policies", {}).values()), "")
    if sha:
        caption += f"; hard's policy file sha256 {sha[:12]}"
    return caption, command


def package_version() -> str:
    """swgym's version, from pyproject.toml."""
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def version_history(text: str) -> str:
    """A game's version history with the package version each env version came with: the env's first version
    (v0) is the package's first release."""
    return re.sub(r"^\* v0:", f"* v0 (swgym {package_version()}):", text, flags=re.M)


def game_markdown(game: str, eval_md: str, has_ladder: bool, records: list[dict] | None = None) -> str:
    """The whole page of ``game``: pictures, the specs table, the docstring's sections, then Usage and Results
    (written here, the same for every game) before the docstring's Version history. ``records``: the results'
    provenance (``results/provenance.json``)."""
    title, sections = doc_sections(game)
    sections = {
        **{name: sections[name] for name in DOC_SECTIONS if name != "Rule parameters"},
        "Rule parameters": rule_parameters(game, sections["Rule parameters"]),
        "Usage": usage_section(game),
        "Results": results_section(game, eval_md, has_ladder, records),
        "Version history": version_history(sections["Version history"]),
    }
    assert tuple(sections) == PAGE_SECTIONS
    stale = {r["result"]: r for r in records or [] if r.get("stale")}
    gif = next((r for r in records or [] if r["result"] == f"docs/assets/{game}.gif"), {})
    caption, command = gif_caption(game, gif)
    parts = [
        f"# {title}",
        f'<div class="game-pictures" markdown>\n'
        f'<figure markdown="span">\n  [![{title}: {caption}](../assets/{game}.gif)](../assets/{game}.gif)\n'
        f"  <figcaption>{caption}{_earlier(stale.get(f'docs/assets/{game}.gif'))}</figcaption>\n</figure>\n"
        f'<figure markdown="span">\n  ![The {title} board](../assets/{game}_board.png)\n'
        f'  <figcaption>the board, <code>render_mode="rgb_array"</code></figcaption>\n</figure>\n</div>',
        f"*The animation: `{command}`.*",
        specs_table(game),
        *(f"## {name}\n\n{text}" for name, text in sections.items()),
    ]
    return "\n\n".join(parts) + "\n"


def readme_section(readme: str, heading: str) -> str:
    """The body of the README's ``## heading`` section (up to the next ``## ``)."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", readme, flags=re.M | re.S)
    if not match:
        raise ValueError(f"README.md has no '## {heading}' section")
    return match.group(1).strip()


def readme_commands(readme: str) -> str:
    """The README's first code block (make demo / lint / test)."""
    match = re.search(r"^```\n(.*?)^```", readme, flags=re.M | re.S)
    if not match:
        raise ValueError("README.md has no opening code block")
    return f"```\n{match.group(1)}```"


def index_markdown(readme: str) -> str:
    """The home page: the README's description and game table (each game linked to its page), then its opening
    commands with the paragraph that explains them."""
    intro = readme.split("## ", 1)[0]
    if intro.count("```") < 2:
        raise ValueError("README.md does not open with its commands' code block")
    description = intro.split("```", 2)[2].strip().partition("\n\n")[2]  # after the commands and their paragraph
    for game, entry in GAMES.items():
        description = re.sub(
            rf"^\| ([^|:]+)(:[^|]*)?\| `{re.escape(entry.module)}`",
            lambda m, g=game: f"| [{m.group(1).strip()}](games/{g}.md){m.group(2) or ''} | `{GAMES[g].module}`",
            description,
            flags=re.M,
        )
    description = description.replace("on its\ndoc page", "on its\npage here")
    description = description.replace("on its\npage of the documentation (`make docs`)", "on its page here")
    description = description.replace("](docs/", "](")  # the README's pictures, seen from docs/
    titles = {g: doc_sections(g)[0] for g in GAMES}
    gallery = "\n".join(
        f'<figure markdown="span">\n  [![{titles[g]}](assets/{g}_board.png)](games/{g}.md)\n'
        f'  <figcaption markdown="span">[{titles[g]}](games/{g}.md)</figcaption>\n</figure>'
        for g in GAMES
    )
    description = re.sub(r"^!\[[^\]]*\]\([^)]*\)\n", "", description, flags=re.M)  # the gallery shows them all
    return f'# swgym\n\n{description.strip()}\n\n<div class="gallery" markdown>\n{gallery}\n</div>\n\n{QUICK_START}'


# The home page's quick start: every command is run by tests/cli/test_docs.py (the install lines are checked
# against pyproject.toml and the Makefile), the Python block as written.
QUICK_START = """## Quick start

The package is `swgym`; in Python it imports as `envs` (the games), `policies` (opponents, evaluation) and
`training`. From a clone, in a virtualenv (Python 3.11):

```
pip install torch==2.13.0 && pip install -e '.[train]'  # CPU torch first, then swgym with its training extra
swgym play swival --vs hard --tui                       # you against the hard opponent (--tui: in the terminal)
```

A game between random legal moves, with PettingZoo's AEC loop:

```python
import envs
env = envs.make("swival"); env.reset(seed=0)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
```

A short MaskablePPO self-play run (about a minute), then its policy file against the medium bot:

```
swgym train swival --steps 2048 --out runs/quick     # writes runs/quick/swival_hard.npz
swgym eval swival runs/quick/swival_hard.npz medium --games 10
```

Next: [Getting started](getting-started.md) (`make demo`, `make test`, the Gymnasium view),
[Conventions](conventions.md), [Training](training.md), [Evaluation](evaluation.md).
"""


def quick_start_commands() -> list[str]:
    """The quick start's shell commands, one a line, comments dropped."""
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", QUICK_START, flags=re.M | re.S)
    lines = [line for language, block in blocks if not language for line in block.splitlines()]
    return [line.split("  #")[0].strip() for line in lines if line.strip()]


# The API reference, curated as pgx's is: the public entry points grouped by what a user does, each documented once,
# under the name a user imports it by. page: (title, what the page is for, [(section, what it holds, [objects])]).
REFERENCE: dict[str, tuple[str, str, list[tuple[str, str, list[str]]]]] = {
    "reference/environments.md": (
        "Making environments",
        "One game as a PettingZoo AEC env or a single-agent Gymnasium env; `import envs` registers the gymnasium "
        "ids. Each game's page has its actions, observation and rule parameters.",
        [
            ("By name", "", ["envs.make", "envs.make_raw", "envs.list_games", "envs.GAMES"]),
            (
                "The AEC env",
                "Every game's `raw_env` is a `TurnBasedEnv`; `envs.make` wraps it with PettingZoo's standard "
                "wrappers. An illegal action on the raw env raises `RuleError`.",
                ["envs.core.aec.TurnBasedEnv", "envs.core.game.RuleError", "envs.core.observation.Observation"],
            ),
            (
                "The single-agent env",
                '`gymnasium.make("swgym/<Game>-v0", opponent=...)`: the learner holds one seat, `opponent` plays the '
                "others.",
                ["envs.single_agent.SingleAgentEnv"],
            ),
        ],
    ),
    "reference/batched.md": (
        "Batched engine and vector env",
        "Thousands of boards of one game stepped in one compiled call (numba), for the games with a batched engine.",
        [
            (
                "A learner against opponents",
                "",
                ["envs.vector.make_vec", "envs.vector", "envs.vector.BatchedVectorEnv"],
            ),
            ("Every seat from the caller", "", ["envs.make_batched", "envs.core.batched.BatchedGame"]),
        ],
    ),
    "reference/opponents.md": (
        "Opponents and policies",
        "What plays the seats you do not: built-in bots, the shipped hard opponents and policy files, or an object "
        "of your own with `act` and `reset`.",
        [
            ("Making an opponent", "", ["envs.opponents.make_opponent", "policies.load", "policies.shipped_path"]),
            (
                "What an opponent is",
                "",
                [
                    "envs.core.opponents.Opponent",
                    "envs.core.opponents.BatchOpponent",
                    "envs.core.opponents.OpponentError",
                ],
            ),
            (
                "Policy files",
                "A trained network run with numpy only; `hard` is one with its search.",
                ["policies.NumpyPolicy", "policies.PolicyFileError", "policies.search.mcts.make_mcts"],
            ),
        ],
    ),
    "reference/evaluation.md": (
        "Evaluation",
        "Games and seeded series between opponents, their results with confidence intervals, ladders of ratings.",
        [
            ("Games and series", "", ["envs.play.play_game", "envs.play.play_series", "envs.play.SeriesResult"]),
            (
                "Evaluating and rating",
                "",
                ["policies.evaluation.evaluate", "policies.ladder.ladder", "policies.report.report"],
            ),
        ],
    ),
    "reference/training.md": (
        "Training",
        "Self-play training and export to a policy file (torch; `pip install -e '.[train]'` from a clone).",
        [
            (
                "MaskablePPO self-play",
                "",
                ["training.selfplay.train", "training.config.load_config", "training.sb3_vec.make_sb3_vec"],
            ),
            ("Training with search", "", ["training.gumbel", "training.gumbel.train", "training.gumbel.Settings"]),
            ("RLlib", "", ["training.rllib.train", "training.rllib.TurnBasedMultiAgentEnv"]),
            ("Export", "", ["training.export.export_policy"]),
        ],
    ),
}


def reference_markdown(title: str, about: str, sections: list[tuple[str, str, list[str]]]) -> str:
    """One API reference page: its sections, each an intro and its objects (mkdocstrings directives, headings one
    level under the section's)."""
    parts = [f"# {title}", about]
    for heading, intro, objects in sections:
        parts.append(f"## {heading}")
        if intro:
            parts.append(intro)
        for name in objects:  # a module shows its docstring only: its entry points are listed one by one
            members = "\n      members: false" if (ROOT / f"{name.replace('.', '/')}.py").exists() else ""
            options = f"heading_level: 3\n      show_attribute_values: false{members}"
            parts.append(f"::: {name}\n    options:\n      {options}")
    return "\n\n".join(parts) + "\n"


#: The pictures of ``results/`` the site publishes beside its pages (``results/<name>.md`` links them).
RESULT_PICTURES = ("*.png", "*/*.png", "*.gif")


def repo_url() -> str:
    """The repository's public address, from ``SWGYM_REPO_URL`` (mkdocs.yml reads the same variable), or ""."""
    import os

    return os.environ.get("SWGYM_REPO_URL", "").rstrip("/")


#: A results page's front matter: the site's search ranks it far below the guides and game pages, which a reader
#: looking up a game or a task wants first (the dated pages name the games in every section).
RESULT_FRONT_MATTER = "---\nsearch:\n  boost: 0.05\n---\n\n"


def result_page(name: str, text: str) -> str:
    """The page of results file ``name`` (its Markdown as written), with where the file lives."""
    url = repo_url()
    where = f"[`results/{name}`]({url}/blob/main/results/{name})" if url else f"`results/{name}`"
    title = "" if text.startswith("# ") else f"# `results/{name}`\n\n"
    if name[:1].isdigit():
        what = "a dated record of the code and policy files of its day (its commits are named in it)"
    else:
        what = "kept to the shipped files by `make results` (what made each part: `results/provenance.json`)"
    footer = f"*The file {where} of the repository: {what}. The [results index](../results.md).*"
    return f"{RESULT_FRONT_MATTER}{title}{text.rstrip()}\n\n---\n\n{footer}\n"


def linked_results(text: str, prefix: str = "") -> str:
    """``text`` with each mention of another page of the site a link to it: a published results page
    (`` `results/NAME.md` ``) or a written one (`` `docs/NAME.md` ``); ``prefix`` leads from the page to the site's
    root ("../" from ``results/``)."""
    published = {p.name for p in RESULTS.glob("*.md")}
    written = {p.name for p in (ROOT / "docs").glob("*.md")}

    def link(m: re.Match) -> str:
        folder, name = m[1], m[2]
        if folder == "results" and name in published:
            return f"[`results/{name}`]({prefix}results/{name})"
        if folder == "docs" and name in written:
            return f"[`docs/{name}`]({prefix}{name})"
        return m[0]

    return re.sub(r"(?<!\[)`(results|docs)/([\w.-]+\.md)`", link, text)


def rllib_note(docs_dir: Path) -> str:
    """The end of the training page's RLlib section: a link to ``rllib.md`` when the page exists, else a note."""
    if (docs_dir / "rllib.md").exists():
        return "How to train with it, on one machine or a cluster: [Training with RLlib](rllib.md).\n"
    return "*Not part of this version of swgym yet.*\n"


def pages() -> dict[str, str]:
    """Every generated page's Markdown by its path in the site (``training.md``: the written page completed)."""
    readme = README.read_text()
    eval_md = (RESULTS / "EVAL.md").read_text() if (RESULTS / "EVAL.md").exists() else ""
    records = provenance_records()
    out = {f"games/{game}.md": game_markdown(game, eval_md, ladder_chart(game).exists(), records) for game in GAMES}
    out["index.md"] = index_markdown(readme)
    out["getting-started.md"] = GETTING_STARTED.format(
        commands=readme_commands(readme),
        using=re.sub(
            r"the conventions page\s+of the documentation \(`docs/conventions.md`\)",
            "[Conventions](conventions.md)",
            readme_section(readme, "Using the environments"),
        ),
    )
    out["playing.md"] = PLAYING.format(playing=readme_section(readme, "Playing"))
    out["opponents.md"] = (
        f"# Opponents\n\nHow each opponent is built.\n\n{linked_results(readme_section(readme, 'Opponents'))}\n\n"
        "Each game's page has its opponents' results and ladder.\n"
    )
    out["training.md"] = linked_results((ROOT / "docs" / "training.md").read_text()) + "\n" + rllib_note(ROOT / "docs")
    for page, (title, about, sections) in REFERENCE.items():
        out[page] = reference_markdown(title, about, sections)
    out["results.md"] = linked_results((ROOT / "docs" / "results.md").read_text())
    for path in sorted(RESULTS.glob("*.md")):
        out[f"results/{path.name}"] = result_page(path.name, linked_results(path.read_text(), "../"))
    return out


def main() -> None:
    """Write the generated pages and copy the Elo charts into the site (the play app's picture is
    ``docs/assets/play_app.png``, made by ``make docs-assets`` at the app's own size)."""
    import mkdocs_gen_files

    for game in GAMES:
        chart = ladder_chart(game)
        if chart.exists():
            with mkdocs_gen_files.open(f"assets/results/{game}_ladder.png", "wb") as f:
                f.write(chart.read_bytes())
    for pattern in RESULT_PICTURES:
        for path in sorted(RESULTS.glob(pattern)):
            with mkdocs_gen_files.open(f"results/{path.relative_to(RESULTS).as_posix()}", "wb") as f:
                f.write(path.read_bytes())
    for path, text in pages().items():
        with mkdocs_gen_files.open(path, "w") as f:
            f.write(text)


if __name__ in ("__main__", "<run_path>"):
    main()
