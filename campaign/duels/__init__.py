"""Duels: one battle set up from a small file (``duel``), its records in the campaign's schema
(``duel_records``) and its odds over many seeds (``duel_odds``). Above the tactics and the world: a duel
takes its light from the real sun and its records from the campaign's clock and recorder."""
