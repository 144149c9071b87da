// Each game's front-end module, loaded on demand. A game without one uses the generic module.
import generic from "../generic.js";
import { known, t } from "../i18n.js";

const MODULES = {
  coda: () => import("./coda.js"),
  coding: () => import("./coding.js"),
  alphacode: () => import("./alphacode.js"),
};

export function gameTitle(name) {
  return known(`app.game.${name}`) ? t(`app.game.${name}`) : name;
}

export async function gameModule(name) {
  return MODULES[name] ? { ...generic, ...(await MODULES[name]()).default } : generic;
}
