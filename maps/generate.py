"""Generate the committed map data: ``python -m maps.generate`` (needs the ``maps`` extra).

Writes conquest/data/maps/{usa100,world42,campaign15}.json. Deterministic: the same inputs
(package versions, see maps/README.md) and seeds give the same bytes.
"""

from __future__ import annotations

import argparse
import sys
import time

from . import campaign, usa, world
from .common import OUT_DIR, bfs_diameter, write_json

DEFAULT_SEEDS = (1, 2, 3, 4, 5, 6)


def _report(obj: dict, size: int) -> None:
    ids = [t["id"] for t in obj["territories"]]
    print(
        f"{obj['id']}: {len(ids)} territories, {len(obj['edges'])} edges "
        f"({len(obj['sea_links'])} by sea), diameter {bfs_diameter(ids, obj['edges'])}, {size} bytes"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--seeds",
        default=",".join(map(str, DEFAULT_SEEDS)),
        help="usa100 clustering seeds to try (best area ratio wins)",
    )
    ap.add_argument("--only", choices=["usa100", "world42", "campaign15"], action="append")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    only = set(args.only or ["usa100", "world42", "campaign15"])
    verbose = not args.quiet
    t0 = time.perf_counter()
    if only & {"usa100", "campaign15"}:
        seeds = tuple(int(s) for s in args.seeds.split(","))
        usa_obj, info = usa.build(seeds=seeds, verbose=verbose)
        if "usa100" in only:
            _report(usa_obj, write_json(usa_obj, OUT_DIR / "usa100.json"))
        if "campaign15" in only:
            camp = campaign.build(usa_obj, info, verbose=verbose)
            _report(camp, write_json(camp, OUT_DIR / "campaign15.json"))
    if "world42" in only:
        w = world.build(verbose=verbose)
        _report(w, write_json(w, OUT_DIR / "world42.json"))
    print(f"done in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
