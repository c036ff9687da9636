"""Pictures in a notebook (docs/pictures.md): what `Result`, `Position` and `Rating` show in
Jupyter through `_repr_svg_` and `_repr_html_`, drawn by render_svg and render_html from the
deal each keeps when solve(), position() or rate() made it (None where it keeps none: the
notebook then shows the text)."""

from __future__ import annotations

from html import escape
from typing import Any, Optional

from ..result import Result, Status, counted


def _deal_of(obj: Any) -> Any:
    return obj.__dict__.get("_deal")


def result_svg(result: Result) -> Optional[str]:
    """The position the answer is for, the cards of its first move marked when it wins."""
    from . import render_svg
    deal = _deal_of(result)
    if deal is None:
        return None
    mark = result.moves[0] if result.won and result.moves else None
    return render_svg(result.game, deal, result.variant, after=result.after, mark=mark)


def result_html(result: Result) -> Optional[str]:
    """The answer page (render_html) in a frame of its own: its script and style stay in it."""
    from . import render_html
    deal = _deal_of(result)
    if deal is None:
        return None
    page = render_html(result.game, deal, result)
    return (f'<iframe srcdoc="{escape(page, quote=True)}" style="width: 100%; height: 38em; '
            'border: 1px solid #ddd"></iframe>')


def position_svg(position: Any) -> Optional[str]:
    """The position drawn (render_svg)."""
    from . import render_svg
    deal = _deal_of(position)
    if deal is None:
        return None
    return render_svg(position.game, deal, position.variant, after=position.after)


def rating_html(rating: Any) -> Optional[str]:
    """The rating as a table, the position rated, and each critical position with its winning
    moves marked."""
    from . import render_svg
    deal = _deal_of(rating)
    rows = [("verdict", rating.status.value)]
    if rating.tier:
        rows.append(("tier", rating.tier))
    if rating.exact:
        rows.append(("random player wins", f"{rating.random_win:.6g} (exact)"))
    else:
        lo, hi = rating.interval
        rows.append(("random player wins", f"{rating.random_win:.4g} (95% interval {lo:.4g} "
                                           f"to {hi:.4g}, {rating.lines})"))
    rows.append(("effort", f"{counted(rating.positions, 'position')}, "
                           f"{rating.seconds * 1000:.1f} ms"))
    colour = {Status.WON: "#14632f", Status.BLOCKED: "#8a1c1c"}.get(rating.status, "#6b5200")
    out = [f'<div><table style="border-collapse: collapse"><caption style="text-align: left; '
           f'color: {colour}; font-weight: bold">{escape(rating.game)}</caption>']
    out += [f"<tr><th style='text-align: left; padding-right: 1em'>{escape(k)}</th>"
            f"<td>{escape(v)}</td></tr>" for k, v in rows]
    out.append("</table>")
    if deal is not None:
        out.append(render_svg(rating.game, deal, rating.variant, after=rating.after))
        for c in rating.critical:
            out.append(f"<p>{escape(str(c))}</p>")
            out.append(render_svg(rating.game, deal, rating.variant, after=c.line,
                                  mark=c.winning[0] if c.winning else None))
    else:
        out += [f"<p>{escape(str(c))}</p>" for c in rating.critical]
    out.append("</div>")
    return "\n".join(out)
