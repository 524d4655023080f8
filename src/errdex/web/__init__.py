"""The web face: HTML pages for people and JSON for programs, drawn from one page model."""
