// A minimal boardgame.io game with codecrack's message pattern: 2 players, a secret number per
// player shown only to its owner through playerView, one move per turn, the move run on the
// server only (client: false), so a move's latency is a real round trip.
const SecretGame = {
  name: 'secret',
  setup: ({ random }) => ({
    secret: { 0: random.Die(100), 1: random.Die(100) },
    guesses: [],
    winner: null,
  }),
  playerView: ({ G, playerID }) => ({
    ...G,
    secret: playerID === null || playerID === undefined ? {} : { [playerID]: G.secret[playerID] },
  }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    guess: {
      move: ({ G, playerID }, value) => {
        const other = playerID === '0' ? '1' : '0';
        G.guesses.push([playerID, value]);
        if (value === G.secret[other]) G.winner = playerID;
      },
      client: false,
    },
  },
  // About as long as a 2-player game of Coda between random players; a draw after 60 guesses.
  endIf: ({ G }) => (G.winner !== null ? { winner: G.winner } : G.guesses.length >= 60 ? { draw: true } : undefined),
};

module.exports = { SecretGame };
