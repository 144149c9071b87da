// Each game's front-end module, loaded on demand. A game without one uses the generic module.
import generic from "../generic.js";

const MODULES = {
  coda: () => import("./coda.js"),
  coding: () => import("./coding.js"),
  alphacode: () => import("./alphacode.js"),
};

const TITLES = { coda: "Coda", coding: "The Coding", alphacode: "Alphabet Code" };

export function gameTitle(name) {
  return TITLES[name] ?? name;
}

export async function gameModule(name) {
  return MODULES[name] ? { ...generic, ...(await MODULES[name]()).default } : generic;
}
