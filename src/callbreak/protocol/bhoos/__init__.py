"""The Bhoos Smart Bots Call Break tournament protocol (2022): serve, seat and import.

* ``server`` — ``create_app(bot)``: any registered bot as a tournament bot
  (``GET /hi``, ``POST /bid``, ``POST /play``), stateless, on FastAPI + uvicorn
  (``callbreak serve-bot``).  Imported lazily: ``import callbreak`` never loads
  FastAPI.
* ``convert`` — ``parse_request``: a request checked and rebuilt into the
  asking seat's ``Observation`` through the engine's one observation builder.
* ``referee`` — ``play_bhoos_game``: whole games the tournament's way against
  bots over HTTP (and local ones), written as a tournament log.
* The remote seat (``callbreak.arena.remote.RemoteBot``: ``--seat http://…``)
  and the log importer (``callbreak.record.bhoos.import_bhoos_log``:
  ``callbreak import-bhoos``) live in the layers that own them and are
  re-exported here.
"""

from callbreak.arena.remote import RemoteBot, bhoos_request
from callbreak.protocol.bhoos.convert import (
    BHOOS_RULES,
    BhoosRequest,
    BhoosRequestError,
    parse_request,
)
from callbreak.record.bhoos import BhoosImport, BhoosLogError, import_bhoos_log

__all__ = [
    "BHOOS_RULES",
    "BhoosImport",
    "BhoosLogError",
    "BhoosRequest",
    "BhoosRequestError",
    "RemoteBot",
    "bhoos_request",
    "import_bhoos_log",
    "parse_request",
]
