// node driver.js URL TABLES SECONDS GAMES LOW HIGH SEED
// Plays TABLES match slots against the boardgame.io server at URL, the same load pattern as
// `codecrack loadtest`: each slot creates a 2-player match over the lobby API, joins both seats,
// and plays them through boardgame.io's own socket.io client; each player guesses a random number
// when it is its turn, after a pause drawn in [LOW, HIGH] seconds (0 0: flat out). GAMES matches
// per slot (0: back to back until SECONDS are up). Prints one JSON object: latencies (seconds, from
// the move to the player's own next state), errors, and valid/invalid/cut game counts.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { SecretGame } = require('./game');

const [url, tables, seconds, games, low, high, seed] = process.argv.slice(2);
const deadline = Date.now() + Number(seconds) * 1000;
const tally = { latencies: [], errors: {}, valid: 0, invalid: [], cut: 0 };

function seeded(value) { // mulberry32
  let a = value >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function error(message) { tally.errors[message] = (tally.errors[message] || 0) + 1; }

async function post(path, body) {
  const answer = await fetch(`${url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`POST ${path}: ${answer.status}`);
  return answer.json();
}

async function openMatch() {
  const { matchID } = await post('/games/secret/create', { numPlayers: 2 });
  const credentials = [];
  for (const playerID of ['0', '1']) {
    credentials.push((await post(`/games/secret/${matchID}/join`, { playerID, playerName: `load${playerID}` })).playerCredentials);
  }
  return { matchID, credentials };
}

// One seat: resolves with its final ctx.gameover, or null at the deadline.
function playSeat(matchID, playerID, credentials, random) {
  return new Promise((resolve) => {
    const client = Client({ game: SecretGame, multiplayer: SocketIO({ server: url }), matchID, playerID, credentials, debug: false });
    let sentAt = null; let sentState = -1; let acted = -1; let timer = null; let done = false;
    const finish = (result) => {
      if (done) return;
      done = true; clearTimeout(timer); clearTimeout(stop); client.stop(); resolve(result);
    };
    const stop = setTimeout(() => finish(null), Math.max(0, deadline - Date.now()));
    client.subscribe((state) => {
      if (!state || done) return;
      if (sentAt !== null && state._stateID > sentState) {
        tally.latencies.push((performance.now() - sentAt) / 1000);
        sentAt = null;
      }
      if (state.ctx.gameover) return finish(state.ctx.gameover);
      if (state.ctx.currentPlayer === playerID && acted !== state._stateID && sentAt === null) {
        acted = state._stateID;
        const pause = Number(high) > 0 ? (Number(low) + random() * (Number(high) - Number(low))) * 1000 : 0;
        timer = setTimeout(() => {
          sentAt = performance.now(); sentState = state._stateID;
          client.moves.guess(1 + Math.floor(random() * 100));
        }, pause);
      }
    });
    client.start();
  });
}

async function slot(index) {
  const random = seeded(Number(seed) * 7919 + index);
  for (let played = 0; (Number(games) === 0 || played < Number(games)) && Date.now() < deadline; played++) {
    const { matchID, credentials } = await openMatch();
    const ends = await Promise.all(['0', '1'].map((id, i) => playSeat(matchID, id, credentials[i], random)));
    if (ends.some((end) => end === null)) { tally.cut += 1; return; }
    const end = ends[0];
    const ok = (end.draw === true || end.winner === '0' || end.winner === '1') && JSON.stringify(ends[1]) === JSON.stringify(end);
    if (ok) tally.valid += 1; else tally.invalid.push(`${matchID}: ${JSON.stringify(ends)}`);
  }
}

const slots = Array.from({ length: Number(tables) }, (_, index) => slot(index).catch((e) => error(String(e).slice(0, 300))));
Promise.all(slots).then(() => {
  // exit only once the report is written: a pipe takes it in pieces, and exit() would cut it at 64 KiB
  process.stdout.write(JSON.stringify(tally), () => process.exit(0));
});
