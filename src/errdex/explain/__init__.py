"""Explaining: a site and its linked facts become a page: what it means, when, how to fix."""
