"""Every layer's math, once, as plain torch modules (no allennlp import): one folder per kind of part, named after
its config key. The registered parts allennlp builds from configs (`srl_zoo.modules`, `srl_zoo.models.heads`)
subclass these; the runtime (`srl_zoo.runtime`) builds them from an archive without allennlp."""
