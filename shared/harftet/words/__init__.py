"""Words as players meet them: what the game knows of a word (`info`), players' reports on
words (`reports`), and the dictionary's build at set-up (`build`). The dictionary itself, its
search index and the word search are the engine's (`harftet.engine.words`)."""
