"""How ships are handled in battle: admirals and their signals, station keeping, rams, the watch.

``rules`` reads ``data/tactics/helm.yaml``; ``admiral`` decides what a squadron wants of the enemy;
``station`` keeps a ship in column on her leader's wake or in line of bearing; ``avoid`` keeps hulls
apart; ``pilot.Helm`` puts them together for a battle, tick by tick and step by step.
"""

from campaign.tactics.helm.pilot import Helm
from campaign.tactics.helm.rules import HELM_FILE, HelmRules, default_helm_rules

__all__ = ["HELM_FILE", "Helm", "HelmRules", "default_helm_rules"]
