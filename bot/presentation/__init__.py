"""Presentation: what a table says and offers, built from views only (words, pictures, alt text, choices).

Plain data for every window to render; it imports no Discord and no web server."""
