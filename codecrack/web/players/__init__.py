"""Players: who a browser is across tables (a guest, or an account), held by a server-side session.

- :mod:`.identity`: players and their sessions in the database; ``current_player`` for a route,
  ``socket_player`` for a websocket.
- :mod:`.csrf`: every cookie-authenticated state change must come from this site's own pages.
- :mod:`.accounts`: handles, argon2id passwords, sign-in throttling; :mod:`.account_routes` over HTTP.
- :mod:`.leaving`: a player's export of its own data, and the deletion of its account.
- :mod:`.install`: ``install_players(app, hub)`` puts it all on the app.
- :mod:`.routes`: ``/api/me`` and the player's seats.
- :mod:`.ratings`: OpenSkill ratings of rated games, updated once after the end; :mod:`.rating_routes`
  a table's changes and the leaderboards.
"""
