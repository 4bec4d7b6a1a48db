#!/usr/bin/env python3
"""The relative error of every variant of a results file over other error horizons H.

Usage: python3 scripts/error-horizon.py RESULTS.json [H ...]   (default H: 12 16 20 24 32 48)

Reads each variant's `error_curve` (the mean per-frame relative-error summand over every test
and seed, at most 200 frames kept, clipped like the metric) and averages it over frames 0..H,
interpolating linearly between the kept frames. This approximates the study's relative error
at horizon H: the file's own metric (H = 12) is printed beside it as a check, and the per-frame
normalisation is the evaluation's own (max u² of the rollout the code normalises by), not
re-taken over 0..H. Prints P-WIG / C-NOG where both are present.
"""
import json
import sys


def label(variant):
    mode = {"predict": "P", "correct": "C", "transition": "T"}[variant["mode"]]
    return f"{mode}-{variant['modality'].upper()} {variant['channels']}×{variant['depth']} m={variant['horizon']}"


def average(curve, horizon):
    """Mean of the curve over frames 0..horizon, linear between the kept frames."""
    frames = [f for f, _ in curve]
    if not curve or horizon > frames[-1]:
        return float("nan")
    total = 0.0
    for t in range(horizon + 1):
        i = max(k for k, f in enumerate(frames) if f <= t)
        if frames[i] == t or i + 1 == len(frames):
            total += curve[i][1]
        else:
            (f0, y0), (f1, y1) = curve[i], curve[i + 1]
            total += y0 + (y1 - y0) * (t - f0) / (f1 - f0)
    return total / (horizon + 1)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    try:
        results = json.load(open(argv[1]))
        horizons = [int(h) for h in argv[2:]] or [12, 16, 20, 24, 32, 48]
    except (OSError, ValueError) as err:
        print(f"error-horizon: {err}", file=sys.stderr)
        sys.exit(2)
    variants = {label(v): v for v in results["variants"]}
    print("variant".ljust(22), "file's H=12".rjust(12), *(f"H={h}".rjust(10) for h in horizons))
    for name, v in variants.items():
        curve = v["metrics"].get("error_curve", [])
        own = v["metrics"]["relative_error"]["mean"]
        print(name.ljust(22), f"{own:12.3e}", *(f"{average(curve, h):10.3e}" for h in horizons))
    wig = [v for n, v in variants.items() if n.startswith("P-WIG")]
    nog = [v for n, v in variants.items() if n.startswith("C-NOG")]
    if len(wig) == 1 and len(nog) == 1:
        ratios = [
            average(wig[0]["metrics"]["error_curve"], h) / average(nog[0]["metrics"]["error_curve"], h)
            for h in horizons
        ]
        print("P-WIG / C-NOG".ljust(22), " " * 12, *(f"{r:10.2f}" for r in ratios))


if __name__ == "__main__":
    main(sys.argv)
