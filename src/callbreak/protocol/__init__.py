"""Faces that speak other programs' protocols (docs/design.md's top layer).

``protocol.bhoos``: the HTTP protocol of the Bhoos Smart Bots Call Break tournament.
"""
