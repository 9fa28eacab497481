"""The home-game server (``sampyong table``): a second face over the engine and the rules.

``table.session`` referees one table, ``table.views`` is what a key is shown of a hand,
``table.bots`` the policies bots may play, ``table.store`` keeps what survives a kill, and
``table.app`` serves the API and the page (``table/static``).
"""
