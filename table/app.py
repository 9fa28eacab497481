"""The table server's ASGI app: the API the page uses, and the page.

Every answer is JSON; every refusal is ``{"error": "one line"}`` with a 4xx status: 400 for a
request that does not read (unknown game, a malformed action), 403 for a key that may not do
it, 404 for no such table, 409 for what the rules or the moment forbid (out of turn, an
illegal raise, nothing to undo). A refused request changes nothing.

The API (``/docs`` shows it too):

- ``POST /api/tables`` with the table (``game``, ``seats``, ``stacks``, ``blinds``, ``deal``,
  ``bots``, ...; ``table.session.Session.create``) -> ``{"id", "dealer_key", "seat_keys"}``;
- ``GET /api/tables/{id}?key=KEY`` -> the state as that key may see it (``Session.view``);
- ``POST /api/tables/{id}/act`` with ``{"key", "action": "p3 cbr 12"}`` -> the new state (with
  ``"hand"`` and ``"step"``, the hand number and count of actions the sender saw, it applies
  only to that state: a second press of the same button is refused);
- ``POST /api/tables/{id}/undo`` with ``{"key"}`` (the dealer's) -> the new state;
- ``POST /api/tables/{id}/change`` with ``{"key", "op", ...}`` (``Session.change``) -> ``{"seat",
  "key"}`` for a new seat, and the new state.

Actions on one table are applied one at a time (a lock per table); two phones pressing at
once get one applied and one refused as out of turn.

>>> import tempfile
>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(Path(tempfile.mkdtemp())))
>>> made = client.post("/api/tables", json={"game": "holdem", "seats": ["Ann", "Bo"], "stacks": 100}).json()
>>> seen = client.get(f"/api/tables/{made['id']}", params={"key": made["seat_keys"][0]}).json()
>>> seen["hand"], seen["actor"], len(seen["holes"][0]), seen["holes"][1]
(1, 1, 2, None)
>>> client.post(f"/api/tables/{made['id']}/act", json={"key": made["seat_keys"][0], "action": "p2 f"}).json()
{'error': 'a seat key acts only for its own seat'}
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from starlette.exceptions import HTTPException

from engine.hand import IllegalAction
from evaluator.errors import SampyongError
from table.bots import Bots
from table.session import Conflict, Forbidden, NotFound, Session
from table.store import Store

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024  # bytes: a table or an action is far smaller


class Tables:
    """The tables served from ``folder``: those saved there are restored, hands in progress
    included; one that cannot be is left out, its reason in ``broken``, and the others served."""

    def __init__(self, folder: Path, bots: Bots = Bots(), announce=None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.bots = bots
        self.announce = announce or (lambda session: None)
        self.lock = threading.Lock()
        self.tables: dict[str, Session] = {}
        self.broken: dict[str, str] = {}
        for table_id in Store.table_ids(self.folder):
            try:
                self.tables[table_id] = Session.restore(self.folder, table_id, bots)
            except SampyongError as error:
                self.broken[table_id] = str(error)

    def create(self, config) -> Session:
        with self.lock:
            session = Session.create(self.folder, config, self.bots)
            self.tables[session.id] = session
        self.announce(session)
        return session

    def get(self, table_id: str) -> Session:
        try:
            return self.tables[table_id]
        except KeyError:
            raise NotFound(f"no table {table_id!r}") from None


def status_of(error: SampyongError) -> int:
    """The HTTP status of a refusal."""
    if isinstance(error, Forbidden):
        return 403
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, (Conflict, IllegalAction)):
        return 409
    return 400


def create_app(folder: Path, bots: Bots = Bots(), announce=None):
    """The ASGI app serving the tables of ``folder`` (``bots``: the policies its bots may play,
    ``table.bots.Bots``; ``announce(session)``: called for each new table)."""
    tables = Tables(folder, bots, announce)
    app = FastAPI(title="Sampyong table", description=__doc__.split(">>>")[0], version="1")
    app.state.tables = tables

    @app.exception_handler(SampyongError)
    async def refused(request: Request, error: SampyongError):
        return JSONResponse({"error": str(error).splitlines()[0]}, status_code=status_of(error))

    @app.exception_handler(RequestValidationError)
    async def unreadable(request: Request, error: RequestValidationError):
        return JSONResponse(
            {"error": "the request must be a JSON object with the fields the API names"}, status_code=400
        )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException):
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    async def json_body(request: Request) -> dict:
        """The request's body as a JSON object, whatever its content type says."""
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise SampyongError(f"the body is over {MAX_BODY // 1024} KB")
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            body = None
        if not isinstance(body, dict):
            raise SampyongError("the body must be a JSON object")
        return body

    def body_key(body) -> str:
        if not isinstance(body, dict) or not isinstance(body.get("key"), str):
            raise SampyongError('the request needs the key, as {"key": ...}')
        return body["key"]

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/api/games")
    def games():
        """The presets, betting structures and bot policies the page offers."""
        from evaluator.games import PRESETS

        return {
            "games": [
                {"name": name, "hole_cards": g.hole_cards, "max_players": g.max_players} for name, g in PRESETS.items()
            ],
            "betting": ["no-limit", "pot-limit", "fixed-limit"],
            "policies": tables.bots.names(),
        }

    @app.post("/api/tables")
    def create(config: dict = Depends(json_body)):
        """A new table: ``game`` (a preset; knobs ``hole_use``, ``ranking``, ``low``), ``betting``,
        ``seats`` (names), ``stacks`` (one number or one per seat), ``blinds`` ([small, big]),
        ``straddle``, ``ante``, ``deal`` ("app" or "physical"), ``bots`` ({"seat": policy}),
        ``wait`` (deal each hand when the dealer says). Returns the table's id and keys."""
        session = tables.create(config)
        return {"id": session.id, "dealer_key": session.dealer_key, "seat_keys": session.seat_keys}

    @app.get("/api/tables/{table_id}")
    def state(table_id: str, key: str = ""):
        """The table as ``key`` may see it."""
        session = tables.get(table_id)
        with session.lock:
            return session.view(key)

    @app.post("/api/tables/{table_id}/act")
    def act(table_id: str, body: dict = Depends(json_body)):
        """Apply one PHH action (``{"key", "action": "p3 cbr 12"}``; optional ``hand`` and ``step``,
        the hand number and the count of its actions the sender saw: refused if the table moved on)."""
        session = tables.get(table_id)
        key = body_key(body)
        with session.lock:
            session.act(key, body.get("action"), body.get("hand"), body.get("step"))
            return session.view(key)

    @app.post("/api/tables/{table_id}/undo")
    def undo(table_id: str, body: dict = Depends(json_body)):
        """The dealer takes back the last action of a person in this hand."""
        session = tables.get(table_id)
        key = body_key(body)
        with session.lock:
            session.undo(key)
            return session.view(key)

    @app.post("/api/tables/{table_id}/change")
    def change(table_id: str, body: dict = Depends(json_body)):
        """A dealer's change between hands: ``op`` deal, button, chips, seat or remove."""
        session = tables.get(table_id)
        key = body_key(body)
        with session.lock:
            answer = session.change(key, {k: v for k, v in body.items() if k != "key"})
            return {**answer, "state": session.view(key)}

    return app
