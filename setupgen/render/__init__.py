"""Stage 4 of the pipeline: boards to pages. Pure ``board -> page``
functions: the page kit (:mod:`.page`), the board picture (:mod:`.board`,
fitted by :mod:`.fitting`, numbered by :mod:`.numbering`, labelled by
:mod:`.labels`, explained by :mod:`.legend`), the table sheet (:mod:`.sheet`), the director's key (:mod:`.key`), the
director's page (:mod:`.director`), listings (:mod:`.listing`), PDF and PNG
(:mod:`.pdf`) and the bytes of the ``board`` command (:mod:`.export`)."""
