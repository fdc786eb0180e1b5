"""The game engine: a ruleset model made playable. No module names a ruleset.

Bottom first (each imports only those above it in this list):

    rules       Engine: a ruleset's settings read once; meld and canastra kinds
    state       State and its JSON form    completion  filling a partial state
    reasons     the reason codes           verdict     verdicts and their trace
    context     the facts DSL expressions read, computed from a State
    melds       meld shapes and wild-card layouts
    loading     a State from JSON, checked against the engine
    act         the action being judged: the working state, decide, reject
    opening, going_out, threes, melding, pile, deal, turn   the rules of play
    actions     apply(engine, state, action): parse, dispatch, verdict
    legal       legal_actions(engine, state): the legal moves, judged by apply
    near_legal  near-legal actions (the rules mostly refuse them), for fuzzers
    scoring     the score of a finished hand   agent, play   self-play
    walk        random games: the agent's moves and near-legal ones (fuzzing, strategies)
"""
