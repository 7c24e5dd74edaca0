"""The tactical layer: battles fought tick by tick under one of several historical rule sets.

``protocol`` fixes what every engine takes and gives; ``kinematics`` and ``geometry`` are the shared
arithmetic of a local plane in yards; ``helm`` turns each side's intent into courses and speeds;
``battle`` drives an engine tick by tick and checks the common ends of a battle; the engines
(``nwc1905``, ``jane``, ``board``) hold the rules.
"""
