"""The tier boundaries of every surveyed game and variant (docs/difficulty.md), written by
benchmarks/difficulty_survey.py: label (rating.table_label) -> ((the random player's chance at
the 20%, 40%, 60% and 80% quantiles of the won deals), won deals rated, seeds surveyed)."""

BOUNDARIES: dict[str, tuple[tuple[float, float, float, float], int, int]] = {
    'elevens':
        ((1.0, 1.0, 1.0, 1.0), 10588, 100000),
    'elevens reserves=pysolfc':
        ((1.0, 1.0, 1.0, 1.0), 43357, 100000),
    'block-ten':
        ((1.0, 1.0, 1.0, 1.0), 3699, 100000),
    'tens':
        ((1.0, 1.0, 1.0, 1.0), 9113, 100000),
    'tens quartets=rank reserves=pysolfc':
        ((7.577899191e-09, 9.964200762e-08, 9.341091884e-07, 1.098702869e-05), 9196, 100000),
    'fifteens':
        ((0.3203823612, 0.532, 0.6725, 0.8048618405), 2831, 2922),
    'simple-pairs':
        ((1.0, 1.0, 1.0, 1.0), 24403, 100000),
    'thirteens':
        ((1.0, 1.0, 1.0, 1.0), 62662, 100000),
    'block-elevens':
        ((1.0, 1.0, 1.0, 1.0), 31764, 100000),
    'baroness':
        ((4.625707815e-06, 3.840736789e-05, 0.000346473724, 0.001), 18401, 100000),
    'baroness last_deal=together to_empty=True':
        ((0.0002485008435, 0.001, 0.005, 0.016), 1778, 3021),
    'fifteens-pysolfc':
        ((5.447935433e-19, 2.647836302e-18, 9.101893443e-18, 4.519166873e-17), 1100, 1100),
    'fourteen':
        ((0.0155, 0.0506692638, 0.1057737292, 0.1958603716), 92714, 100000),
    'monte-carlo':
        ((0.068, 0.1645, 0.2515, 0.34), 3285, 3676),
    'nestor':
        ((0.02378575052, 0.08838734568, 0.2222222222, 0.4952361433), 17338, 100000),
    'nestor reserve=open':
        ((0.0005448193856, 0.004954507711, 0.02385430896, 0.1026524759), 53269, 100000),
    'pyramid':
        ((0.0005345654011, 0.0035, 0.0095, 0.024), 35255, 53380),
    'pyramid goal=pyramid':
        ((0.006, 0.0245, 0.0575, 0.1225), 10281, 15410),
    'pyramid first_to_waste=True':
        ((0.0007259266858, 0.0035, 0.0095, 0.0245), 6447, 9745),
    'pyramid first_to_waste=True goal=pyramid':
        ((0.006, 0.024, 0.0555, 0.117), 10154, 15227),
    'clock':
        ((1.0, 1.0, 1.0, 1.0), 7746, 100000),
    'accordion':
        ((1.32737174e-20, 1.166706411e-18, 5.86709385e-17, 2.205432582e-14), 1100, 1100),
    'montana redeals=2':
        ((0.00125, 0.00165, 0.00195, 0.0024), 1192, 1192),
    'calculation':
        ((2.073293393e-30, 7.699845574e-20, 5.683761134e-17, 2.323342686e-14), 1100, 1102),
    'montana':
        ((0.0, 0.0, 5e-05, 0.00055), 1100, 1731),
    'calculation start=last':
        ((0.0, 5.036327903e-21, 1.270354691e-17, 1.233359617e-14), 1100, 1117),
}
