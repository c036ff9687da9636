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
        ((4.224239748e-43, 7.456175078e-22, 4.090240462e-19, 3.367569554e-18), 40, 40),
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
        ((1.306595728e-20, 9.841517265e-19, 4.806159206e-17, 1.506871574e-14), 906, 906),
    'montana redeals=2':
        ((0.00125, 0.00165, 0.00195, 0.0024), 1192, 1192),
    'calculation':
        ((1.06174116e-26, 1.735020937e-19, 3.454744384e-16, 2.140906189e-14), 329, 330),
    'montana':
        ((0.0, 0.0, 5e-05, 0.001), 43, 67),
    'calculation start=last':
        ((6.839820837e-32, 4.042956263e-20, 8.329368909e-18, 1.163875633e-14), 99, 105),
}
