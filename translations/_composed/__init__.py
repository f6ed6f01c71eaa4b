"""Composed fallbacks: implementations written once with ``do``, by topic.

Each module registers its functions with ``@composed("name")``; a library uses
them unless its table has an entry of that name.
"""
