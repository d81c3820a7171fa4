"""Operations: what whoever runs Parlor needs beside the game (health and metrics endpoints, REST errors by route,
backup and restore). It serves no player and speaks no Discord."""
