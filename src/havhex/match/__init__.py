"""havhex.match: engine against engine, adjudicated by havhex's judges.

``engines`` runs the players (GTP processes or Python callables) and
``dialects`` knows the engine families' words.
"""
