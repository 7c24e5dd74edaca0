"""Leave to fire as the commander believes it, nation by nation (the Admiralty's mistaken 'Commence
hostilities against Austria' of 8 Aug 1914)."""

from __future__ import annotations

import dataclasses

from campaign.command import doctrine
from campaign.command.picture import Report
from campaign.command.view import Standing
from tests.command.test_doctrine import GOEBEN, view

TEGETTHOFF = Report("Tegetthoff", 100.0, 36.0, 18.2, 90.0, 18.0, "recognised", ("Tegetthoff",), 1, source="seen")
SMOKE = Report("contact Gloucester-1", 100.0, 36.0, 18.2, 90.0, 18.0, "smoke", source="seen")
AUSTRIA = Standing(on_contact="engage", may_fire=False, fire_on=(("Austria-Hungary", True),))


def test_a_nations_own_word_overrides_the_general_leave() -> None:
    assert AUSTRIA.believes_may_fire("Austria-Hungary")
    assert not AUSTRIA.believes_may_fire("Germany")  # no word of Germany: the general leave (none)
    assert not AUSTRIA.believes_may_fire(None)
    held = Standing(may_fire=True, fire_on=(("Austria-Hungary", False),))
    assert not held.believes_may_fire("Austria-Hungary") and held.believes_may_fire("Germany")


def test_a_change_merges_into_the_beliefs_he_has() -> None:
    both = Standing(fire_on=(("Germany", True),)).with_fire_on((("Austria-Hungary", True),))
    assert both == (("Austria-Hungary", True), ("Germany", True))
    revoked = dataclasses.replace(AUSTRIA, fire_on=both).with_fire_on((("Austria-Hungary", False),))
    assert revoked == (("Austria-Hungary", False), ("Germany", True))


def test_a_contact_is_taken_for_the_nation_of_its_recognised_ships() -> None:
    assert doctrine.contact_nations(TEGETTHOFF) == ("Austria-Hungary",)
    assert doctrine.contact_nations(GOEBEN) == ("Germany",)
    assert doctrine.contact_nations(SMOKE) == ()  # not recognised: no nation
    mixed = dataclasses.replace(GOEBEN, ships=("Goeben", "Tegetthoff", "Breslau"))
    assert doctrine.contact_nations(mixed) == ("Germany", "Austria-Hungary")


def _steer(reports, standing) -> doctrine.Steer:
    (steer,) = [d for d in doctrine.decide(view(reports, standing=standing), "sighting")
                if isinstance(d, doctrine.Steer)]
    return steer


def test_told_to_fire_on_austria_he_engages_an_austrian_and_only_shadows_a_german() -> None:
    assert _steer([TEGETTHOFF], AUSTRIA).mode == "chase Tegetthoff"
    assert _steer([GOEBEN], AUSTRIA).mode == "shadow Goeben"


def test_an_unrecognised_contact_is_judged_by_the_general_leave() -> None:
    assert _steer([SMOKE], AUSTRIA).mode.startswith("shadow")
    free = dataclasses.replace(AUSTRIA, may_fire=True)
    assert _steer([SMOKE], free).mode.startswith("chase")
    # ... and a recognised one by what he believes of its nation, whatever the general leave.
    held = dataclasses.replace(free, fire_on=(("Austria-Hungary", False),))
    assert _steer([TEGETTHOFF], held).mode == "shadow Tegetthoff"
    assert _steer([GOEBEN], held).mode == "chase Goeben"
