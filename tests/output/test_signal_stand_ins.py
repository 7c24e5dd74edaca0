"""A message whose passage rests on a shore station's stand-in figures says so where it is told: the
report's story and the replay's message hover (the signals put ``stand_in`` in the route's hop)."""

from __future__ import annotations

from campaign.output.replay_intel import route_text
from campaign.output.report_story import stand_in_text

ROUTE = ({"from": "Admiralstab", "to": "Berlin", "by": "local"},
         {"from": "Berlin", "to": "Nauen W/T", "by": "land_line"},
         {"from": "Nauen W/T", "to": "Souchon", "by": "wireless", "stand_in": "Nauen's ranges"})


def test_the_story_and_the_replay_name_the_stand_in_a_message_went_by() -> None:
    assert stand_in_text({"route": ROUTE}) == " by Nauen W/T (stand-in: Nauen's ranges)"
    assert stand_in_text({"route": ROUTE[:2]}) == ""
    assert route_text(ROUTE) == "by land line to Nauen W/T, wireless to Souchon (stand-in: Nauen's ranges)"
