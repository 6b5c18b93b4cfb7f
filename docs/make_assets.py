"""Make the documentation's pictures (``make docs-assets``; slow, run by hand, the results are committed).

For every game: ``docs/assets/<game>.gif``, a hard vs medium game written by ``swgym watch --gif`` (the first seed
from ``--seed`` on, of ``--tries``, at which hard wins, else the last tried) and shrunk
(frames thinned, scaled down, one palette) to well under 1 MB, and ``docs/assets/<game>_board.png``, the board
from ``render_mode="rgb_array"`` after a few seeded random moves; with no game named, also ``play_app.png``, the
play app at its own size. The site's build only links to these files.
Each picture's record in ``results/provenance.json`` gets the command, date, commit, policy file hashes, and for a
GIF its seed and outcome (the page's caption).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import envs  # noqa: E402
from policies import provenance  # noqa: E402
from scripts.results import picture_record  # noqa: E402
from scripts.watch import watch  # noqa: E402

ASSETS = ROOT / "docs" / "assets"
MAX_FRAMES = 48  # a longer game is thinned evenly (first and last frames kept)
MAX_WIDTH = 640  # pixels: the text of the frames stays legible where the page shows them at full size
MAX_BYTES = 900_000  # each GIF stays under this (1 MB is the limit)
FRAME_MS = 600
LAST_FRAME_MS = 2500


def shrink_gif(source: Path, target: Path, max_frames: int = MAX_FRAMES, max_width: int = MAX_WIDTH) -> int:
    """Rewrite GIF ``source`` as ``target`` with at most ``max_frames`` frames, ``max_width`` pixels wide and one
    shared 64-colour palette; halves frames and width until it fits :data:`MAX_BYTES`. Returns the size in bytes."""
    with Image.open(source) as gif:
        frames = []
        for i in range(gif.n_frames):
            gif.seek(i)
            frames.append(gif.convert("RGB"))
    while True:
        keep = np.unique(np.linspace(0, len(frames) - 1, min(max_frames, len(frames))).round().astype(int))
        picked = [frames[i] for i in keep]
        scale = min(1.0, max_width / picked[0].width)
        size = (round(picked[0].width * scale), round(picked[0].height * scale))
        picked = [f.resize(size, Image.LANCZOS) for f in picked]
        palette = picked[-1].quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        paletted = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in picked]
        durations = [FRAME_MS] * (len(paletted) - 1) + [LAST_FRAME_MS]
        paletted[0].save(target, save_all=True, append_images=paletted[1:], duration=durations, loop=0, optimize=True)
        nbytes = target.stat().st_size
        if nbytes <= MAX_BYTES:
            return nbytes
        max_frames, max_width = max(8, max_frames // 2), max(200, int(max_width * 0.8))


def board_png(game: str, target: Path, moves: int = 6, seed: int = 3) -> None:
    """The board of ``game`` after ``moves`` seeded random legal moves, as rendered by ``rgb_array``."""
    env = envs.make(game, render_mode="rgb_array")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    frame = env.render()
    env.close()
    image = Image.fromarray(frame)
    if image.width > MAX_WIDTH * 1.5:
        scale = MAX_WIDTH * 1.5 / image.width
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    image.save(target, optimize=True)


def play_app_png(target: Path, game: str = "twirls") -> None:
    """The play app at its own size (no display needed): ``game`` against random, the person's first move made and a
    stone selected with its destinations marked, as the app's tests set it up (seed 11)."""
    from scripts.app.session import Session
    from scripts.app.window import App

    session = Session(game, seed=11, player="ann", clock=lambda: 0.0, scores=None, think=1.0, vs="random", seat=0)
    app = App(session, sound=False)
    for _ in range(20):
        if session.my_turn:
            several = [keys[0] for keys in session.options().values() if len(keys[0]) > 1]
            if several:
                session.click(sorted(several)[0][0])
                break
            session.play(sorted(session.options())[0])
        app.step()
    app.draw()
    from envs.core.rendering import surface_to_array

    Image.fromarray(surface_to_array(app.screen)).save(target, optimize=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to make pictures of (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="first seed of the watched games")
    parser.add_argument("--tries", type=int, default=5, help="seeds tried for a game the hard opponent wins")
    args = parser.parse_args(argv)
    games = args.games or envs.list_games()
    unknown = [g for g in games if g not in envs.GAMES]
    if unknown:
        raise SystemExit(f"make_assets: unknown game(s) {', '.join(unknown)}; the games are: {', '.join(envs.GAMES)}")
    ASSETS.mkdir(parents=True, exist_ok=True)
    if not args.games:
        play_app_png(ASSETS / "play_app.png")
    records = provenance.load_records()
    for game in games:
        board_png(game, ASSETS / f"{game}_board.png")
        picture_record(records, f"docs/assets/{game}_board.png", "make docs-assets (docs/make_assets.py)", {})
        params = envs.GAMES[game].variants[0]
        players = ["hard"] + ["medium"] * (envs.make_raw(game, **params).game.num_players - 1)
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "game.gif"
            for seed in range(args.seed, args.seed + args.tries):
                outcome = watch(game, players, seed=seed, gif=str(raw), **params)
                print(f"{game}, seed {seed}: {outcome}", flush=True)
                if "player_0 (hard) won" in outcome:
                    break
            nbytes = shrink_gif(raw, ASSETS / f"{game}.gif")
        picture_record(
            records,
            f"docs/assets/{game}.gif",
            f"python docs/make_assets.py {game} --seed {args.seed} --tries {args.tries}",
            {provenance.shipped_file(game, params): None},
            seed=seed,
            outcome=outcome.split("; ")[0],
        )
        provenance.save_records(records)
        print(f"{game}: {ASSETS / f'{game}.gif'} ({nbytes // 1000} kB), {ASSETS / f'{game}_board.png'}", flush=True)


if __name__ == "__main__":
    main()
