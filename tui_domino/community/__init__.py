"""The players a public server remembers: accounts by SSH key, Glicko-2 ratings per variant,
rated results settled once, and the leaderboards, in one SQLite database in the server's data
directory. The server's core without the server: no SSH, no screen (docs/ssh.md).

- ``glicko2``: the rating maths;
- ``db``: the database, its schema and migrations, the store (with its clock);
- ``accounts``: names owned by keys, guests, a second key by a one-time code;
- ``rated``: what is rated, from a duel's end;
- ``ratings``: a match settled once, the ratings it changes, the limit per pair of accounts;
- ``leaderboard``: the leaderboard of a variant, as text or JSON;
- ``display``: how a rating reads next to a name.
"""
