// Each game's front-end module: the board module its own package ships (its URL is in
// /api/games), over the generic module. A game without one uses the generic module.
import { api } from "../api.js";
import generic from "../generic.js";
import { known, t } from "../i18n.js";

let catalogue = null;

// The games of /api/games, asked once per page for what does not depend on the language.
export function gameList() {
  catalogue ??= api.games().catch((error) => {
    catalogue = null;
    throw error;
  });
  return catalogue;
}

export function gameTitle(name) {
  return known(`app.game.${name}`) ? t(`app.game.${name}`) : name;
}

export async function gameModule(name) {
  const board = (await gameList()).find((g) => g.name === name)?.board;
  return board ? { ...generic, ...(await import(board)).default } : generic;
}
