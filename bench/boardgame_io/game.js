'use strict';
// "Draw": a small turn-based card game for boardgame.io, the peer the bench measures the
// service against. Every move is real work of the kind a card game does on each command:
// the current player draws a card from a shared, server-side shuffle (boardgame.io's
// seeded `random` plugin), the card is added to that player's score, the deck shrinks, and
// the turn passes to the next player (`maxMoves: 1`). The match ends when the deck is
// empty, the highest score winning. G stays small, so that what is measured is the
// framework's move path (transport, master, reducer, broadcast), not a large state.
//
// The deck's size comes from `setupData.deck` at creation (the lobby API's `setupData`), so
// a match can be as long as the service's recorded games are on average.

const DEFAULT_DECK = 132;

const Draw = {
  name: 'draw',
  minPlayers: 2,
  maxPlayers: 8,

  setup: ({ ctx }, setupData) => {
    const scores = {};
    for (let p = 0; p < ctx.numPlayers; p++) scores[p] = 0;
    return {
      deck: (setupData && setupData.deck) || DEFAULT_DECK,
      last: null,
      scores,
    };
  },

  // Trusted input only: the lobby's setupData comes from whoever creates the match.
  validateSetupData: (setupData) => {
    if (setupData === undefined) return undefined;
    const deck = setupData.deck;
    if (!Number.isInteger(deck) || deck < 1 || deck > 100000) return 'deck: 1..100000';
    return undefined;
  },

  turn: { minMoves: 1, maxMoves: 1 },

  moves: {
    draw: {
      // The card comes from the server's shuffle: a client cannot compute it, so it waits
      // for the server's update instead of predicting one (what a card game must do).
      client: false,
      move: ({ G, ctx, random }) => {
        const card = random.Die(13);
        G.scores[ctx.currentPlayer] += card;
        G.deck -= 1;
        G.last = { player: ctx.currentPlayer, card };
      },
    },
  },

  endIf: ({ G }) => {
    if (G.deck > 0) return undefined;
    let winner = '0';
    for (const p of Object.keys(G.scores)) if (G.scores[p] > G.scores[winner]) winner = p;
    return { winner };
  },
};

module.exports = { Draw, DEFAULT_DECK };
