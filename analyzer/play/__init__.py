"""Play: the Shengji bots and the match generator."""
