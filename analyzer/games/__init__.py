"""Games as plug-ins: the Game interface and the one registry that every command asks what a file is."""
