"""``kgen chat``: the Textual terminal assistant (app, panels, slash commands, sessions)."""
