"""Rendering: the JSON records are the contract; the terminal draws the same records."""
