"""Write a copy of a policy file whose search settings differ: the variants that the search studies measure.

The arrays are copied unchanged; only ``meta["search"]`` changes. Values are JSON (``true``, ``80000``,
``"value"``); ``--drop`` removes a setting (it then takes :class:`policies.search.PolicySearch`'s default).

    python -m research.search_settings IN OUT [--set KEY=VALUE ...] [--drop KEY ...]

e.g. Swish's hard searched like Squeeze's (every move in the value's order, compiled)::

    python -m research.search_settings policies/swish_hard.npz runs/exp/swish_compiled/shipped.npz \
        --set compiled=true order_by='"value"' width=0 total_work=80000 --drop root_width
"""

from __future__ import annotations

import argparse
import json

from policies import PolicyFileError, load
from policies.numpy_policy import read_policy_file, write_policy_file


def changed_search(search: dict, settings: list[str], drop: list[str]) -> dict:
    """``search`` with each ``KEY=VALUE`` of ``settings`` set (VALUE in JSON) and each key of ``drop`` removed."""
    out = dict(search)
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--set takes KEY=VALUE, got {item!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError as error:
            raise SystemExit(f"--set {key}: {value!r} is not JSON ({error.msg})") from None
    for key in drop:
        out.pop(key, None)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--set", action="extend", nargs="+", default=[], metavar="KEY=VALUE")  # repeatable
    parser.add_argument("--drop", action="extend", nargs="+", default=[], metavar="KEY")
    args = parser.parse_args()
    meta, arrays = read_policy_file(args.source)
    meta["search"] = changed_search(meta.get("search", {}), args.set, args.drop)
    out = write_policy_file(args.out, meta, arrays)
    try:
        load(meta["game"], args.out, **meta.get("params", {}))  # settings the search refuses fail here, by name
    except PolicyFileError as error:
        out.unlink()
        raise SystemExit(str(error)) from None
    print(f"{args.out}: search {json.dumps(meta['search'], sort_keys=True)}")


if __name__ == "__main__":
    main()
