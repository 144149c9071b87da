"""An arena report as one offline HTML file: win rates with 95% intervals, rating curves and
decision-time histograms, drawn with matplotlib and embedded as base64 SVG images."""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from pathlib import Path
from typing import Any

from .core.errors import OptionError

FIGURE_SIZE = (7.5, 3.6)


def require_matplotlib() -> None:
    """Fail before a long arena run, not after it, when the report cannot be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        raise OptionError("--report needs matplotlib: pip install 'codecrack[report]'") from None


def write_report(
    path: Path, summary: dict[str, Any], games: list[dict[str, Any]], curves: dict[str, list[tuple[float, float]]]
) -> None:
    """Write the report of one arena run to ``path``."""
    figures = [
        ("Win rates", _win_rates(summary)),
        ("Ratings (OpenSkill mu, band: +-1 sigma)", _ratings(curves)),
        ("Decision times", _decision_times(games)),
    ]
    body = [f"<h1>{html.escape(_title(summary))}</h1>", _table(summary, curves)]
    body += [f'<h2>{title}</h2><img alt="{title}" src="data:image/svg+xml;base64,{svg}">' for title, svg in figures]
    body.append(_faults(summary))
    path.write_text(PAGE.format(title=html.escape(_title(summary)), body="\n".join(body)))


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2em .6em;text-align:right}}td:first-child{{text-align:left}}
img{{max-width:100%}}</style></head>
<body>
{body}
</body></html>
"""


def _title(summary: dict[str, Any]) -> str:
    return f"{summary['game']}, {summary['players']} players, {summary['games']} games"


def _table(summary: dict[str, Any], curves: dict[str, list[tuple[float, float]]]) -> str:
    head = ("agent", "seats", "wins", "win rate", "95% CI", "fair share", "faults", "ms p50", "ms p95", "rating")
    rows = []
    for row in summary["agents"]:
        mu, sigma = curves[row["name"]][-1] if row["name"] in curves else (float("nan"), float("nan"))
        cells = (
            row["name"],
            row["seats"],
            row["wins"],
            f"{row['win_rate']:.3f}",
            f"{row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}",
            f"{row['fair_share']:.3f}",
            row["faults"],
            row["decision_ms"]["p50"],
            row["decision_ms"]["p95"],
            f"{mu:.2f} +- {sigma:.2f}",
        )
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells) + "</tr>")
    header = "<tr>" + "".join(f"<th>{cell}</th>" for cell in head) + "</tr>"
    return f"<table>{header}{''.join(rows)}</table>"


def _faults(summary: dict[str, Any]) -> str:
    if not summary["fault_count"]:
        return "<p>No bot faults.</p>"
    items = "".join(
        f"<li>game {f['game']}, seat {f['seat']}, {html.escape(f['agent'])}: "
        f"{f['kind']}: {html.escape(f['detail'])}</li>"
        for f in summary["faults"]
    )
    return f"<h2>Bot faults ({summary['fault_count']})</h2><ul>{items}</ul>"


def _figure():
    from matplotlib.figure import Figure

    return Figure(figsize=FIGURE_SIZE, layout="constrained")


def _svg(figure) -> str:
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "codecrack", "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return base64.b64encode(buffer.getvalue()).decode()


def _win_rates(summary: dict[str, Any]) -> str:
    figure = _figure()
    axes = figure.subplots()
    rows = summary["agents"]
    positions = range(len(rows))
    rates = [row["win_rate"] for row in rows]
    errors = [
        [rate - row["ci95"][0] for rate, row in zip(rates, rows)],
        [row["ci95"][1] - rate for rate, row in zip(rates, rows)],
    ]
    axes.bar(positions, rates, yerr=errors, capsize=6, color="#4c78a8", label="win rate, 95% Wilson CI")
    axes.scatter(
        positions, [row["fair_share"] for row in rows], marker="_", s=900, color="#e45756", zorder=3, label="fair share"
    )
    axes.set_xticks(list(positions), [_short(row["name"]) for row in rows])
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games won")
    axes.legend(loc="upper right")
    return _svg(figure)


def _ratings(curves: dict[str, list[tuple[float, float]]]) -> str:
    figure = _figure()
    axes = figure.subplots()
    for name, points in curves.items():
        mus = [mu for mu, _ in points]
        sigmas = [sigma for _, sigma in points]
        line = axes.plot(range(len(points)), mus, label=_short(name))[0]
        axes.fill_between(
            range(len(points)),
            [m - s for m, s in zip(mus, sigmas)],
            [m + s for m, s in zip(mus, sigmas)],
            color=line.get_color(),
            alpha=0.15,
        )
    axes.set_xlabel("games played in this run")
    axes.set_ylabel("mu")
    if curves:
        axes.legend(loc="best")
    return _svg(figure)


def _decision_times(games: list[dict[str, Any]]) -> str:
    import numpy as np

    times: dict[str, list[float]] = defaultdict(list)
    for game in games:
        for seat, name in enumerate(game["names"]):
            times[name].extend(game["decision_ms"][seat])
    figure = _figure()
    axes = figure.subplots()
    every = [t for values in times.values() for t in values if t > 0]
    if every:
        bins = np.geomspace(min(every), max(every) * 1.0001, 40) if max(every) > min(every) else 10
        for name, values in times.items():
            axes.hist([t for t in values if t > 0], bins=bins, histtype="step", linewidth=1.5, label=_short(name))
        axes.set_xscale("log")
        axes.legend(loc="best")
    axes.set_xlabel("decision time (ms, log scale)")
    axes.set_ylabel("decisions")
    return _svg(figure)


def _short(name: str, width: int = 28) -> str:
    return name if len(name) <= width else name[: width - 3] + "..."
