## src/local.mk: cpr.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.
