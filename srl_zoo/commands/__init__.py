"""srl_zoo's commands: the allennlp subcommands (`srl-evaluate`, `srl-label`, `srl-neighbours`, `srl-export`,
`srl-teach`, `srl-serve`, registered when `srl_zoo.plugin` imports their modules) and what they share. Importing
this package imports nothing: `srl-zoo label` runs through `corpus_labeling` without allennlp."""
