"""Explaining: a site and its linked facts become a page: what it means, when, how to fix."""

from errdex.explain.build import build_page
from errdex.explain.page import Page

__all__ = ["Page", "build_page"]
