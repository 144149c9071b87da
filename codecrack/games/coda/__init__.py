"""Coda (The Da Vinci Code): crack the rows of numbered tiles your opponents hold.

``rules`` holds the turn logic (:class:`~codecrack.games.coda.rules.CodaGame`), ``tiles`` the
tile type and sort order, ``view`` what each seat may see. The rules are in ``docs/rules/coda.md``.
"""
