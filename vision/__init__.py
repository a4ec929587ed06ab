"""Vision: a scene of pieces in table millimetres from a camera frame. Knows no game's rules."""
