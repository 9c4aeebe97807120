"""The browser screens: page files served by felt serve (see felt.server.web)."""
