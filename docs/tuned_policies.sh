#!/usr/bin/env bash
# Regenerate the built-in tuned policies (engine/policies/tuned-GAME.toml): for each preset whose
# starting hands the heads-up grid ranks, `sampyong tune` from pro-like at six players, with the
# command's defaults (3 rounds, 60 trials a round, 4k common deals a trial, seed 0).
set -euo pipefail
cd "$(dirname "$0")/.."
for game in "${@:-holdem plo plo8 pls pls7 pls7-2}"; do
    for g in $game; do
        sampyong tune --game "$g" --players 6 --start pro-like --out "engine/policies/tuned-$g.toml"
    done
done
