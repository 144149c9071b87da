"""The Coding: deduce the other players' hidden codes (a letter and two digits) from data cards
and hack cards. ``rules.CodingGame`` is registered as ``"coding"``."""
