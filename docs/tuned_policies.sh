#!/usr/bin/env bash
# Regenerate the built-in tuned policies (engine/policies/tuned-GAME.toml) of the games the panel
# measures skill in (hold'em, PLO, PLO8, PLS7; or the games given): `sampyong tune` from pro-like at
# six players with the command's defaults (3 rounds, 60 trials a round, 4k common deals a trial,
# seed 0). About 15 minutes a game on one loaded core.
set -euo pipefail
cd "$(dirname "$0")/.."
for game in "${@:-holdem plo plo8 pls7}"; do
    for g in $game; do
        sampyong tune --game "$g" --players 6 --start pro-like --out "engine/policies/tuned-$g.toml"
    done
done
