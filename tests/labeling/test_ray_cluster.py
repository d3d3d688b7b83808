"""`srl-zoo label --ray` on a simulated cluster of two worker nodes of one CPU each (`ray.cluster_utils.Cluster`):
it labels the corpus over both, and losing a node mid-run still finishes with every line once."""

import os

import pytest
from ray.cluster_utils import Cluster

from srl_zoo.labeling.local_ray import RAY_FILES, loopback_only
from tests.commands.conftest import write_corpus
from tests.labeling.conftest import ray_in_this_process
from tests.labeling.test_ray_corpus import (
    DOCUMENTS,
    joined_records,
    label_in_background,
    one_process_run,
    same_records,
    wait_for,
)

pytestmark = pytest.mark.slow  # starts a Ray cluster of three nodes


@pytest.fixture()
def two_nodes():
    store = 200 * 2**20  # each node's object store: small, as the blocks' rows are
    with loopback_only() as folder:  # every node on 127.0.0.1 only, its files in a private folder
        head = {
            "num_cpus": 0,
            "include_dashboard": False,
            "object_store_memory": store,
            "temp_dir": os.path.join(folder, RAY_FILES),
        }
        cluster = Cluster(initialize_head=True, head_node_args=head)
        nodes = [cluster.add_node(num_cpus=1, object_store_memory=store) for _ in range(2)]
        cluster.wait_for_nodes()
        with ray_in_this_process(address=cluster.address):
            yield cluster, nodes
        cluster.shutdown()


def test_losing_a_node_mid_run_still_labels_every_line_once(two_nodes, labeler, predicate_model_archive, tmp_path):
    cluster, nodes = two_nodes
    source = write_corpus(tmp_path / "corpus.txt", DOCUMENTS)
    reference = one_process_run(labeler, source, tmp_path / "one.jsonl", chunk_lines=1)
    thread, outcome = label_in_background(predicate_model_archive, source, tmp_path / "out", labeler.batch_size)
    wait_for(lambda: len(list((tmp_path / "out").glob("*.jsonl"))) >= 2)
    cluster.remove_node(nodes[1])
    written_at_loss = len(list((tmp_path / "out").glob("*.jsonl")))
    thread.join(timeout=300)
    assert written_at_loss < len(DOCUMENTS), "the run ended before the node was lost: nothing was tested"
    assert outcome["totals"]["processes"] == 2 and outcome["totals"]["blocks"] == len(DOCUMENTS)
    labeled, errors = joined_records(tmp_path / "out")
    assert same_records(labeled, reference) and errors == []
