"""The tier boundaries of every surveyed game and variant (docs/difficulty.md), written by
benchmarks/difficulty_survey.py: label (rating.table_label) -> ((the random player's chance at
the 20%, 40%, 60% and 80% quantiles of the won deals), won deals rated, seeds surveyed)."""

BOUNDARIES: dict[str, tuple[tuple[float, float, float, float], int, int]] = {
}
