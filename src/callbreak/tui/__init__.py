"""The terminal table: a Textual app where a person plays a match against three bots.

The game itself (``session``) and the pictures of cards and tables (``render``) do not
import Textual, so they are cheap to import and to test; only ``app``, ``widgets`` and
``screens`` need it.  Every
view is built from the human seat's ``Observation`` plus public results: the
face never reads another seat's hand (docs/design.md's first wall).
"""
