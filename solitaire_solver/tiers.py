"""The tier boundaries of every surveyed game and variant (docs/difficulty.md), written by
benchmarks/difficulty_survey.py: label (rating.table_label) -> ((the random player's chance at
the 20%, 40%, 60% and 80% quantiles of the won deals), won deals rated, seeds surveyed)."""

BOUNDARIES: dict[str, tuple[tuple[float, float, float, float], int, int]] = {
    'elevens':
        ((1.0, 1.0, 1.0, 1.0), 10588, 100000),
    'elevens reserves=pysolfc':
        ((1.0, 1.0, 1.0, 1.0), 42194, 97243),
    'block-ten':
        ((1.0, 1.0, 1.0, 1.0), 3699, 100000),
    'tens':
        ((1.0, 1.0, 1.0, 1.0), 9113, 100000),
    'tens quartets=rank reserves=pysolfc':
        ((0.0, 4.783248584e-09, 6.674000853e-08, 7.359858326e-07), 1712, 18438),
    'fifteens':
        ((0.315, 0.534, 0.6625, 0.801), 611, 628),
    'simple-pairs':
        ((1.0, 1.0, 1.0, 1.0), 24403, 100000),
    'thirteens':
        ((1.0, 1.0, 1.0, 1.0), 38915, 62053),
    'block-elevens':
        ((1.0, 1.0, 1.0, 1.0), 31764, 100000),
    'baroness':
        ((0.0, 0.0, 4.406807419e-05, 0.001), 1216, 6679),
    'baroness last_deal=together to_empty=True':
        ((0.0, 0.001, 0.0035, 0.015), 37, 50),
    'fifteens-pysolfc':
        ((0.0, 0.0, 0.0, 0.0), 36, 36),
    'fourteen':
        ((0.01892690766, 0.05812435312, 0.1067840526, 0.193692177), 1839, 1987),
    'monte-carlo':
        ((0.072, 0.1735, 0.2665, 0.3375), 634, 709),
    'nestor':
        ((0.02378575052, 0.08838734568, 0.2222222222, 0.4952361433), 17338, 100000),
    'nestor reserve=open':
        ((0.0005650873519, 0.004959269708, 0.02433235172, 0.1039542382), 19695, 37012),
    'pyramid':
        ((0.0005, 0.003, 0.01, 0.0255), 1054, 1573),
    'pyramid goal=pyramid':
        ((0.0045, 0.024, 0.059, 0.12), 1230, 1819),
    'pyramid first_to_waste=True':
        ((0.0005, 0.0035, 0.01, 0.0245), 1100, 1640),
    'pyramid first_to_waste=True goal=pyramid':
        ((0.0045, 0.023, 0.053, 0.114), 1309, 1944),
    'clock':
        ((1.0, 1.0, 1.0, 1.0), 7746, 100000),
    'accordion':
        ((0.0, 0.0, 0.0, 0.0), 313, 313),
    'montana redeals=2':
        ((0.001, 0.0015, 0.002, 0.0025), 176, 179),
    'calculation':
        ((0.0, 0.0, 0.0, 0.0), 86, 126),
    'montana':
        ((0.0, 0.0, 0.0005, 0.001), 23, 78),
    'calculation start=last':
        ((0.0, 0.0, 0.0, 0.0), 94, 146),
}
