// A Coda bot on the codecrack protocol, for node: guess the hidden tile with the fewest values left.
const readline = require("readline");

function chance(view, guess) {
  const row = view.rows[guess.target];
  const seen = new Set(view.rows.flat().filter((t) => t.value !== null).map((t) => `${t.color}${t.value}`));
  if (view.drawn) seen.add(`${view.drawn.color}${view.drawn.value}`);
  const known = (tiles) => tiles.filter((t) => t.value !== null).map((t) => t.value);
  const low = Math.max(0, ...known(row.slice(0, guess.index)));
  const high = Math.min(11, ...known(row.slice(guess.index + 1)));
  let left = 0;
  for (let v = low; v <= high; v++) if (!seen.has(`${guess.color}${v}`)) left++;
  return guess.value >= low && guess.value <= high && !seen.has(`${guess.color}${guess.value}`) ? 1 / left : 0;
}

function act(view) {
  const legal = view.legal_actions;
  const guesses = legal.filter((a) => a.type === "guess");
  if (guesses.length === 0) return legal[0];
  const best = guesses.reduce((a, b) => (chance(view, b) > chance(view, a) ? b : a));
  const stop = legal.find((a) => a.type === "stop");
  return stop && chance(view, best) < 0.5 ? stop : best;
}

const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "ping") say({ type: "pong", id: message.id });
  else if (message.type === "act") say({ type: "action", id: message.id, action: act(message.view) });
  else if (message.type === "quit") process.exit(0);
});
