"""The battle plane: hulls (``hull``), moving every ship of a battle together (``motion``), what a meeting
of hulls was under the rule books (``contact``), and laying the ships on it as a battle opens
(``layout``)."""
