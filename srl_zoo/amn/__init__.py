"""AMN (Guan et al. 2019): associated memory of similar training sentences."""

from srl_zoo.amn.associated_memory import AssociatedMemory
from srl_zoo.amn.neighbour_index import NeighbourIndex
