"""The answer page: one HTML file with everything inline (style, script, every position as an
SVG frame drawn here in Python), so it works offline and from any folder."""

from __future__ import annotations

from html import escape

from ..deal import Deal
from ..errors import MoveError
from ..games import Game
from ..games.rules import replay, walk
from ..positions import unicode_cards
from ..result import Result, counted
from .shapes import draw
from .svg import defs

#: Pictures on the page are drawn larger than a standalone SVG's natural size.
SCALE = 1.5

STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 70em; padding: 0 1em;
       color: #1b1b1b; background: #f4f1ea; }
h1 { font-size: 1.4em; margin-bottom: .2em; }
.verdict { font-size: 1.1em; margin: .4em 0 .8em; }
.won { color: #14632f; } .blocked { color: #8a1c1c; } .unknown { color: #6b5200; }
pre { white-space: pre-wrap; background: #fff; padding: .6em; border: 1px solid #ddd; }
.controls { display: flex; gap: .4em; align-items: center; flex-wrap: wrap; margin: .6em 0; }
.controls button { font-size: 1em; padding: .3em .8em; }
#caption { margin-left: .6em; }
.frame svg { max-width: 100%; height: auto; }
#moves { columns: 10em; padding-left: 2.5em; }
#moves button { font: inherit; background: none; border: 0; padding: .1em .3em; cursor: pointer; }
#moves li.current button { background: #ffb000; border-radius: 3px; }
#moves li.done button { color: #888; }
.sprite { position: absolute; width: 0; height: 0; overflow: hidden; }
"""

# Frame k shows the position after k moves of the line, the cards of move k+1 marked; move j
# of the list opens frame j-1, where it is about to be played.
SCRIPT = """
(function () {
  var frames = document.querySelectorAll(".frame");
  var items = document.querySelectorAll("#moves li");
  var caption = document.getElementById("caption");
  var last = frames.length - 1, current = 0;
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    frames[current].hidden = true;
    frames[k].hidden = false;
    current = k;
    caption.textContent = frames[k].getAttribute("data-caption");
    for (var j = 0; j < items.length; j++) {
      items[j].className = j < k ? "done" : (j === k ? "current" : "");
    }
    document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled =
      k === last;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(current - 1); };
  document.getElementById("next").onclick = function () { show(current + 1); };
  document.getElementById("last").onclick = function () { show(last); };
  for (var j = 0; j < items.length; j++) {
    items[j].querySelector("button").onclick = (function (k) {
      return function () { show(k); };
    })(j);
  }
  document.addEventListener("keydown", function (e) {
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  show(0);
})();
"""


def _line(result: Result) -> tuple[tuple, str]:
    """The moves the page steps through and the verdict sentence."""
    if result.won:
        score = f", score {result.score}" if result.score is not None else ""
        return result.moves, f"Won in {counted(len(result.moves), 'move')}{score}."
    if result.blocked and result.proof is not None:
        return result.proof.moves, f"Blocked: {result.proof.sentence}."
    return (), (f"Unknown: {result.reason or 'a search limit was reached'}. The search stopped "
                "before it decided the position, so there is no line to show.")


def page(g: Game, variant: dict, deal: Deal, result: Result) -> str:
    """The page of `result` for `deal` (see pictures.render_html)."""
    rules = g.rules(variant)
    at = replay(rules, deal, result.after)
    line, verdict = _line(result)
    frames = []
    n = len(line)
    for k, pos in enumerate(walk(rules, deal, line, MoveError, at, "move {i} of the answer")):
        m = line[k] if k < n else None
        if m is not None:
            caption = f"Move {k + 1} of {n}: {unicode_cards(str(m))}"
            caption += " (the marked cards go)" if m.cards else ""
        elif result.won:
            # A best-score line (objective "score") may end without winning.
            end = "won" if rules.won(pos) else "the end of the line"
            caption = f"After move {n} of {n}: {end}" if n else f"The position: {end}"
        elif result.blocked:
            caption = (f"After move {n} of {n}: stuck" if n else
                       "The position: no line of play wins from here")
        else:
            caption = "The position (undecided)"
        svg = draw(g, rules, pos, m.cards if m is not None else (), caption).to_svg(
            with_defs=False, scale=SCALE)
        frames.append(f'<div class="frame" data-step="{k}" data-caption="{escape(caption)}"'
                      f' hidden>{svg}</div>')
    kind = result.status.value
    title = f"{g.name}: {kind}"
    items = "".join(f'<li><button type="button">{escape(unicode_cards(str(m)))}</button></li>'
                    for m in line)
    what = "The forced line" if result.blocked else "The winning line"
    moves = f"<h2>{what}</h2><ol id=\"moves\">{items}</ol>" if line else '<ol id="moves"></ol>'
    after = ""
    if result.after:
        played = " ".join(str(m) for m in result.after)
        after = (f"<p>From the position after {counted(len(result.after), 'move')}: "
                 f"<code>{escape(unicode_cards(played))}</code></p>")
    opts = ", ".join(f"{k}={v}" for k, v in variant.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{STYLE}</style></head>
<body>
<svg class="sprite" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">{defs()}</svg>
<h1>{escape(g.name)}{escape(f" ({opts})") if opts else ""}</h1>
<p class="verdict {escape(kind)}" id="verdict">{escape(verdict)}</p>
<details><summary>The deal</summary><pre id="deal">{escape(str(deal))}</pre></details>
{after}
<div class="controls">
<button type="button" id="first" title="first (Home)">&laquo; First</button>
<button type="button" id="prev" title="previous (left arrow)">&lsaquo; Previous</button>
<button type="button" id="next" title="next (right arrow)">Next &rsaquo;</button>
<button type="button" id="last" title="last (End)">Last &raquo;</button>
<span id="caption"></span>
</div>
<div id="frames">{"".join(frames)}</div>
{moves}
<script>{SCRIPT}</script>
</body></html>
"""
