"""Snapshots: a hand, a table or a clocked hand as JSON data, and back (the PHH hand
histories are :mod:`omaha.phh`).

- :mod:`~omaha.history.sealing` -- the codec: the envelope every snapshot travels in (format,
  fields, digest or HMAC signature), bounded JSON, one wording of refusals; it knows nothing
  of hands.
- :mod:`~omaha.history.record` -- a hand's snapshot body and its replay, read through the
  ``Replayable`` protocol (it never imports the hand).
- :mod:`~omaha.history.snapshot` -- the public face: snapshot, restore and replay of hands and
  tables.

The hand and the table call the first two (``Hand.snapshot``/``restore``); the third sits
above them. Nothing is imported here.
"""
