"""Labeling through an archive's inference graphs, without torch: the network exported whole to ONNX graphs
(`srl_zoo.runtime.graph_export` writes them), run by ONNX Runtime, decoded and read out in numpy."""
