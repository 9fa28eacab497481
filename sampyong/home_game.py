"""The home game's face (``sampyong table``): ``table_app``, the ASGI app of ``table/`` with each
game's starting-hand ranking handed to its bots, and ``table``, which serves it."""

from __future__ import annotations

from pathlib import Path

from evaluator.errors import SampyongError
from sampyong.rankings import ranking


def table_app(folder: str | Path = "tables", policies: str | Path | None = None, announce=None):
    """The home-game server's ASGI app (``sampyong table``): the tables saved in ``folder`` are
    restored, hands in progress included, and each finished hand is appended to
    ``folder/<id>.phhs``. Bots play the built-in policies and the ``.toml`` files of
    ``policies`` (by name); those that read preflop percentiles get the game's ``ranking``.
    ``announce(session)`` is called for every table created. See ``table.app`` for the API.

    >>> import tempfile
    >>> from fastapi.testclient import TestClient
    >>> client = TestClient(table_app(tempfile.mkdtemp()))
    >>> client.post("/api/tables", json={"game": "pls9", "seats": ["Ann", "Bo"]}).json()["error"]
    "unknown game 'pls9'; choose one of pls7, pls, pls7-2, holdem, plo, plo8, plo5-8"
    """
    from table.app import create_app
    from table.bots import Bots

    rankings = {}

    def ranking_of(rules):
        if rules not in rankings:
            rankings[rules] = ranking(rules)
        return rankings[rules]

    if policies is not None and not Path(policies).is_dir():
        raise SampyongError(f"{policies} is not a folder of policy files")
    return create_app(Path(folder), Bots(ranking_of, Path(policies) if policies else None), announce)


def table(
    folder: str | Path = "tables",
    *,
    policies: str | Path | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    echo=print,
) -> None:
    """Serve ``table_app(folder, policies)`` on ``host:port`` until interrupted (``sampyong table``):
    ``echo`` gets the URL, any table that could not be restored and, when the server listens
    beyond this machine, every table's links. ``SampyongError`` when the port is taken or the host
    cannot be bound.

    >>> import socket
    >>> with socket.socket() as taken:
    ...     taken.bind(("127.0.0.1", 0)); taken.listen()
    ...     table("tables", port=taken.getsockname()[1])
    Traceback (most recent call last):
    ...
    evaluator.errors.SampyongError: cannot listen on 127.0.0.1:... (Address already in use); choose another --host or --port
    """
    import socket

    import uvicorn

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        reason = str(error.strerror or error).split(" (while")[0]
        raise SampyongError(f"cannot listen on {host}:{port} ({reason}); choose another --host or --port") from None
    local = host in ("127.0.0.1", "localhost", "::1")
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"

    def announce(session):
        if local:
            return
        echo(f"table {session.id}: dealer {base}/?table={session.id}&key={session.dealer_key}")
        for seat, key in zip(session.seats, session.seat_keys):
            echo(f"  {seat.name}: {base}/?table={session.id}&key={key}")

    app = table_app(folder, policies, announce)
    for table_id, reason in app.state.tables.broken.items():
        echo(f"table {table_id} is not served: {reason}")
    for session in app.state.tables.tables.values():
        announce(session)
    echo(f"Sampyong table on {base}/  (records in {Path(folder)}/; Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _lan_address() -> str:
    """This machine's address on the home network (the one a phone would reach), else its name."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()
