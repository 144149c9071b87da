"""Alphabet Code: the sheet, the letters, codes and the rules. ``legal_codes`` lists every legal code."""

from .codes import CodeTable, legal_codes

__all__ = ["CodeTable", "legal_codes"]
