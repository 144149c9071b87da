"""`codecrack arena --report`: one offline HTML file with the three plots."""

import base64
import re

from typer.testing import CliRunner

from codecrack.cli import app


def test_the_report_is_one_offline_file_with_three_plots(tmp_path):
    path = tmp_path / "report.html"
    result = CliRunner().invoke(
        app, ["arena", "--game", "coda", "--agents", "medium,random", "--games", "4", "--report", str(path)]
    )
    assert result.exit_code == 0, result.output
    page = path.read_text()
    images = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert len(images) == 3
    assert all(base64.b64decode(image).lstrip().startswith(b"<?xml") for image in images)
    assert "<script" not in page and "<link" not in page and "url(" not in page
    assert not re.search(r'(src|href)="(?!data:)', page)
    for title in ("Win rates", "Ratings", "Decision times", "medium", "random"):
        assert title in page
