"""How AMN picks the associated sentences of a (sentence, predicate): registrable `NeighbourSelector`s."""

from srl_zoo.amn.selectors.edit_distance import EditDistanceSelector
from srl_zoo.amn.selectors.random_selection import RandomSelector
from srl_zoo.amn.selectors.selector import NeighbourSelector, WordVectors
from srl_zoo.amn.selectors.word_vectors import RelaxedWordMoversSelector, SifSelector
